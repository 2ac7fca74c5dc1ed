"""The legal moves of the seat to act, from what that seat sees: the engine and a view's check share it.

Every input is known to the acting seat (its own hand and face-up cards, the
pile, the window, who is still in), so a JSON view's ``legal_actions`` can be
checked against the rules without dealing out anybody's hidden cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from shithead_env.actions import _TABLE as _ACTIONS
from shithead_env.actions import FACE_UPS, FLIP, NOMINATES, PASS, PICKUP, PLAYS, Action
from shithead_env.phases import INTERRUPT, NOMINATE, PLAY, SWAP
from shithead_env.pile import top_index, top_run
from shithead_env.rules import Rules

_PICKUP, _FLIP, _PASS = _ACTIONS[PICKUP], _ACTIONS[FLIP], _ACTIONS[PASS]


def legal_moves(
    rules: Rules,
    phase: str,
    seat: int,
    hand: Sequence[int],
    face_up: Sequence[int],
    pile: Sequence[int],
    forced_rank: int | None,
    window: tuple[int, int, Sequence[int]] | None,
    active: Sequence[bool],
) -> list[Action]:
    """Legal actions of ``seat``, the seat to act, holding ``hand`` and ``face_up``, in action-index order.

    The order is documented (docs/state.md): action-index order with
    ``pickup`` last. Empty once the game is over.
    """
    if phase == PLAY:
        zone = hand or face_up
        if not zone:
            return [_FLIP, _PICKUP] if pile and rules.voluntary_pickup else [_FLIP]
        counts: dict[int, int] = {}
        for card in zone:
            rank = card >> 2
            counts[rank] = counts.get(rank, 0) + 1
        if forced_rank is not None:
            return list(PLAYS[forced_rank][: counts.get(forced_rank, 0)])
        legal_row = rules.tables.legal[top_index(rules.tables, pile)]
        actions: list[Action] = []
        for rank in sorted(counts):
            if legal_row[rank]:
                actions += PLAYS[rank][: counts[rank]]
        if pile and (not actions or rules.voluntary_pickup):
            actions.append(_PICKUP)
        return actions
    if phase == INTERRUPT:
        low, high = window_range(rules, seat, hand or face_up, pile, window[1])
        plays = list(PLAYS[pile[-1] >> 2][low - 1 : high]) if high else []
        return [*plays, _PASS]
    if phase == NOMINATE:
        return [NOMINATES[s] for s in range(len(active)) if active[s]]
    if phase == SWAP:
        return [FACE_UPS[r] for r in sorted({card >> 2 for card in hand})]
    return []


def out_of_turn_need(rules: Rules, pile: Sequence[int]) -> int | None:
    """Fewest cards of the top rank a play out of turn lays: 1 for a dump, what completes the run burn for a
    snatch; None when the top card allows neither (the engine's window queue and ``window_range`` share it)."""
    t = rules.tables
    rank = pile[-1] >> 2
    if t.dump[rank]:
        return 1
    if rules.snatch and t.run_burn:
        return t.run_burn - top_run(pile)[1]
    return None


def window_range(rules: Rules, seat: int, zone: Sequence[int], pile: Sequence[int], next_seat: int) -> tuple[int, int]:
    """(fewest, most) cards of the top rank ``seat`` may lay out of turn from ``zone``; most = 0 if none.

    A dump lays one or more; a snatch (not by the seat whose turn is held)
    at least what completes the run burn.
    """
    rank = pile[-1] >> 2
    held = sum(1 for card in zone if card >> 2 == rank)
    need = out_of_turn_need(rules, pile)
    if not held or need is None or (seat == next_seat and not rules.tables.dump[rank]):
        return 0, 0
    return (need, held) if held >= need else (0, 0)
