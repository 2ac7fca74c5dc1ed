"""Compact text rendering of a table, for terminals, logs and ``render_mode="ansi"``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shithead_env.cards import RANKS, card_names
from shithead_env.events import rank_word

if TYPE_CHECKING:
    from shithead_env.actions import Action
    from shithead_env.game import Game
    from shithead_env.rules import Rules


def _cards(codes: list[int]) -> str:
    return " ".join(card_names(sorted(codes, key=lambda c: (c >> 2, c)))) or "-"


def constraint(game: Game) -> str:
    """What the pile asks of the next play, in words."""
    t = game._t
    if game.forced_rank is not None:
        return f"opener must play {RANKS[game.forced_rank]}"
    top = game.effective_top()
    if top is None:
        return "anything"
    name = RANKS[top]
    if t.joker[top]:
        return "Joker: only a Joker"
    if t.reset[top]:
        return f"{name} reset: anything"
    if t.cap[top]:
        return f"{name} or lower"
    return f"{name} or higher"


def render_game(game: Game, seat: int | None = None) -> str:
    """The table as text; hidden cards shown only when ``seat`` is None (omniscient)."""
    rules = game.rules
    direction = "clockwise" if game.direction == 1 else "anticlockwise"
    lines = [
        f"{rules.name} | {game.num_players} players | decision {game.decisions}/{game.max_decisions} "
        f"| phase {game.phase} | {direction}"
    ]
    rank, run = game.top_run()
    pile = card_names(game.pile[-8:])
    shown = ("... " if len(game.pile) > 8 else "") + " ".join(pile)
    run_text = f" | run {run}x{RANKS[rank]}" if run > 1 else ""
    lines.append(f"pile ({len(game.pile)}): {shown or 'empty'} | needs {constraint(game)}{run_text}")
    lines.append(f"draw pile: {game.draw_pile_size} | burned: {len(game.burned)}")
    for s in range(game.num_players):
        marker = ">" if s == game.current else " "
        who = f"P{s}" + (" (you)" if s == seat else "")
        if s in game.finish_order:
            place = game.finish_order.index(s) + 1
            status = (
                "shithead" if game.is_over and place == game.num_players and not game.truncated else f"safe #{place}"
            )
            lines.append(f"{marker} {who:9} {status}")
            continue
        if seat is None or s == seat:
            hand = _cards(game.hands[s])
        else:
            known = game.known[s]
            hand = f"{len(game.hands[s])} cards" + (f" (known: {_cards(known)})" if known else "")
        down = _cards(game.face_down[s]) if seat is None else f"{len(game.face_down[s])} hidden"
        lines.append(f"{marker} {who:9} hand: {hand} | face-up: {_cards(game.face_up[s])} | face-down: {down}")
    if game.is_over:
        order = " > ".join(f"P{s}" for s in game.finish_order)
        lines.append(
            ("truncated at the decision cap; finished: " if game.truncated else "finish order: ") + (order or "-")
        )
    else:
        why = {
            "swap": "choose face-up cards",
            "play": f"turn, from {game.zone(game.current)}",
            "nominate": "name the next player",
            "interrupt": "may play out of turn",
        }[game.phase]
        lines.append(f"to act: P{game.current} ({why})")
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


def why_illegal(game: Game, action: Action) -> str:
    """Why ``action`` is not legal for the seat to act, in words (for a human who typed it)."""
    if game.is_over:
        return "the game is over"
    seat, phase = game.current, game.phase
    if game.is_legal(action):
        return f"{action} is legal"
    if phase == "swap":
        if action.kind != "face_up":
            return "first choose your face-up cards: face-up <rank>"
        return f"you hold no {rank_word(action.rank)} in your hand"
    if phase == "nominate":
        if action.kind != "nominate":
            return "name the player who acts next: nominate <seat>"
        if action.seat >= game.num_players:
            return f"there is no seat {action.seat} at this table of {game.num_players}"
        return f"P{action.seat} is safe and cannot be named"
    if phase == "interrupt":
        top = RANKS[game.pile[-1] >> 2]
        if action.kind != "play" or action.rank != top:
            return f"out of turn you may only pass or lay {rank_word(top)}s"
        return f"you cannot lay {action.count} {rank_word(top)} out of turn now (too many, or too few to burn)"
    zone = game.zone(seat)
    if action.kind == "pass":
        return "pass is only for out-of-turn windows; it is your turn"
    if action.kind in ("face_up", "nominate"):
        return f"{action.kind.replace('_', '-')} is not a move now: it is your turn to play"
    if action.kind == "flip":
        return f"flip only once your hand and face-up cards are gone (you play from your {zone.replace('_', '-')})"
    if action.kind == "pickup":
        if not game.pile:
            return "the pile is empty: there is nothing to pick up"
        return "you must play when you can (this table has no voluntary pickup)"
    if zone == "face_down":
        return "your hand and face-up cards are gone: flip a face-down card"
    held = sum(1 for card in (game.hands[seat] or game.face_up[seat]) if RANKS[card >> 2] == action.rank)
    where = zone.replace("_", "-")
    if not held:
        return f"you hold no {rank_word(action.rank)} in your {where}"
    if held < action.count:
        return f"you hold only {held} {rank_word(action.rank)}{'' if held == 1 else 's'} in your {where}"
    if game.forced_rank is not None:
        return f"you open the game and must play {rank_word(RANKS[game.forced_rank])}s"
    return f"a {rank_word(action.rank)} cannot be played: the pile needs {constraint(game)}"
