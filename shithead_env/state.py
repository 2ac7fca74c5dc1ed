"""JSON state: ``Game.from_dict`` parsing, the reachable-shape check, and the per-seat ``view``.

Parsing turns each field into engine values with an error naming the field;
``check_position`` then refuses positions that play cannot reach in shape
(the rule: every active seat holds cards, the player to act has a legal
action, counters and flags agree). ``Game.assemble`` runs that check for every
position built from parts, the determinizer's samples included.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shithead_env.cards import RANKS, card_code, card_names, make_deck, rank_index
from shithead_env.rules import TABLE_CARDS, RulesError, load_rules, rules_reference

if TYPE_CHECKING:
    from shithead_env.game import Game

VIEW_VERSION = 1
_KEYS = {
    "rules",
    "players",
    "draw_pile",
    "pile",
    "burned",
    "current",
    "direction",
    "phase",
    "finish_order",
    "dealer",
    "opener",
    "decisions",
    "max_decisions",
    "window",
    "forced_rank",
    "truncated",
}
_ZONES = ("hand", "face_up", "face_down", "known")


def _error(message: str) -> Exception:
    from shithead_env.game import StateError

    return StateError(message)


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise _error(f"{where} must be a list of cards such as ['KS', 'TH'], got {value!r}")
    codes = []
    for i, name in enumerate(value):
        try:
            codes.append(card_code(name))
        except (ValueError, TypeError, AttributeError):
            raise _error(
                f"{where}[{i}]: unknown card {name!r}: expected rank + suit such as 'KS', 'TH', 'XR'"
            ) from None
    return codes


def _int(value: Any, where: str, low: int, high: int | None = None) -> int:
    """A true int in [low, high]: ``True`` and ``1.0`` are refused, not coerced."""
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise _error(f"{where} must be an integer {span}, got {value!r}")
    return value


def _seat(value: Any, where: str, num_players: int, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if type(value) is not int or not 0 <= value < num_players:
        raise _error(f"{where} must be a seat 0..{num_players - 1}, got {value!r}")
    return value


def game_from_dict(cls: type[Game], data: Mapping[str, Any]) -> Game:
    """Parse every field (errors name it), then ``cls.assemble`` checks the position as a whole."""
    from shithead_env.game import PHASES, PLAY

    if not isinstance(data, Mapping):
        raise _error(f"state must be a mapping, got {type(data).__name__}")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise _error(f"unknown state key(s) {unknown}; known keys: {sorted(_KEYS)}")
    for key in ("rules", "players"):
        if key not in data:
            raise _error(f"state lacks the required key {key!r}")
    if not isinstance(data["rules"], (str, Mapping)):
        raise _error(f"'rules' must be a preset name or a rules mapping, got {type(data['rules']).__name__}")
    try:
        rules = load_rules(data["rules"])
    except RulesError as error:
        raise _error(f"'rules': {error}") from None
    players = data["players"]
    if not isinstance(players, list):
        raise _error(f"'players' must be a list with one mapping per seat, got {players!r}")
    try:
        rules.check_players(len(players))
    except ValueError as error:
        raise _error(f"'players': {error}") from None
    n = len(players)
    zones = _read_players(players)
    phase = data.get("phase", PLAY)
    if phase not in PHASES:
        raise _error(f"'phase' must be one of {PHASES}, got {phase!r}")
    direction = data.get("direction", 1)
    if type(direction) is not int or direction not in (1, -1):
        raise _error(f"'direction' must be 1 (clockwise) or -1, got {direction!r}")
    finish = data.get("finish_order", [])
    if not isinstance(finish, list):
        raise _error(f"'finish_order' must be a list of seats, got {finish!r}")
    truncated = data.get("truncated", False)
    if not isinstance(truncated, bool):
        raise _error(f"'truncated' must be true or false, got {truncated!r}")
    forced = data.get("forced_rank")
    try:
        forced_rank = None if forced is None else rank_index(forced)
    except ValueError as error:
        raise _error(f"'forced_rank': {error}") from None
    if "current" not in data and phase != "over":
        raise _error("state lacks the required key 'current' (the seat to act)")
    return cls.assemble(
        rules,
        **zones,
        draw_pile=_cards(data.get("draw_pile", []), "draw_pile"),
        pile=_cards(data.get("pile", []), "pile"),
        burned=_cards(data.get("burned", []), "burned"),
        phase=phase,
        current=_seat(data.get("current"), "'current'", n, allow_none=True),
        direction=direction,
        finish_order=[_seat(s, f"finish_order[{i}]", n) for i, s in enumerate(finish)],
        dealer=_seat(data.get("dealer", n - 1), "'dealer'", n),
        opener=_seat(data.get("opener"), "'opener'", n, allow_none=True),
        decisions=_int(data.get("decisions", 0), "'decisions'", 0),
        max_decisions=_int(data.get("max_decisions", rules.max_decisions), "'max_decisions'", 1),
        window=_read_window(data.get("window"), n),
        forced_rank=forced_rank,
        truncated=truncated,
    )


def _read_players(players: list[Any]) -> dict[str, list[list[int]]]:
    zones: dict[str, list[list[int]]] = {"hands": [], "face_up": [], "face_down": [], "known": []}
    for seat, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise _error(f"players[{seat}] must be a mapping with hand, face_up, face_down, known")
        extra = sorted(set(player) - set(_ZONES))
        if extra:
            raise _error(f"players[{seat}] has unknown key(s) {extra}; expected {list(_ZONES)}")
        zones["hands"].append(_cards(player.get("hand", []), f"players[{seat}].hand"))
        for zone in ("face_up", "face_down", "known"):
            zones[zone].append(_cards(player.get(zone, []), f"players[{seat}].{zone}"))
    return zones


def _read_window(window: Any, n: int) -> tuple[int, int, list[int]] | None:
    if window is None:
        return None
    if not isinstance(window, Mapping) or set(window) != {"played_by", "next", "queue"}:
        raise _error(f"'window' must be {{'played_by': seat, 'next': seat, 'queue': [seats]}} or null, got {window!r}")
    queue = window["queue"]
    if not isinstance(queue, list):
        raise _error(f"window.queue must be a list of seats, got {queue!r}")
    return (
        _seat(window["played_by"], "window.played_by", n),
        _seat(window["next"], "window.next", n),
        [_seat(s, f"window.queue[{i}]", n) for i, s in enumerate(queue)],
    )


def check_position(game: Game) -> None:
    """Refuse a position play cannot reach in shape; ``StateError`` names what is wrong."""
    from shithead_env.game import INTERRUPT, NOMINATE, OVER, PLAY, SWAP

    rules, n, phase, current = game.rules, game.num_players, game.phase, game.current
    _check_cards(game)
    finish = game.finish_order
    if len(set(finish)) != len(finish):
        raise _error(f"'finish_order' repeats a seat: {finish}")
    if game.decisions > game.max_decisions:
        raise _error(f"'decisions' {game.decisions} exceeds 'max_decisions' {game.max_decisions}")
    if phase == OVER:
        if current is not None:
            raise _error(f"'current' must be null once the game is over, got {current!r}")
        if game.window is not None or game.forced_rank is not None:
            raise _error("a finished game has no 'window' and no 'forced_rank'")
        return
    if game.truncated:
        raise _error("'truncated' is true only once the game is over (phase 'over')")
    if game.decisions == game.max_decisions:
        raise _error(f"'decisions' reached 'max_decisions' ({game.max_decisions}): the game would be over")
    if current is None:
        raise _error("'current' must be the seat to act while the game is in progress, got null")
    holds = [bool(game.hands[s] or game.face_up[s] or game.face_down[s]) for s in range(n)]
    for seat in range(n):
        if seat in finish and holds[seat]:
            raise _error(f"seat {seat} is in 'finish_order' (safe) but still holds cards")
        if seat not in finish and not holds[seat]:
            raise _error(f"seat {seat} holds no cards but is not in 'finish_order'; list it there (it is safe)")
    if n - len(finish) < 2:
        raise _error("a game in progress needs at least two seats that are not in 'finish_order'")
    if current in finish and phase != NOMINATE:
        raise _error(f"'current' seat {current} is safe (in 'finish_order') and cannot act")
    if game.forced_rank is not None:
        if phase != PLAY or not rules.opener_plays_lowest:
            raise _error("'forced_rank' is only set for the opening play of rules with opener_plays_lowest")
        if all(card >> 2 != game.forced_rank for card in game.hands[current]):
            raise _error(
                f"'forced_rank' {RANKS[game.forced_rank]} is not in the hand of seat {current}, which must play it"
            )
    if phase == SWAP:
        _check_swap(game)
    elif phase == NOMINATE and (not game.pile or not game.rules.tables.nominate[game.pile[-1] >> 2]):
        raise _error("phase 'nominate' follows a nominating play: the pile's top card must have the 'nominate' power")
    if phase == INTERRUPT:
        _check_window(game)
    elif game.window is not None:
        raise _error(f"'window' is only used in phase 'interrupt', got {game.window!r} in phase {phase!r}")


def _check_cards(game: Game) -> None:
    rules, n = game.rules, game.num_players
    deck = Counter(make_deck(rules.decks_for(n), rules.jokers_per_deck))
    table = Counter(game.draw_pile + game.pile + game.burned)
    for seat in range(n):
        table.update(game.hands[seat] + game.face_up[seat] + game.face_down[seat])
        for zone in ("face_up", "face_down"):
            if len(getattr(game, zone)[seat]) > TABLE_CARDS:
                raise _error(
                    f"players[{seat}].{zone} holds {len(getattr(game, zone)[seat])} cards; at most {TABLE_CARDS}"
                )
        missing = Counter(game.known[seat]) - Counter(game.hands[seat])
        if missing:
            raise _error(f"players[{seat}].known holds {card_names(missing.elements())} that are not in its hand")
    for code, count in sorted(table.items()):
        if count > deck[code]:
            name = card_names([code])[0]
            raise _error(
                f"card {name!r} appears {count} times but the deck of rules {rules.name!r} "
                f"({rules.decks_for(n)} deck(s), {rules.jokers_per_deck} joker(s) each) holds {deck[code]}"
            )


def _check_swap(game: Game) -> None:
    """Before the first turn: nothing played, picked up or finished; the chooser still has a choice."""
    if game.pile or game.burned or game.finish_order:
        raise _error("phase 'swap' comes before any play: 'pile', 'burned' and 'finish_order' must be empty")
    if any(game.known):
        raise _error("phase 'swap' comes before any pickup: no seat has 'known' cards yet")
    # The current seat and every seat after it up to the dealer still choose; each needs the cards to.
    n, first = game.num_players, (game.dealer + 1) % game.num_players
    for offset in range((game.current - first) % n, n):
        seat = (first + offset) % n
        missing = TABLE_CARDS - len(game.face_up[seat])
        if not 0 < missing <= len(game.hands[seat]):
            raise _error(
                f"seat {seat} has still to choose face-up cards but has nothing to choose "
                f"({len(game.hands[seat])} hand card(s), {len(game.face_up[seat])} face-up)"
            )


def _check_window(game: Game) -> None:
    if not game.rules.tables.has_windows:
        raise _error(f"phase 'interrupt' needs out-of-turn plays, which rules {game.rules.name!r} do not have")
    if game.window is None:
        raise _error("phase 'interrupt' needs 'window': {'played_by': seat, 'next': seat, 'queue': [seats]}")
    if not game.pile:
        raise _error("phase 'interrupt' needs a non-empty pile")
    played_by, next_seat, queue = game.window
    if next_seat in game.finish_order:
        raise _error(f"window.next {next_seat} is safe (in 'finish_order'): the held turn belongs to an active seat")
    asked = [game.current, *queue]
    if played_by in asked or len(set(asked)) != len(asked) or any(s in game.finish_order for s in asked):
        raise _error(
            f"window: the seats asked ({asked}) must be distinct active seats other than played_by {played_by}"
        )


def view_of(game: Game, seat: int) -> dict[str, Any]:

    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1}, got {seat!r}")
    window = game.window
    return {
        "version": VIEW_VERSION,
        "seat": seat,
        "rules": rules_reference(game.rules),
        "num_players": game.num_players,
        "phase": game.phase,
        "current": game.current,
        "direction": game.direction,
        "dealer": game.dealer,
        "opener": game.opener,
        "decisions": game.decisions,
        "max_decisions": game.max_decisions,
        "hand": card_names(game.hands[seat]),
        "players": [
            {
                "hand_size": len(game.hands[s]),
                "face_up": card_names(game.face_up[s]),
                "face_down": len(game.face_down[s]),
                "known": card_names(game.known[s]),
                "active": game.is_active(s),
            }
            for s in range(game.num_players)
        ],
        "pile": card_names(game.pile),
        "burned": card_names(game.burned),
        "draw_pile": game.draw_pile_size,
        "finish_order": list(game.finish_order),
        "window": None if window is None else {"played_by": window[0], "next": window[1], "queue": list(window[2])},
        "forced_rank": None if game.forced_rank is None else RANKS[game.forced_rank],
        "legal_actions": [a.to_dict() for a in game.legal_actions()] if seat == game.current else [],
    }
