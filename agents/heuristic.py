"""``heuristic``: a rule-of-thumb player that any search bot can use for rollouts.

The strategy (docs/bots.md has the long form):

- **Swap.** Face up go the magic cards (anytime, reset, invisible, burn,
  joker) and then the highest ranks, pairs kept together: face-up cards are
  played late, when no draw pile helps, so they must be able to beat anything.
- **Play.** Lowest plain (non-magic) rank, all its copies. Magic cards are
  saved for emergencies: used only when nothing plain is legal, one copy at a
  time while the draw pile still refills the hand, cheapest first (invisible,
  reset, other anytime, burn, joker). Once the draw pile is empty every copy
  goes at once: no refill is coming, and emptying the hand ends the game
  sooner (``harrogate``, where the face-up cards join the hand, showed it).
- **Burns.** A play that completes a run burn is taken first (the pile goes
  and the bot acts again). A burn card is spent on a big pile
  (``big_pile`` cards or more) when the cheapest plain play would cost a high
  card anyway.
- **Attack.** When the next player to act (after any skips) is close to going
  out (``attack_at`` cards left or fewer), the bot counts cards: from that
  player's known cards (face up, or seen in its hand) and the unseen cards
  (the deck minus everything public), it estimates the chance the player can
  beat each candidate play, and picks caps, skips or high cards that block it.
- **Out of turn.** It snatches or dumps (all copies) unless that spends magic
  cards on a small pile.
- **Nominate.** It names the opponent with the fewest cards left.
- **Pickup.** Only where the rules allow a voluntary pickup: it takes a pile of
  at most 2 cards rather than spend magic while the draw pile still refills
  its hand.

It is deterministic: ``rng`` is unused, so duplicate deals replay exactly.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from agents.base import KnowledgeBot
from agents.simple import ACTION_RANK, rank_profile
from shithead_env import Action
from shithead_env.actions import FLIP, PICKUP, PLAYS
from shithead_env.knowledge import Knowledge
from shithead_env.phases import NOMINATE, PLAY, SWAP
from shithead_env.pile import top_run
from shithead_env.rules import RuleTables
from shithead_env.turns import turn_after_play

SMALL_PILE = 2


class HeuristicBot(KnowledgeBot):
    """The documented rule-of-thumb strategy (module doc)."""

    # a spec option this bot does not take -> the option that does what the name suggests (``make_bot``'s hint)
    option_hints: ClassVar[dict[str, str]] = {"endgame": "attack_at"}

    def __init__(self, big_pile: int = 6, attack_at: int = 4) -> None:
        if big_pile < 1 or attack_at < 0:
            raise ValueError(f"heuristic needs big_pile >= 1 and attack_at >= 0, got {big_pile}, {attack_at}")
        self.big_pile = big_pile
        self.attack_at = attack_at

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        legal = knowledge.legal
        if len(legal) == 1:
            return legal[0]
        phase = knowledge.phase
        if phase == PLAY:
            return self._play(knowledge)
        if phase == SWAP:
            return self._swap(knowledge)
        if phase == NOMINATE:
            return self._nominate(knowledge)
        return self._interrupt(knowledge)

    # ------------------------------------------------------------- phases
    def _swap(self, k: Knowledge) -> Action:
        profile = rank_profile(k.rules)
        on_table = {card >> 2 for card in k.face_up[k.seat]}

        def keep(action: Action) -> float:
            r = ACTION_RANK[action.index]
            return profile.strength[r] + profile.num_ordered * profile.magic[r] + 0.5 * (r in on_table)

        return max(k.legal, key=keep)

    def _nominate(self, k: Knowledge) -> Action:
        others = [a for a in k.legal if a.seat != k.seat] or k.legal
        return min(others, key=lambda a: (k.cards_left(a.seat), a.seat))

    def _interrupt(self, k: Knowledge) -> Action:
        plays = [a for a in k.legal if a.kind == "play"]
        if not plays:
            return Action.pass_()
        play = max(plays, key=lambda a: a.count)
        if rank_profile(k.rules).magic[ACTION_RANK[play.index]] and len(k.pile) < self.big_pile:
            return Action.pass_()
        return play

    def _play(self, k: Knowledge) -> Action:
        counts: dict[int, int] = {}
        for action in k.legal:
            if action.index < PICKUP:
                rank = ACTION_RANK[action.index]
                counts[rank] = max(counts.get(rank, 0), action.count)
        if not counts:
            return next((a for a in k.legal if a.index == FLIP), k.legal[0])
        profile = rank_profile(k.rules)
        t, magic, strength = profile.tables, profile.magic, profile.strength
        pile = k.pile
        if t.run_burn and pile:
            top = pile[-1] >> 2
            spend = top in counts and (not magic[top] or len(pile) >= self.big_pile)
            if spend and top_run(pile)[1] + counts[top] >= t.run_burn:
                return PLAYS[top][counts[top] - 1]
        plain = [r for r in counts if not magic[r]]
        burn = next((r for r in counts if t.burn[r]), None)
        if plain:
            choice = min(plain, key=strength.__getitem__)
            if burn is not None and len(pile) >= self.big_pile and strength[choice] >= profile.num_ordered - 4:
                return _spend(k, burn, counts)
            if len(plain) > 1:
                choice = self._attack(k, plain, counts, choice)
            return PLAYS[choice][counts[choice] - 1]
        if any(a.index == PICKUP for a in k.legal) and len(pile) <= SMALL_PILE and k.hand and k.draw_size:
            return Action.pickup()
        if burn is not None and len(pile) >= self.big_pile:
            choice = burn
        else:
            choice = min(counts, key=lambda r: _magic_cost(t, r))
        return _spend(k, choice, counts)

    def _attack(self, k: Knowledge, plain: list[int], counts: dict[int, int], cheapest: int) -> int:
        """Against a next player about to go out, the plain play it is least likely to beat."""
        attack_at = self.attack_at
        if all(k.cards_left(s) > attack_at for s in range(k.num_players) if k.active[s]):
            return cheapest  # nobody is near out (every target below is an active seat)
        profile = rank_profile(k.rules)
        t = profile.tables
        # Who answers each play, by the engine's own rule; a nominating play names its own target.
        targets = {r: turn_after_play(t, k.active, k.direction, k.seat, r, counts[r], safe=False)[0] for r in plain}
        targets = {r: s for r, s in targets.items() if s is not None}
        if all(k.cards_left(s) > attack_at for s in targets.values()):
            return cheapest
        unseen = k.unseen_counts(per_rank=True)
        total = sum(unseen) or 1
        strength, top = profile.strength, profile.num_ordered

        def risk(r: int) -> float:
            target = targets.get(r)
            threat = target is not None and k.cards_left(target) <= attack_at
            return (_beat_chance(k, target, t.legal[r], unseen, total) if threat else 0.0) + 0.3 * strength[r] / top

        return min(plain, key=lambda r: (risk(r), strength[r]))


def _spend(k: Knowledge, rank: int, counts: dict[int, int]) -> Action:
    """A magic play: one copy while the draw pile refills the hand (keep the rest for later), else all of them."""
    return PLAYS[rank][0 if k.hand and k.draw_size else counts[rank] - 1]


def _beat_chance(k: Knowledge, seat: int, legal_row: tuple[bool, ...], unseen: list[int], total: int) -> float:
    """Chance that ``seat`` holds a legal answer, from its public cards and the unseen-card counts."""
    share = sum(n for n, ok in zip(unseen, legal_row, strict=False) if ok) / total
    if k.hand_sizes[seat]:
        if any(legal_row[c >> 2] for c in k.known[seat]):
            return 1.0
        return 1.0 - (1.0 - share) ** (k.hand_sizes[seat] - len(k.known[seat]))
    if k.face_up[seat]:
        return float(any(legal_row[c >> 2] for c in k.face_up[seat]))
    return share


def _magic_cost(t: RuleTables, r: int) -> int:
    """Which magic card to spend first: invisible, reset, other anytime, burn, joker."""
    if t.invisible[r]:
        return 0
    if t.reset[r]:
        return 1
    if t.joker[r]:
        return 4
    return 3 if t.burn[r] else 2
