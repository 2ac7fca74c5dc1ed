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

from shithead_env.cards import card_names, make_deck
from shithead_env.errors import StateError
from shithead_env.fields import SEAT_FIELDS, TABLE_FIELDS, seat_keys, state_keys
from shithead_env.inference import fits, hidden_cards, narrowed_names
from shithead_env.knowledge import Knowledge
from shithead_env.phases import OVER, PLAY

if TYPE_CHECKING:
    from shithead_env.game import Game
_KEYS = set(state_keys())
_PLAYER_KEYS = seat_keys()
_RULES, *_TABLE = TABLE_FIELDS  # the rules come first (then the players): the rest is read at their table


def game_to_dict(game: Game) -> dict[str, Any]:
    """The JSON state of a game (every card, hidden or not); ``game_from_dict`` rebuilds an equal game."""
    seats = [(f.key, f.to_json, getattr(game, f.attr)) for f in SEAT_FIELDS]
    state = {
        _RULES.key: _RULES.to_json(game.rules),
        "players": [{key: to_json(values[s]) for key, to_json, values in seats} for s in range(game.num_players)],
    }
    for f in _TABLE:
        state[f.key] = f.to_json(getattr(game, f.attr))
    return state


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
    rules = _RULES.from_json(data["rules"], "'rules'", 0)
    players = data["players"]
    if not isinstance(players, list):
        raise StateError(f"'players' must be a list with one mapping per seat, got {players!r}")
    try:
        rules.check_players(len(players))
    except ValueError as error:
        raise StateError(f"'players': {error}") from None
    return cls.assemble(rules, **_read_players(players), **_read_table(data, len(players)))


def _read_table(data: Mapping[str, Any], n: int) -> dict[str, Any]:
    """Every field the state holds but the rules and the players, as ``Game.assemble`` keywords: a field it
    omits takes ``assemble``'s default (docs/state.md lists them), but for the seat to act in a game not over."""
    table = {f.attr: f.from_json(data[f.key], f"'{f.key}'", n) for f in _TABLE if f.key in data}
    if "current" not in table and table.get("phase", PLAY) != OVER:
        raise StateError("state lacks the required key 'current' (the seat to act)")
    return table


def _read_players(players: list[Any]) -> dict[str, list[Any]]:
    """Each seat's fields, as ``Game.assemble`` keywords (one list a field, a seat each); omitted ones are empty."""
    n = len(players)
    seats: dict[str, list[Any]] = {f.attr: [] for f in SEAT_FIELDS}
    for seat, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise StateError(f"players[{seat}] must be a mapping with {', '.join(_PLAYER_KEYS)}")
        extra = sorted(set(player) - set(_PLAYER_KEYS))
        if extra:
            raise StateError(f"players[{seat}] has unknown key(s) {extra}; expected {_PLAYER_KEYS}")
        for f in SEAT_FIELDS:
            seats[f.attr].append(f.from_json(player.get(f.key, []), f"players[{seat}].{f.key}", n))
    return seats


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
