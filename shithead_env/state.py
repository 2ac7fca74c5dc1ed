"""JSON state: the format of ``Game.to_dict`` / ``Game.from_dict``, and the reachable-shape check.

Parsing turns each field into engine values with an error naming the field;
``check_position`` then refuses positions that play cannot reach in shape
(the rule: every active seat holds cards, the player to act has a legal
action, counters and flags agree). ``Game.assemble`` runs that check for every
position built from parts, the determinizer's samples included. The public
half of the check is ``Knowledge.check_public``, the same one views get.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shithead_env.cards import card_code, card_names, make_deck, rank_index
from shithead_env.errors import StateError
from shithead_env.fields import rank_json, seat_keys, state_keys, window_json
from shithead_env.inference import fits, hidden_cards, narrowed_names, read_narrowed
from shithead_env.knowledge import Knowledge, strict_int
from shithead_env.phases import OVER, PHASES, PLAY
from shithead_env.rules import Rules, RulesError, load_rules, rules_reference

if TYPE_CHECKING:
    from shithead_env.game import Game
_KEYS = set(state_keys())
_PLAYER_KEYS = tuple(seat_keys())


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise StateError(f"{where} must be a list of cards such as ['KS', 'TH'], got {value!r}")
    codes = []
    for i, name in enumerate(value):
        try:
            codes.append(card_code(name))
        except (ValueError, TypeError, AttributeError):
            raise StateError(
                f"{where}[{i}]: unknown card {name!r}: expected rank + suit such as 'KS', 'TH', 'XR'"
            ) from None
    return codes


def _seat(value: Any, where: str, num_players: int, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if type(value) is not int or not 0 <= value < num_players:
        raise StateError(f"{where} must be a seat 0..{num_players - 1}, got {value!r}")
    return value


def game_to_dict(game: Game) -> dict[str, Any]:
    """The JSON state of a game (every card, hidden or not); ``game_from_dict`` rebuilds an equal game."""
    return {
        "rules": rules_reference(game.rules),
        "players": [
            {
                "hand": card_names(game.hands[s]),
                "face_up": card_names(game.face_up[s]),
                "face_down": card_names(game.face_down[s]),
                "known": card_names(game.known[s]),
                "narrowed": narrowed_names(game.narrowed[s]),
            }
            for s in range(game.num_players)
        ],
        "draw_pile": card_names(game.draw_pile),
        "pile": card_names(game.pile),
        "burned": card_names(game.burned),
        "current": game.current,
        "direction": game.direction,
        "phase": game.phase,
        "finish_order": list(game.finish_order),
        "dealer": game.dealer,
        "opener": game.opener,
        "decisions": game.decisions,
        "max_decisions": game.max_decisions,
        "window": window_json(game.window),
        "forced_rank": rank_json(game.forced_rank),
        "truncated": game.truncated,
    }


def game_from_dict(cls: type[Game], data: Mapping[str, Any]) -> Game:
    """Parse every field (errors name it), then ``cls.assemble`` checks the position as a whole."""
    if not isinstance(data, Mapping):
        raise StateError(f"state must be a mapping, got {type(data).__name__}")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise StateError(f"unknown state key(s) {unknown}; known keys: {sorted(_KEYS)}")
    for key in ("rules", "players"):
        if key not in data:
            raise StateError(f"state lacks the required key {key!r}")
    rules = _read_rules(data["rules"])
    players = data["players"]
    if not isinstance(players, list):
        raise StateError(f"'players' must be a list with one mapping per seat, got {players!r}")
    try:
        rules.check_players(len(players))
    except ValueError as error:
        raise StateError(f"'players': {error}") from None
    return cls.assemble(rules, **_read_players(players), **_read_table(data, rules, len(players)))


def _read_rules(value: Any) -> Rules:
    if not isinstance(value, (str, Mapping)):
        raise StateError(f"'rules' must be a preset name or a rules mapping, got {type(value).__name__}")
    try:
        return load_rules(value)
    except RulesError as error:
        raise StateError(f"'rules': {error}") from None


def _read_table(data: Mapping[str, Any], rules: Rules, n: int) -> dict[str, Any]:
    """Every field but the rules and the players' cards, as ``Game.assemble`` keywords."""
    phase = data.get("phase", PLAY)
    if phase not in PHASES:
        raise StateError(f"'phase' must be one of {PHASES}, got {phase!r}")
    direction = data.get("direction", 1)
    if type(direction) is not int or direction not in (1, -1):
        raise StateError(f"'direction' must be 1 (clockwise) or -1, got {direction!r}")
    finish = data.get("finish_order", [])
    if not isinstance(finish, list):
        raise StateError(f"'finish_order' must be a list of seats, got {finish!r}")
    truncated = data.get("truncated", False)
    if not isinstance(truncated, bool):
        raise StateError(f"'truncated' must be true or false, got {truncated!r}")
    forced = data.get("forced_rank")
    try:
        forced_rank = None if forced is None else rank_index(forced)
    except ValueError as error:
        raise StateError(f"'forced_rank': {error}") from None
    if "current" not in data and phase != OVER:
        raise StateError("state lacks the required key 'current' (the seat to act)")
    return {
        "draw_pile": _cards(data.get("draw_pile", []), "draw_pile"),
        "pile": _cards(data.get("pile", []), "pile"),
        "burned": _cards(data.get("burned", []), "burned"),
        "phase": phase,
        "current": _seat(data.get("current"), "'current'", n, allow_none=True),
        "direction": direction,
        "finish_order": [_seat(s, f"finish_order[{i}]", n) for i, s in enumerate(finish)],
        "dealer": _seat(data.get("dealer", n - 1), "'dealer'", n),
        "opener": _seat(data.get("opener"), "'opener'", n, allow_none=True),
        "decisions": strict_int(data.get("decisions", 0), "'decisions'", 0),
        "max_decisions": strict_int(data.get("max_decisions", rules.max_decisions), "'max_decisions'", 1),
        "window": _read_window(data.get("window"), n),
        "forced_rank": forced_rank,
        "truncated": truncated,
    }


def _read_players(players: list[Any]) -> dict[str, list[list[int]]]:
    zones: dict[str, list[list[int]]] = {"hands": [], "face_up": [], "face_down": [], "known": [], "narrowed": []}
    for seat, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise StateError(f"players[{seat}] must be a mapping with hand, face_up, face_down, known")
        extra = sorted(set(player) - set(_PLAYER_KEYS))
        if extra:
            raise StateError(f"players[{seat}] has unknown key(s) {extra}; expected {list(_PLAYER_KEYS)}")
        zones["hands"].append(_cards(player.get("hand", []), f"players[{seat}].hand"))
        for zone in ("face_up", "face_down", "known"):
            zones[zone].append(_cards(player.get(zone, []), f"players[{seat}].{zone}"))
        zones["narrowed"].append(read_narrowed(player.get("narrowed", []), f"players[{seat}].narrowed"))
    return zones


def _read_window(window: Any, n: int) -> tuple[int, int, list[int]] | None:
    if window is None:
        return None
    if not isinstance(window, Mapping) or set(window) != {"played_by", "next", "queue"}:
        raise StateError(
            f"'window' must be {{'played_by': seat, 'next': seat, 'queue': [seats]}} or null, got {window!r}"
        )
    queue = window["queue"]
    if not isinstance(queue, list):
        raise StateError(f"window.queue must be a list of seats, got {queue!r}")
    return (
        _seat(window["played_by"], "window.played_by", n),
        _seat(window["next"], "window.next", n),
        [_seat(s, f"window.queue[{i}]", n) for i, s in enumerate(queue)],
    )


def check_position(game: Game) -> None:
    """Refuse a position play cannot reach in shape; ``StateError`` names what is wrong.

    The cards themselves are checked here (the deck, ``known`` inside the
    hand); everything public facts decide is ``Knowledge.check_public``, read
    from the seat to act, so the opener's forced rank is checked in its hand.
    """
    public = Knowledge.from_game(game, 0 if game.current is None else game.current)
    public.check_table_cards()  # first: a fifth table card is the fault to name, not the deck count it breaks
    _check_cards(game)
    if game.truncated and game.phase != OVER:
        raise StateError("'truncated' is true only once the game is over (phase 'over')")
    if game.phase == OVER and game.truncated != (len(game.finish_order) < game.num_players):
        raise StateError("a finished game has 'truncated' true exactly when 'finish_order' does not place every seat")
    public.check_public()


def _check_cards(game: Game) -> None:
    rules, n = game.rules, game.num_players
    deck = Counter(make_deck(rules.decks_for(n), rules.jokers_per_deck))
    table = Counter(game.draw_pile + game.pile + game.burned)
    for seat in range(n):
        table.update(game.hands[seat] + game.face_up[seat] + game.face_down[seat])
        missing = Counter(game.known[seat]) - Counter(game.hands[seat])
        if missing:
            raise StateError(f"players[{seat}].known holds {card_names(missing.elements())} that are not in its hand")
        if game.narrowed[seat]:
            hidden = hidden_cards(game.hands[seat], game.known[seat])
            if not fits(game.narrowed[seat], hidden):
                raise StateError(
                    f"players[{seat}].narrowed {narrowed_names(game.narrowed[seat])} does not fit its hidden hand "
                    f"cards {card_names(hidden)}"
                )
    for code, count in sorted(table.items()):
        if count > deck[code]:
            name = card_names([code])[0]
            raise StateError(
                f"card {name!r} appears {count} times but the deck of rules {rules.name!r} "
                f"({rules.decks_for(n)} deck(s), {rules.jokers_per_deck} joker(s) each) holds {deck[code]}"
            )
