"""The legal moves of the seat to act, from what that seat sees: the engine and a view's check share it.

Every input is known to the acting seat (its own hand and face-up cards, the
pile, the window, who is still in), so a JSON view's ``legal_actions`` can be
checked against the rules without dealing out anybody's hidden cards.

``legal_moves`` lists the moves (the engine's hot path); ``refusal`` judges one
move and says which rule refuses it (the words a human reads, ``render.why_illegal``,
are built from it). Both read the same helpers, and tests/engine/test_moves.py
holds them to each other on every action of random games of every preset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from shithead_env.actions import _TABLE as _ACTIONS
from shithead_env.actions import FACE_UPS, FLIP, NOMINATES, PASS, PICKUP, PLAYS, Action
from shithead_env.cards import rank_index
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
        counts = rank_counts(zone)
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


def rank_counts(cards: Sequence[int]) -> dict[int, int]:
    """How many of each rank index ``cards`` hold (ranks absent from them left out)."""
    counts: dict[int, int] = {}
    for card in cards:
        rank = card >> 2
        counts[rank] = counts.get(rank, 0) + 1
    return counts


class Refusal(NamedTuple):
    """Which rule refuses a move (``reason``, one of ``REASONS``) and the figures it turned on."""

    reason: str
    held: int = 0  # cards of the move's rank in the zone it plays from
    low: int = 0  # out of turn: the fewest and most cards of the top rank the seat may lay
    high: int = 0


REASONS = (
    "game_over", "not_your_turn", "swap_only", "nominate_only", "no_such_seat", "seat_out", "out_of_turn_only",
    "no_out_of_turn_play", "out_of_turn_count", "pass_in_turn", "not_in_play", "flip_early", "flip_now",
    "empty_pile", "must_play", "not_held", "too_few", "forced_rank", "pile_refuses",
)  # fmt: skip


def refusal(
    action: Action,
    rules: Rules,
    phase: str,
    seat: int,
    hand: Sequence[int],
    face_up: Sequence[int],
    pile: Sequence[int],
    forced_rank: int | None,
    window: tuple[int, int, Sequence[int]] | None,
    active: Sequence[bool],
) -> Refusal | None:
    """Why the rules refuse ``action`` to ``seat``, the seat to act (the arguments of ``legal_moves``); None
    when ``action`` is among ``legal_moves``."""
    kind = action.kind
    if phase == PLAY:
        return _play_refusal(action, rules, hand or face_up, pile, forced_rank)
    if phase == INTERRUPT:
        if kind == "pass":
            return None
        if kind != "play" or rank_index(action.rank) != pile[-1] >> 2:
            return Refusal("out_of_turn_only")
        low, high = window_range(rules, seat, hand or face_up, pile, window[1])
        if not high:
            return Refusal("no_out_of_turn_play")
        return None if low <= action.count <= high else Refusal("out_of_turn_count", low=low, high=high)
    if phase == NOMINATE:
        if kind != "nominate":
            return Refusal("nominate_only")
        if action.seat >= len(active):
            return Refusal("no_such_seat")
        return None if active[action.seat] else Refusal("seat_out")
    if phase == SWAP:
        if kind != "face_up":
            return Refusal("swap_only")
        return None if rank_index(action.rank) in rank_counts(hand) else Refusal("not_held")
    return Refusal("game_over")


def _play_refusal(
    action: Action, rules: Rules, zone: Sequence[int], pile: Sequence[int], forced_rank: int | None
) -> Refusal | None:
    """``refusal`` on the seat's turn, ``zone`` the cards it plays from (empty: it flips face-down cards)."""
    kind = action.kind
    if kind == "pass":
        return Refusal("pass_in_turn")
    if kind in ("face_up", "nominate"):
        return Refusal("not_in_play")
    if kind == "flip":
        return None if not zone else Refusal("flip_early")
    if kind == "pickup":
        if not pile:
            return Refusal("empty_pile")
        if rules.voluntary_pickup:
            return None
        if not zone:
            return Refusal("flip_now")
        if forced_rank is not None:
            return Refusal("forced_rank")
        legal_row = rules.tables.legal[top_index(rules.tables, pile)]
        return Refusal("must_play") if any(legal_row[rank] for rank in rank_counts(zone)) else None
    if not zone:
        return Refusal("flip_now")
    rank = rank_index(action.rank)
    held = rank_counts(zone).get(rank, 0)
    if not held:
        return Refusal("not_held")
    if action.count > held:
        return Refusal("too_few", held=held)
    if forced_rank is not None:
        return None if rank == forced_rank else Refusal("forced_rank", held=held)
    return None if rules.tables.legal[top_index(rules.tables, pile)][rank] else Refusal("pile_refuses", held=held)
