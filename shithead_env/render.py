"""Compact text rendering of a table, for terminals, logs and ``render_mode="ansi"``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shithead_env.cards import RANKS, card_names, rank_word
from shithead_env.events import card_text, plural
from shithead_env.inference import mask_ranks
from shithead_env.knowledge import Knowledge
from shithead_env.phases import INTERRUPT, NOMINATE, OVER, PLAY, SWAP
from shithead_env.pile import AT_MOST, EMPTY, JOKER_ONLY, RESET, constraint, top_run

if TYPE_CHECKING:
    from collections.abc import Callable

    from shithead_env.actions import Action
    from shithead_env.game import Game
    from shithead_env.moves import Refusal
    from shithead_env.rules import Rules


def _cards(codes: list[int]) -> str:
    return card_text(card_names(sorted(codes, key=lambda c: (c >> 2, c)))) or "-"


ZONE_WORDS = {"hand": "hand", "face_up": "face-up cards", "face_down": "face-down cards"}


def _narrowed(masks: list[int]) -> str:
    """What public history says of hidden hand cards: ``2 of them 4/5/6/7/8/9/J/Q`` (each one of those ranks)."""
    counts: dict[int, int] = {}
    for mask in masks:
        counts[mask] = counts.get(mask, 0) + 1
    return ", ".join(f"{n} of them {'/'.join(rank_word(RANKS[r]) for r in mask_ranks(mask))}"
                     for mask, n in sorted(counts.items()))


def needs(k: Knowledge) -> str:
    """What the pile asks of the next play, in words."""
    if k.forced_rank is not None:
        return f"opener must play {rank_word(RANKS[k.forced_rank])}"
    kind, top = constraint(k.rules.tables, k.pile)
    if kind == EMPTY:
        return "anything"
    name = rank_word(RANKS[top])
    if kind == JOKER_ONLY:
        return "Joker: only a Joker"
    if kind == RESET:
        return f"{name} reset: anything"
    return f"{name} or lower" if kind == AT_MOST else f"{name} or higher"


def render_game(game: Game, seat: int | None = None) -> str:
    """The table from ``seat``'s point of view; None shows every card (omniscient)."""
    if seat is None:
        return render_knowledge(Knowledge.from_game(game, game.current or 0), reveal=game)
    return render_knowledge(Knowledge.from_game(game, seat))


def render_knowledge(k: Knowledge, reveal: Game | None = None) -> str:
    """The table as ``k``'s seat sees it; ``reveal`` (the game itself) shows every card instead (omniscient)."""
    direction = "clockwise" if k.direction == 1 else "anticlockwise"
    lines = [
        f"{k.rules.name} | {k.num_players} players | decision {k.decisions}/{k.max_decisions} "
        f"| phase {k.phase} | {direction}"
    ]
    rank, run = top_run(k.pile)
    shown = ("... " if len(k.pile) > 8 else "") + card_text(card_names(k.pile[-8:]))
    run_text = f" | run {run}x{rank_word(RANKS[rank])}" if run > 1 else ""
    lines.append(f"pile ({len(k.pile)}): {shown or 'empty'} | needs {needs(k)}{run_text}")
    lines.append(f"draw pile: {k.draw_size} | burned: {len(k.burned)}")
    over = k.phase == OVER
    for s in range(k.num_players):
        marker = ">" if s == k.current else " "
        who = f"P{s}" + (" (you)" if reveal is None and s == k.seat else "")
        if s in k.finish_order:
            place = k.finish_order.index(s) + 1
            status = "shithead" if over and place == k.num_players else f"safe #{place}"
            lines.append(f"{marker} {who:9} {status}")
            continue
        if reveal is not None or s == k.seat:
            hand = _cards(k.hand if reveal is None else reveal.hands[s])
        else:
            known = k.known[s]
            hand = plural(k.hand_sizes[s], "card") + (f" (known: {_cards(known)})" if known else "")
            if k.narrowed[s]:  # forced pickups and the opening tell some ranks of the cards not seen
                hand += f" (by its play, {_narrowed(k.narrowed[s])})"
        down = _cards(reveal.face_down[s]) if reveal is not None else f"{k.face_down[s]} hidden"
        lines.append(f"{marker} {who:9} hand: {hand} | face-up: {_cards(k.face_up[s])} | face-down: {down}")
    if over:
        order = " > ".join("you" if reveal is None and s == k.seat else f"P{s}" for s in k.finish_order)
        lines.append(
            ("truncated at the decision cap; finished: " if k.truncated else "finish order: ") + (order or "-")
        )
    else:
        why = {
            SWAP: "choose face-up cards",
            PLAY: f"turn, from {ZONE_WORDS[k.zone(k.current)]}",
            NOMINATE: "name the next player",
            INTERRUPT: "may play out of turn",
        }[k.phase]
        lines.append(f"to act: P{k.current} ({why})")
    return "\n".join(lines)


_POWER_WORDS = {
    "anytime": "on anything",
    "reset": "resets",
    "invisible": "invisible",
    "cap": "next {rank} or lower",
    "skip": "skips",
    "burn": "burns the pile",
    "reverse": "reverses",
    "nominate": "names who plays next",
    "joker": "only a Joker on it",
    "extra_turn": "go again",
    "eight_dump": "anyone may dump",
}


def legend(rules: Rules) -> str:
    """One line: the preset's card powers, its run burn and its out-of-turn and pickup rules."""
    parts = []
    for rank in RANKS:
        powers = [p for p in rules.powers_of(rank) if rank != "X" or rules.jokers_per_deck]
        if powers:
            words = ", ".join(_POWER_WORDS[p].format(rank=rank_word(rank)) for p in powers)
            parts.append(f"{rank_word(rank)} {words}")
    if rules.run_burn:
        parts.append(f"{rules.run_burn} in a row burn")
    if rules.snatch:
        parts.append("complete the run out of turn (snatch)")
    if rules.voluntary_pickup:
        parts.append("you may always pick up")
    if rules.face_up == "take_into_hand":
        parts.append("face-up cards go to the hand once the draw pile is gone")
    return f"{rules.name}: " + "; ".join(parts)


def _out_of_turn_count(k: Knowledge, action: Action, why: Refusal) -> str:
    fewest = "" if why.low == why.high else f"{why.low} to "
    return f"out of turn you may lay {fewest}{plural(why.high, _top(k))}, not {action.count}"


def _top(k: Knowledge) -> str:
    return rank_word(RANKS[k.pile[-1] >> 2])


def _where(k: Knowledge) -> str:
    return k.zone(k.seat).replace("_", "-")


# The words for each of ``moves.REASONS``: (knowledge, action, refusal) -> why.
_REFUSALS: dict[str, Callable[[Knowledge, Action, Refusal], str]] = {
    "game_over": lambda k, a, why: "the game is over",
    "not_your_turn": lambda k, a, why: f"it is P{k.current}'s decision, not yours",
    "swap_only": lambda k, a, why: "first choose your face-up cards: face-up <rank>",
    "nominate_only": lambda k, a, why: "name the player who acts next: nominate <seat>",
    "no_such_seat": lambda k, a, why: f"there is no seat {a.seat} at this table of {k.num_players}",
    "seat_out": lambda k, a, why: f"P{a.seat} is safe and cannot be named",
    "out_of_turn_only": lambda k, a, why: f"out of turn you may only pass or lay {_top(k)}s",
    "no_out_of_turn_play": lambda k, a, why: f"you cannot lay {_top(k)}s out of turn now",
    "out_of_turn_count": _out_of_turn_count,
    "pass_in_turn": lambda k, a, why: "pass is only for out-of-turn windows; it is your turn",
    "not_in_play": lambda k, a, why: f"{a.kind.replace('_', '-')} is not a move now: it is your turn to play",
    "flip_early": lambda k, a, why: f"flip only once your hand and face-up cards are gone (you play from your "
    f"{_where(k)})",
    "flip_now": lambda k, a, why: "your hand and face-up cards are gone: flip a face-down card",
    "empty_pile": lambda k, a, why: "the pile is empty: there is nothing to pick up",
    "must_play": lambda k, a, why: "you must play when you can (this table has no voluntary pickup)",
    "not_held": lambda k, a, why: f"you hold no {rank_word(a.rank)} in your {_where(k)}",
    "too_few": lambda k, a, why: f"you hold only {plural(why.held, rank_word(a.rank))} in your {_where(k)}",
    "forced_rank": lambda k, a, why: f"you open the game and must play {rank_word(RANKS[k.forced_rank])}s",
    "pile_refuses": lambda k, a, why: f"a {rank_word(a.rank)} cannot be played: the pile needs {needs(k)}",
}


def why_illegal(k: Knowledge, action: Action) -> str:
    """Why ``action`` is not legal for ``k``'s seat, in words (for a human who typed it): the rule
    ``moves.refusal`` names, worded."""
    why = k.refusal(action)
    return f"{action} is legal" if why is None else _REFUSALS[why.reason](k, action, why)
