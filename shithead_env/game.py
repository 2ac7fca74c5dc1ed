"""The rules engine: one mutable ``Game`` per table.

Randomness lives only in ``Game.new`` (the shuffle and, where the rules say
so, the random dealer and opener); every later move is deterministic, so a
game replays from (rules, players, seed, actions) and search bots can copy
states cheaply. Every decision of every seat is one ``step``.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

import numpy as np

from shithead_env import events as ev
from shithead_env.actions import Action
from shithead_env.cards import JOKER, copies_left, make_deck, rank_index
from shithead_env.errors import IllegalActionError
from shithead_env.inference import lay_hidden, narrow, ranks_mask
from shithead_env.knowledge import Knowledge
from shithead_env.moves import legal_moves, out_of_turn_need
from shithead_env.phases import INTERRUPT, NOMINATE, OVER, PLAY, SWAP, stage_of
from shithead_env.pile import effective_top, top_index, top_run
from shithead_env.render import render_game, why_illegal
from shithead_env.rules import CARDS_PER_PLAYER, HAND_SIZE, TABLE_CARDS, Rules, load_rules
from shithead_env.state import check_position, game_from_dict, game_to_dict
from shithead_env.turns import advance, turn_after_play, zone_of

_PASS = Action.pass_()

class Game:
    """A Shithead table. Build with ``Game.new`` or ``Game.from_dict``."""

    __slots__ = (
        "_draw",
        "_legal",
        "_t",
        "active",
        "burned",
        "current",
        "dealer",
        "decisions",
        "direction",
        "events",
        "face_down",
        "face_up",
        "finish_order",
        "forced_rank",
        "hands",
        "known",
        "max_decisions",
        "narrowed",
        "num_players",
        "opener",
        "phase",
        "pile",
        "rules",
        "truncated",
        "watchers",
        "window",
    )

    # ------------------------------------------------------------ creation
    def __init__(self, rules: Rules, num_players: int) -> None:
        rules.check_players(num_players)
        self.rules = rules
        self._t = rules.tables
        self.num_players = num_players
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.face_up: list[list[int]] = [[] for _ in range(num_players)]
        self.face_down: list[list[int]] = [[] for _ in range(num_players)]
        self.known: list[list[int]] = [[] for _ in range(num_players)]
        # per seat: rank bitmasks of the hidden hand cards public history narrows (shithead_env.inference)
        self.narrowed: list[list[int]] = [[] for _ in range(num_players)]
        self._draw: list[int] = []  # reversed: the next card drawn is the last element
        self.pile: list[int] = []
        self.burned: list[int] = []
        self.current: int | None = 0
        self.direction = 1
        self.phase = PLAY
        self.finish_order: list[int] = []
        self.active = [True] * num_players  # per seat: still holding cards; read-only outside the engine
        self.dealer = num_players - 1
        self.opener: int | None = None  # fixed at the deal, or None: chosen after the swap
        self.decisions = 0
        self.max_decisions = rules.max_decisions
        self.window: tuple[int, int, list[int]] | None = None  # (played_by, next, seats still to ask)
        self.forced_rank: int | None = None
        self.truncated = False
        self._legal: list[Action] | None = None
        self.events: list[ev.Event] | None = None  # public events, while recording (shithead_env.events)
        self.watchers: tuple[Callable[[Game, Action], object], ...] = ()  # ``watch``: told each move before it

    @classmethod
    def new(
        cls,
        rules: Rules | str,
        num_players: int,
        seed: int | np.random.Generator | None = None,
        *,
        previous_loser: int | None = None,
        max_decisions: int | None = None,
    ) -> Game:
        """Shuffle and deal; the game starts in the swap phase.

        ``previous_loser`` is the shithead of the previous game of a match: it
        sets the dealer and opener where the rules' ``next_game`` says so.
        """
        rules = load_rules(rules)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        deck = make_deck(rules.decks_for(num_players), rules.jokers_per_deck)
        deck = [deck[i] for i in rng.permutation(len(deck))]
        dealer = int(rng.integers(num_players))
        random_opener = int(rng.integers(num_players))
        return cls._deal(rules, num_players, deck, dealer, random_opener, previous_loser, max_decisions)

    @classmethod
    def deal(
        cls,
        rules: Rules | str,
        num_players: int,
        deck: Sequence[int],
        dealer: int,
        random_opener: int | None = None,
        *,
        previous_loser: int | None = None,
        max_decisions: int | None = None,
    ) -> Game:
        """Deal ``deck`` in this order (``CARDS_PER_PLAYER`` a seat: 3 face down, 6 in hand; the rest is the
        draw pile, ``deck[-1]`` drawn first), with ``dealer``; the game starts in the swap phase.

        ``new`` deals its own shuffle the same way; a caller that draws the deal itself (an OpenSpiel chance
        node per card) calls this, and its deck is checked. ``random_opener`` is needed only where the rules
        open with a random seat.
        """
        rules = load_rules(rules)
        expected = make_deck(rules.decks_for(num_players), rules.jokers_per_deck)
        if sorted(deck) != sorted(expected):
            raise ValueError(f"deck must hold exactly the {len(expected)} cards of this table's deck")
        return cls._deal(rules, num_players, deck, dealer, random_opener, previous_loser, max_decisions)

    @classmethod
    def _deal(
        cls,
        rules: Rules,
        num_players: int,
        deck: Sequence[int],
        dealer: int,
        random_opener: int | None,
        previous_loser: int | None,
        max_decisions: int | None,
    ) -> Game:
        """``deal`` of a deck known to be the table's (``new``'s own shuffle needs no check)."""
        game = cls(rules, num_players)
        for name, seat in (("dealer", dealer), ("random_opener", random_opener), ("previous_loser", previous_loser)):
            if seat is not None and not (type(seat) is int and 0 <= seat < num_players):  # as the state reads seats
                raise ValueError(f"{name} must be a seat 0..{num_players - 1}, got {seat!r}")
        deck = list(deck)
        for seat in range(num_players):
            cards = deck[seat * CARDS_PER_PLAYER : (seat + 1) * CARDS_PER_PLAYER]
            game.face_down[seat] = cards[:TABLE_CARDS]
            game.hands[seat] = cards[TABLE_CARDS:]
        game._draw = deck[num_players * CARDS_PER_PLAYER :][::-1]
        game.dealer = dealer
        rule = rules.first_player
        if previous_loser is not None:
            if rules.next_game == "loser_deals":
                game.dealer, rule = previous_loser, "left_of_dealer"
            elif rules.next_game == "random":
                rule = "random"
        if rule == "random" and random_opener is None:
            raise ValueError("these rules open with a random seat: give random_opener")
        # The opener is fixed at the deal except for lowest_card, decided after the swap.
        game.opener = {"random": random_opener, "left_of_dealer": (game.dealer + 1) % num_players}.get(rule)
        if max_decisions is not None:
            if type(max_decisions) is not int or max_decisions < 1:  # as the state reads it back
                raise ValueError(f"max_decisions must be a positive int, got {max_decisions!r}")
            game.max_decisions = max_decisions
        game.phase = SWAP
        game.current = (game.dealer + 1) % num_players
        return game

    @classmethod
    def assemble(
        cls,
        rules: Rules,
        *,
        hands: list[list[int]],
        face_up: list[list[int]],
        face_down: list[list[int]],
        known: list[list[int]],
        narrowed: list[list[int]] | None = None,
        draw_pile: Sequence[int] = (),
        pile: Sequence[int] = (),
        burned: Sequence[int] = (),
        phase: str = PLAY,
        current: int | None = None,
        direction: int = 1,
        finish_order: list[int] | None = None,
        dealer: int | None = None,
        opener: int | None = None,
        decisions: int = 0,
        max_decisions: int | None = None,
        window: tuple[int, int, list[int]] | None = None,
        forced_rank: int | None = None,
        truncated: bool = False,
        check: bool = True,
    ) -> Game:
        """A game from its parts (card codes; ``draw_pile`` next card first), refused unless reachable in shape.

        A part left out takes its default here, which is what a state dict
        that omits the key means (docs/state.md, "Optional on input").

        The one way to build a position other than dealing: ``from_dict`` and
        the determinizer both come here, so both are checked alike
        (``state.check_position``; ``StateError`` names the fault).
        ``check=False`` is for a caller that has checked a position of the same
        shape already (``determinize.Determinizer``'s later deals).
        """
        game = cls(rules, len(hands))
        game.hands = [list(h) for h in hands]
        game.face_up = [list(h) for h in face_up]
        game.face_down = [list(h) for h in face_down]
        game.known = [list(h) for h in known]
        if narrowed is not None:
            game.narrowed = [list(masks) for masks in narrowed]
        game._draw = list(draw_pile)[::-1]
        game.pile = list(pile)
        game.burned = list(burned)
        game.phase = phase
        game.current = current
        game.direction = direction
        game.finish_order = list(finish_order or [])
        game.active = [seat not in game.finish_order for seat in range(game.num_players)]
        game.dealer = game.num_players - 1 if dealer is None else dealer
        game.opener = opener
        game.decisions = decisions
        game.max_decisions = rules.max_decisions if max_decisions is None else max_decisions
        game.window = None if window is None else (window[0], window[1], list(window[2]))
        game.forced_rank = forced_rank
        game.truncated = truncated
        if check:
            check_position(game)
        if phase == PLAY:
            game._begin_turn(current)  # harrogate: face-up cards go into the hand before acting
        return game

    # ------------------------------------------------------------ queries
    @property
    def current_player(self) -> int | None:
        return self.current

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def draw_pile(self) -> list[int]:
        """Draw pile, next card first."""
        return self._draw[::-1]

    @property
    def draw_pile_size(self) -> int:
        return len(self._draw)

    def is_active(self, seat: int) -> bool:
        """Still holding cards (not safe, and not the loser of a finished game)."""
        return self.active[seat]

    def effective_top(self) -> int | None:
        """Rank index of the topmost non-invisible pile card, None if there is none."""
        return effective_top(self._t, self.pile)

    def top_run(self) -> tuple[int | None, int]:
        """(rank index, length) of the physical run of equal ranks on top of the pile."""
        return top_run(self.pile)

    def cards_left(self, seat: int) -> int:
        """Cards ``seat`` still holds: hand, face-up and face-down (as ``Knowledge.cards_left``)."""
        return len(self.hands[seat]) + len(self.face_up[seat]) + len(self.face_down[seat])

    def zone(self, seat: int) -> str:
        """The zone the seat plays from now: ``hand``, ``face_up``, ``face_down`` or ``none``."""
        return zone_of(len(self.hands[seat]), len(self.face_up[seat]), len(self.face_down[seat]))

    def stage(self, seat: int) -> str:
        """The stage ``seat`` decides in now (``phases.STAGES``): its ``Knowledge.stage``, without building one."""
        return stage_of(self.phase, self.draw_pile_size, self.zone(seat))

    @property
    def only_pass(self) -> bool:
        """Whether the seat to act may only pass: asked out of turn in an interrupt window it cannot use.

        Nothing to decide: the environments and the game frontends pass for it instead of asking.
        """
        return self.phase == INTERRUPT and self.legal_actions() == [_PASS]

    def play_until(
        self,
        deciders: Container[int],
        move: Callable[[int], Action],
        *,
        step: Callable[[Action], object] | None = None,
        until: Callable[[], bool] | None = None,
        pass_for_deciders: bool = True,
    ) -> int | None:
        """Play the table until a seat of ``deciders`` must decide, and return it (None once the game is over, or
        as soon as ``until()`` holds).

        Every other seat's move is ``move(seat)``; a decider whose only move is to pass out of turn
        (``only_pass``) is passed for, unless ``pass_for_deciders`` is false. ``step`` applies each action
        (default: ``self.step``; a frontend narrating events or an environment keeping its books passes its own).
        The one loop of the game sessions, the terminal game, the tournament and the training environments.
        """
        apply = self.step if step is None else step
        while not self.is_over and not (until is not None and until()):
            seat = self.current
            if seat not in deciders:
                apply(move(seat))
            elif pass_for_deciders and self.only_pass:
                apply(_PASS)
            else:
                return seat
        return None

    def watch(self, watcher: Callable[[Game, Action], object]) -> None:
        """Call ``watcher(game, action)`` with each legal move from now on, before it is applied.

        For a bot that learns from how the other seats play (agents/model_fit.py): the engine keeps no history
        of decisions, and a bot is asked only at its own turns. A watcher reads the game and must not change it;
        copies (a search's), deep copies, pickles and saved games have none.
        """
        self.watchers = (*self.watchers, watcher)

    def legal_actions(self) -> list[Action]:
        """Legal actions of ``current_player`` (empty once the game is over)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def is_legal(self, action: Action) -> bool:
        if self._legal is None:
            self._legal = self._compute_legal()
        return action in self._legal

    def _compute_legal(self) -> list[Action]:
        seat = self.current
        if seat is None:
            return []
        return legal_moves(
            self.rules, self.phase, seat, self.hands[seat], self.face_up[seat],
            self.pile, self.forced_rank, self.window, self.active,
        )

    # ------------------------------------------------------------- stepping
    def step(self, action: Action) -> None:
        """Apply one decision of ``current_player``; refuses anything illegal."""
        if not isinstance(action, Action):
            raise IllegalActionError(
                f"expected an Action, got {action!r}; use Action.from_index(i) for an integer index"
            )
        if self._legal is None:
            self._legal = self._compute_legal()
        if action not in self._legal:
            if self.phase == OVER:
                raise IllegalActionError(f"{action!r}: the game is over")
            why = why_illegal(Knowledge.from_game(self, self.current), action)
            raise IllegalActionError(
                f"{action!r} is not legal for seat {self.current} in phase {self.phase!r}: {why}; legal: {self._legal}"
            )
        for watcher in self.watchers:
            watcher(self, action)
        self._legal = None
        seat = self.current
        kind = action.kind
        phase = self.phase
        if phase == PLAY:
            if kind == "play":
                self.forced_rank = None
                rank = rank_index(action.rank)
                self._lay(seat, rank, action.count)
                self._resolve(seat, rank, action.count, None)
            elif kind == "pickup":
                if not self.rules.voluntary_pickup and self.hands[seat]:
                    # Forced: none of its hidden cards could be played here.
                    self._narrow(seat, self._t.unplayable[top_index(self._t, self.pile)])
                self._take_pile(seat, [])
                self._begin_turn(self._advance(seat, 1))
            else:
                self._flip(seat)
        elif phase == INTERRUPT:
            played_by, next_seat, queue = self.window
            self.window = None
            if kind == "pass":
                if self.events is not None:
                    self._emit(ev.passed, seat)
                if queue:
                    self.current = queue[0]
                    self.window = (played_by, next_seat, queue[1:])
                else:
                    self._begin_turn(next_seat)
            else:
                rank = rank_index(action.rank)
                self._lay(seat, rank, action.count)
                self._resolve(seat, rank, action.count, next_seat)
        elif phase == NOMINATE:
            self._emit(ev.nominated, seat, action.seat)
            self._after_play(seat, action.seat)
        else:
            self._swap_pick(seat, rank_index(action.rank))
        self.decisions += 1
        if self.phase != OVER and self.decisions >= self.max_decisions:
            self.truncated = True
            self._end()

    def _swap_pick(self, seat: int, rank: int) -> None:
        hand = self.hands[seat]
        self._hidden_left(seat, rank, 1)
        for i, card in enumerate(hand):
            if card >> 2 == rank:
                self.face_up[seat].append(hand.pop(i))
                break
        self._emit(ev.chose_face_up, seat, self.face_up[seat][-1])
        if len(self.face_up[seat]) < TABLE_CARDS:
            return
        chooser = (seat + 1) % self.num_players
        if chooser != (self.dealer + 1) % self.num_players:
            self.current = chooser
            return
        self._open_game()

    def _open_game(self) -> None:
        """After the swap: the opener fixed at the deal, else the holder of the lowest card."""
        left = (self.dealer + 1) % self.num_players
        opener = self.opener
        if opener is None:
            opener = left
            if self.rules.first_player == "lowest_card":
                values = self._t.first_player_value
                best: tuple[int, int, int] | None = None  # (value, seat, rank)
                for offset in range(self.num_players):
                    seat = (left + offset) % self.num_players
                    for card in self.hands[seat]:
                        value = values[card >> 2]
                        if value is not None and (best is None or value < best[0]):
                            best = (value, seat, card >> 2)
                if best is not None:
                    opener = best[1]
                    if self.rules.opener_plays_lowest:
                        self.forced_rank = best[2]
                self._narrow_by_opening(left, best)
            self.opener = opener
        self._emit(ev.opens, opener)
        self._begin_turn(opener)

    def _narrow_by_opening(self, left: int, best: tuple[int, int, int] | None) -> None:
        """A lowest-card opening is public: nobody held a lower card, no seat asked before the opener an equal one.

        ``best`` is (value, opener, rank) as ``_open_game`` found it asking from ``left``, or None (nobody
        held a counted card).
        """
        values = self._t.first_player_value
        for offset in range(self.num_players):
            seat = (left + offset) % self.num_players
            if best is None:
                allowed = ranks_mask([r for r, v in enumerate(values) if v is None])
            else:
                low, opener, rank = best
                asked_before = offset < (opener - left) % self.num_players
                allowed = ranks_mask(
                    [r for r, v in enumerate(values) if v is None or v > low or (v == low and not asked_before)]
                )
            self._narrow(seat, allowed)
            if best is not None and seat == opener:  # and the opener held that rank: one card is narrowed to it
                masks = self.narrowed[seat]  # nothing narrowed before the opening, so every mask here is alike
                if len(masks) < len(self.hands[seat]):
                    masks.append(1 << rank)
                else:
                    masks[-1] = 1 << rank

    def _narrow(self, seat: int, allowed: int) -> None:
        """Every hidden card of the seat's hand is of a rank in ``allowed``."""
        hidden = len(self.hands[seat]) - len(self.known[seat])
        allowed &= self._t.deck_ranks
        if hidden and allowed != self._t.deck_ranks:
            self.narrowed[seat] = narrow(self.narrowed[seat], hidden, allowed)

    def _hidden_left(self, seat: int, rank: int, count: int) -> None:
        """``count`` hidden cards of ``rank`` are leaving the seat's hand (still counted in it)."""
        hidden = len(self.hands[seat]) - len(self.known[seat])
        self.narrowed[seat] = lay_hidden(self.narrowed[seat], hidden, rank, count)

    def _begin_turn(self, seat: int) -> None:
        self.phase = PLAY
        self.current = seat
        if self.rules.face_up == "take_into_hand" and not self.hands[seat] and not self._draw and self.face_up[seat]:
            self._emit(ev.took_face_up, seat)
            self.hands[seat] = self.face_up[seat]
            self.known[seat].extend(self.face_up[seat])
            self.face_up[seat] = []

    def _advance(self, seat: int, steps: int) -> int:
        """Move ``steps`` active seats on from ``seat`` in the current direction."""
        return advance(self.active, self.direction, seat, steps)

    def _lay(self, seat: int, rank: int, count: int) -> None:
        """Move ``count`` cards of ``rank`` from the seat's zone onto the pile (known cards first)."""
        zone = self.hands[seat]
        taken: list[int] = []
        if zone:
            known = self.known[seat]
            for card in [c for c in known if c >> 2 == rank][:count]:
                known.remove(card)
                zone.remove(card)
                taken.append(card)
            if self.narrowed[seat] and len(taken) < count:
                self._hidden_left(seat, rank, count - len(taken))
        else:
            zone = self.face_up[seat]
        i = 0
        while len(taken) < count:
            if zone[i] >> 2 == rank:
                taken.append(zone.pop(i))
            else:
                i += 1
        self.pile += taken
        if self.events is not None:
            self._emit(ev.played, seat, taken, zone is self.hands[seat])

    def _flip(self, seat: int) -> None:
        card = self.face_down[seat].pop(0)
        rank = card >> 2
        playable = self._t.legal[top_index(self._t, self.pile)][rank]
        if self.events is not None:
            self._emit(ev.flipped, seat, card, playable)
        if playable:
            self.pile.append(card)
            self._resolve(seat, rank, 1, None)
        else:
            self._take_pile(seat, [card])
            self._begin_turn(self._advance(seat, 1))

    def _take_pile(self, seat: int, extra: list[int]) -> None:
        """Pile (plus ``extra``) into the seat's hand, seen by all; Jokers leave the game."""
        if self.events is not None:
            self._emit(ev.picked_up, seat, extra)
        cards = [c for c in self.pile if c >> 2 != JOKER] + extra
        self.burned += [c for c in self.pile if c >> 2 == JOKER]
        self.pile = []
        self.hands[seat] += cards
        self.known[seat] += cards

    def _resolve(self, seat: int, rank: int, count: int, window_next: int | None) -> None:
        """Everything that follows cards landing on the pile.

        ``window_next`` is set for an out-of-turn play: the seat whose turn
        the window was holding.
        """
        t = self._t
        burn = t.burn[rank]
        if not burn and t.run_burn:
            burn = self.top_run()[1] >= t.run_burn  # the cards just laid are on top
        hand, draw = self.hands[seat], self._draw
        held = len(hand)
        while len(hand) < HAND_SIZE and draw:
            hand.append(draw.pop())
        if self.events is not None:
            self._emit(ev.drew, seat, hand[held:])
        if burn:  # before the safe check: a burn that ends the game still burns
            self._emit(ev.burned, seat, rank)
            self.burned += self.pile
            self.pile = []
        safe = not hand and not self.face_up[seat] and not self.face_down[seat]
        if safe:
            self._make_safe(seat)
            if self.phase == OVER:
                return
        if burn:
            self._begin_turn(self._advance(seat, 1) if safe else seat)
            return
        if window_next is not None:  # a dump: no power applies, the held turn stands
            self._after_play(seat, window_next)
            return
        direction = self.direction
        next_seat, self.direction = turn_after_play(t, self.active, direction, seat, rank, count, safe=safe)
        if self.direction != direction:
            self._emit(ev.reversed_, seat)
        if next_seat is None:
            self.phase = NOMINATE
            self.current = seat
            return
        if not t.extra_turn[rank] and self.events is not None:
            self._emit(ev.skipped, seat, rank, count)
        self._after_play(seat, next_seat)

    def _after_play(self, played_by: int, next_seat: int) -> None:
        """Open an interrupt window if anyone may play out of turn, else start the next turn."""
        if not self.active[next_seat]:
            next_seat = self._advance(next_seat, 1)
        if self._t.has_windows and self.pile:
            queue = self._window_queue(played_by, next_seat)
            if queue:
                self.phase = INTERRUPT
                self.current = queue[0]
                self.window = (played_by, next_seat, queue[1:])
                return
        self._begin_turn(next_seat)

    def _window_queue(self, played_by: int, next_seat: int) -> list[int]:
        """Seats to ask, in turn order after ``played_by``: those that might hold the play.

        Decided from public information alone (RULES.md section 4), so being
        asked reveals nothing: a seat acting from its hand is asked when its
        known copies of the top rank plus its unknown hand cards (at most the
        copies nobody has seen) could make the play; a seat on its face-up
        cards only when it holds the play there. Face-down cards never play
        out of turn.
        """
        need = out_of_turn_need(self.rules, self.pile)
        if need is None:
            return []
        rank = self.pile[-1] >> 2
        dump = self._t.dump[rank]
        unseen = self._unaccounted(rank)
        queue = []
        n, d = self.num_players, self.direction
        seat = played_by
        for _ in range(n - 1):
            seat = (seat + d) % n
            if not self.active[seat] or (seat == next_seat and not dump):
                continue
            hand = self.hands[seat]
            if hand:
                known = self.known[seat]
                own = sum(1 for card in known if card >> 2 == rank)
                asked = own + min(len(hand) - len(known), unseen) >= need
            else:
                asked = sum(1 for card in self.face_up[seat] if card >> 2 == rank) >= need
            if asked:
                queue.append(seat)
        return queue

    def _unaccounted(self, rank: int) -> int:
        """Copies of ``rank`` nobody has seen: not on the pile, burned, face up or in a known hand card."""
        seen = (self.pile, self.burned, *self.face_up, *self.known)
        return copies_left(self.rules.decks_for(self.num_players), self.rules.jokers_per_deck, seen, rank)

    def _make_safe(self, seat: int) -> None:
        self.active[seat] = False
        self.finish_order.append(seat)
        self._emit(ev.became_safe, seat)
        if self.active.count(True) == 1:
            loser = self.active.index(True)
            self.finish_order.append(loser)
            self.active[loser] = False
            self._end()

    def _end(self) -> None:
        self.phase = OVER
        self.current = None
        self.window = None
        self._legal = None
        self._emit(ev.ended)

    def _emit(self, make: Callable[..., ev.Event | None], *args: Any) -> None:
        """Record the event ``make(self, *args)`` builds, only while recording is on.

        The call sites of every decision test ``self.events`` first, so a game nobody records (a search
        bot's copy, a training env) pays no call for it.
        """
        if self.events is not None and (event := make(self, *args)) is not None:
            self.events.append(event)

    # -------------------------------------------------------------- copies
    def copy(self) -> Game:
        """An independent copy (cheap: lists of ints are copied, rules shared)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g._t = self._t
        g.num_players = self.num_players
        g.hands = [h[:] for h in self.hands]
        g.face_up = [h[:] for h in self.face_up]
        g.face_down = [h[:] for h in self.face_down]
        g.known = [h[:] for h in self.known]
        g.narrowed = [masks[:] for masks in self.narrowed]
        g._draw = self._draw[:]
        g.pile = self.pile[:]
        g.burned = self.burned[:]
        g.current = self.current
        g.direction = self.direction
        g.phase = self.phase
        g.finish_order = self.finish_order[:]
        g.active = self.active[:]
        g.dealer = self.dealer
        g.opener = self.opener
        g.decisions = self.decisions
        g.max_decisions = self.max_decisions
        g.window = None if self.window is None else (self.window[0], self.window[1], self.window[2][:])
        g.forced_rank = self.forced_rank
        g.truncated = self.truncated
        g._legal = self._legal
        g.events = None  # a copy (a search bot's) records nothing
        g.watchers = ()  # nor tells anyone its moves
        return g

    def __getstate__(self) -> tuple[None, dict[str, object]]:
        """What pickles and deep copies keep: every slot but the watchers, which stay with the live game, as with
        ``copy`` (a watcher may hold what cannot be pickled: a bot's network sessions, a lock)."""
        slots = {name: getattr(self, name) for name in self.__slots__ if hasattr(self, name)}
        return None, slots | {"watchers": ()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Game(rules={self.rules.name!r}, players={self.num_players}, phase={self.phase!r}, "
            f"current={self.current}, decisions={self.decisions})"
        )

    def render(self, seat: int | None = None) -> str:
        """Readable text table, from ``seat``'s point of view (None: everything face up)."""
        return render_game(self, seat)

    # -------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible state; ``Game.from_dict`` rebuilds an equal game."""
        return game_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game from ``to_dict`` output or a hand-written position."""
        return game_from_dict(cls, data)

    def view(self, seat: int) -> dict[str, Any]:
        """JSON-compatible dict of exactly what ``seat`` may know (what a bot or a frontend sees)."""
        return Knowledge.from_game(self, seat).to_dict()
