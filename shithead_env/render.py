"""Compact text rendering of a table, for terminals, logs and ``render_mode="ansi"``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shithead_env.cards import RANKS, card_names, rank_word
from shithead_env.events import card_text, plural
from shithead_env.inference import mask_ranks
from shithead_env.knowledge import Knowledge
from shithead_env.moves import window_range
from shithead_env.phases import INTERRUPT, NOMINATE, OVER, PLAY, SWAP
from shithead_env.pile import AT_MOST, EMPTY, JOKER_ONLY, RESET, constraint, top_run

if TYPE_CHECKING:
    from shithead_env.actions import Action
    from shithead_env.game import Game
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


def why_illegal(k: Knowledge, action: Action) -> str:
    """Why ``action`` is not legal for ``k``'s seat, in words (for a human who typed it)."""
    if k.phase == OVER:
        return "the game is over"
    if k.seat != k.current:
        return f"it is P{k.current}'s decision, not yours"
    phase = k.phase
    if action in k.legal:
        return f"{action} is legal"
    if phase == SWAP:
        if action.kind != "face_up":
            return "first choose your face-up cards: face-up <rank>"
        return f"you hold no {rank_word(action.rank)} in your hand"
    if phase == NOMINATE:
        if action.kind != "nominate":
            return "name the player who acts next: nominate <seat>"
        if action.seat >= k.num_players:
            return f"there is no seat {action.seat} at this table of {k.num_players}"
        return f"P{action.seat} is safe and cannot be named"
    if phase == INTERRUPT:
        top = RANKS[k.pile[-1] >> 2]
        if action.kind != "play" or action.rank != top:
            return f"out of turn you may only pass or lay {rank_word(top)}s"
        low, high = window_range(k.rules, k.seat, k.hand or k.face_up[k.seat], k.pile, k.window[1])
        if not high:
            return f"you cannot lay {rank_word(top)}s out of turn now"
        allowed = str(low) if low == high else f"{low} to {high}"
        return f"out of turn you may lay {allowed} {rank_word(top)}{'' if high == 1 else 's'}, not {action.count}"
    zone = k.zone(k.seat)
    if action.kind == "pass":
        return "pass is only for out-of-turn windows; it is your turn"
    if action.kind in ("face_up", "nominate"):
        return f"{action.kind.replace('_', '-')} is not a move now: it is your turn to play"
    if action.kind == "flip":
        return f"flip only once your hand and face-up cards are gone (you play from your {zone.replace('_', '-')})"
    if action.kind == "pickup":
        if not k.pile:
            return "the pile is empty: there is nothing to pick up"
        return "you must play when you can (this table has no voluntary pickup)"
    if zone == "face_down":
        return "your hand and face-up cards are gone: flip a face-down card"
    held = sum(1 for card in (k.hand or k.face_up[k.seat]) if RANKS[card >> 2] == action.rank)
    where = zone.replace("_", "-")
    if not held:
        return f"you hold no {rank_word(action.rank)} in your {where}"
    if held < action.count:
        return f"you hold only {held} {rank_word(action.rank)}{'' if held == 1 else 's'} in your {where}"
    if k.forced_rank is not None:
        return f"you open the game and must play {rank_word(RANKS[k.forced_rank])}s"
    return f"a {rank_word(action.rank)} cannot be played: the pile needs {needs(k)}"
