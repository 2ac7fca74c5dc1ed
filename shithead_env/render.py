"""Compact text rendering of a table, for terminals, logs and ``render_mode="ansi"``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shithead_env.cards import RANKS, card_names

if TYPE_CHECKING:
    from shithead_env.game import Game


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
