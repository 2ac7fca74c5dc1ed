"""JSON state: ``Game.from_dict`` validation and the per-seat ``view``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shithead_env.cards import RANKS, card_code, card_names, make_deck, rank_index
from shithead_env.rules import load_rules, rules_reference

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
        except ValueError as error:
            raise _error(f"{where}[{i}]: {error}") from None
    return codes


def _seat(value: Any, where: str, num_players: int, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < num_players:
        raise _error(f"{where} must be a seat 0..{num_players - 1}, got {value!r}")
    return value


def game_from_dict(cls: type[Game], data: Mapping[str, Any]) -> Game:
    from shithead_env.game import INTERRUPT, OVER, PHASES, PLAY, SWAP

    if not isinstance(data, Mapping):
        raise _error(f"state must be a mapping, got {type(data).__name__}")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise _error(f"unknown state key(s) {unknown}; known keys: {sorted(_KEYS)}")
    for key in ("rules", "players"):
        if key not in data:
            raise _error(f"state lacks the required key {key!r}")
    rules = load_rules(data["rules"])
    players = data["players"]
    if not isinstance(players, list):
        raise _error(f"'players' must be a list with one mapping per seat, got {players!r}")
    try:
        game = cls(rules, len(players))
    except ValueError as error:
        raise _error(f"'players': {error}") from None
    n = game.num_players
    for seat, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise _error(f"players[{seat}] must be a mapping with hand, face_up, face_down, known")
        extra = sorted(set(player) - set(_ZONES))
        if extra:
            raise _error(f"players[{seat}] has unknown key(s) {extra}; expected {list(_ZONES)}")
        game.hands[seat] = _cards(player.get("hand", []), f"players[{seat}].hand")
        game.face_up[seat] = _cards(player.get("face_up", []), f"players[{seat}].face_up")
        game.face_down[seat] = _cards(player.get("face_down", []), f"players[{seat}].face_down")
        game.known[seat] = _cards(player.get("known", []), f"players[{seat}].known")
        missing = Counter(game.known[seat]) - Counter(game.hands[seat])
        if missing:
            raise _error(f"players[{seat}].known holds {card_names(missing.elements())} that are not in its hand")
    game._draw = _cards(data.get("draw_pile", []), "draw_pile")[::-1]
    game.pile = _cards(data.get("pile", []), "pile")
    game.burned = _cards(data.get("burned", []), "burned")

    deck = Counter(make_deck(rules.decks_for(n), rules.jokers_per_deck))
    table = Counter(game._draw + game.pile + game.burned)
    for seat in range(n):
        table.update(game.hands[seat] + game.face_up[seat] + game.face_down[seat])
    for code, count in sorted(table.items()):
        if count > deck[code]:
            name = card_names([code])[0]
            raise _error(
                f"card {name!r} appears {count} times but the deck of rules {rules.name!r} "
                f"({rules.decks_for(n)} deck(s), {rules.jokers_per_deck} joker(s) each) holds {deck[code]}"
            )

    phase = data.get("phase", PLAY)
    if phase not in PHASES:
        raise _error(f"'phase' must be one of {PHASES}, got {phase!r}")
    game.phase = phase
    direction = data.get("direction", 1)
    if direction not in (1, -1) or isinstance(direction, bool):
        raise _error(f"'direction' must be 1 (clockwise) or -1, got {direction!r}")
    game.direction = direction
    finish = data.get("finish_order", [])
    if not isinstance(finish, list):
        raise _error(f"'finish_order' must be a list of seats, got {finish!r}")
    game.finish_order = [_seat(s, f"finish_order[{i}]", n) for i, s in enumerate(finish)]
    if len(set(game.finish_order)) != len(game.finish_order):
        raise _error(f"'finish_order' repeats a seat: {finish}")
    for seat in game.finish_order:
        game._active[seat] = False
        if phase != OVER and (game.hands[seat] or game.face_up[seat] or game.face_down[seat]):
            raise _error(f"seat {seat} is in 'finish_order' (safe) but still holds cards")
    game.dealer = _seat(data.get("dealer", n - 1), "'dealer'", n)
    game.opener = _seat(data.get("opener"), "'opener'", n, allow_none=True)
    for key in ("decisions", "max_decisions"):
        value = data.get(key, 0 if key == "decisions" else rules.max_decisions)
        if isinstance(value, bool) or not isinstance(value, int) or value < (key == "max_decisions"):
            raise _error(f"'{key}' must be a non-negative integer (max_decisions positive), got {value!r}")
        setattr(game, key, value)
    truncated = data.get("truncated", False)
    if not isinstance(truncated, bool):
        raise _error(f"'truncated' must be true or false, got {truncated!r}")
    game.truncated = truncated
    forced = data.get("forced_rank")
    try:
        game.forced_rank = None if forced is None else rank_index(forced)
    except ValueError as error:
        raise _error(f"'forced_rank': {error}") from None

    if phase == OVER:
        game.current = None
        if data.get("current") is not None:
            raise _error(f"'current' must be null once the game is over, got {data['current']!r}")
        return game
    if "current" not in data:
        raise _error("state lacks the required key 'current' (the seat to act)")
    game.current = _seat(data["current"], "'current'", n)
    if game._active.count(True) < 2:
        raise _error("a game in progress needs at least two seats that are not in 'finish_order'")
    if not game._active[game.current] and phase != "nominate":
        raise _error(f"'current' seat {game.current} is safe (in 'finish_order') and cannot act")
    window = data.get("window")
    if phase == INTERRUPT:
        if not isinstance(window, Mapping) or set(window) != {"played_by", "next", "queue"}:
            raise _error("phase 'interrupt' needs 'window': {'played_by': seat, 'next': seat, 'queue': [seats]}")
        queue = window["queue"]
        if not isinstance(queue, list):
            raise _error(f"window.queue must be a list of seats, got {queue!r}")
        if not game.pile:
            raise _error("phase 'interrupt' needs a non-empty pile")
        game.window = (
            _seat(window["played_by"], "window.played_by", n),
            _seat(window["next"], "window.next", n),
            [_seat(s, f"window.queue[{i}]", n) for i, s in enumerate(queue)],
        )
    elif window is not None:
        raise _error(f"'window' is only used in phase 'interrupt', got {window!r} in phase {phase!r}")
    if phase == PLAY:
        zone = game.hands[game.current] or game.face_up[game.current] or game.face_down[game.current]
        if not zone:
            raise _error(f"seat {game.current} is to play but holds no cards; list it in 'finish_order'")
        game._begin_turn(game.current)
    if phase == SWAP and len(game.face_up[game.current]) >= 3:
        raise _error(f"seat {game.current} is choosing face-up cards but already has 3")
    return game


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
