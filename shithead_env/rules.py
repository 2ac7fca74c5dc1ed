"""The parameterised rules model: one frozen, validated object per table.

Presets are YAML files (``configs/rules/*.yaml``, shipped inside the wheel as
``shithead_env/presets``); a custom file with the same keys loads the same
way, and ``extends: <preset>`` starts from a preset and overrides keys.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from shithead_env.actions import MAX_SEATS
from shithead_env.cards import JOKER, JOKERS_PER_DECK_MAX, NUM_RANKS, RANKS, SUITS_PER_DECK, rank_index

POWERS = (
    "anytime",
    "reset",
    "invisible",
    "cap",
    "skip",
    "burn",
    "reverse",
    "nominate",
    "joker",
    "extra_turn",
    "eight_dump",
)
FACE_UP_MODES = ("play", "take_into_hand")
FIRST_PLAYER_RULES = ("random", "lowest_card", "left_of_dealer")
NEXT_GAME_RULES = ("random", "same_as_first", "loser_deals")
PRESETS = ("dead_last", "online_classic", "pub", "harrogate", "power_deck")
CARDS_PER_PLAYER = 9  # 3 face down, 3 face up, 3 in hand
HAND_SIZE = 3
TABLE_CARDS = 3
DEFAULT_MAX_DECISIONS = 5000


class RulesError(ValueError):
    """A rules file or mapping that cannot describe a playable table."""


@dataclass(frozen=True)
class Rules:
    """Every parameter of RULES.md sections 1-4. Build with ``load_rules`` or ``Rules.from_dict``."""

    name: str
    min_players: int = 2
    max_players: int = 5
    decks: int = 1
    decks_from_players: tuple[tuple[int, int], ...] = ()
    jokers_per_deck: int = 0
    rank_order: tuple[str, ...] = RANKS[:-1]
    powers: tuple[tuple[str, tuple[str, ...]], ...] = ()
    run_burn: int | None = 4
    snatch: bool = False
    face_up: str = "play"
    voluntary_pickup: bool = False
    first_player: str = "random"
    first_player_ignores: tuple[str, ...] = ()
    opener_plays_lowest: bool = False
    next_game: str = "random"
    max_decisions: int = DEFAULT_MAX_DECISIONS
    description: str = field(default="", compare=False)

    # ------------------------------------------------------------------ I/O
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "rules", _chain: tuple[str, ...] = ()) -> Rules:
        """Validate a mapping with the YAML keys; errors name the offending key."""
        if not isinstance(data, Mapping):
            raise RulesError(f"{source}: rules must be a mapping of keys, got {type(data).__name__}")
        data = _resolve_extends(dict(data), source, _chain)
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise RulesError(f"{source}: unknown key(s) {unknown}; known keys: {sorted(_KEYS)}")
        if "name" not in data:
            raise RulesError(f"{source}: missing key 'name'")
        rules = cls(**_read_scalars(data, source), **_read_rank_lists(data, source))
        rules.validate(source)
        return rules

    def to_dict(self) -> dict[str, Any]:
        """The YAML/JSON mapping that ``from_dict`` reads back to an equal object, also through JSON text: every
        key a string (``decks_from_players``' player counts as their decimal strings), every value JSON's own."""
        return {
            "name": self.name,
            "players": {"min": self.min_players, "max": self.max_players},
            "decks": self.decks,
            "decks_from_players": {str(players): decks for players, decks in self.decks_from_players},
            "jokers_per_deck": self.jokers_per_deck,
            "rank_order": list(self.rank_order),
            "powers": {rank: list(names) for rank, names in self.powers},
            "run_burn": self.run_burn,
            "snatch": self.snatch,
            "face_up": self.face_up,
            "voluntary_pickup": self.voluntary_pickup,
            "first_player": self.first_player,
            "first_player_ignores": list(self.first_player_ignores),
            "opener_plays_lowest": self.opener_plays_lowest,
            "next_game": self.next_game,
            "max_decisions": self.max_decisions,
        }

    # ----------------------------------------------------------- derived
    def decks_for(self, num_players: int) -> int:
        """Number of decks shuffled together for a table of ``num_players``."""
        decks = self.decks
        for threshold, count in self.decks_from_players:
            if num_players >= threshold:
                decks = count
        return decks

    def deck_size(self, num_players: int) -> int:
        return self.decks_for(num_players) * (13 * SUITS_PER_DECK + self.jokers_per_deck)

    def powers_of(self, rank: str) -> tuple[str, ...]:
        return dict(self.powers).get(rank, ())

    def has(self, rank: str, power: str) -> bool:
        return power in self.powers_of(rank)

    @functools.cached_property
    def tables(self) -> RuleTables:
        """Per-rank lookup tables that make the engine's inner loop cheap."""
        return RuleTables(self)

    def check_players(self, num_players: int) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise ValueError(f"num_players must be an int, got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"rules {self.name!r} allow {self.min_players}-{self.max_players} players, got {num_players}"
            )

    def validate(self, source: str = "rules") -> None:
        def fail(key: str, message: str) -> None:
            raise RulesError(f"{source}: '{key}' {message}")

        if not 2 <= self.min_players <= self.max_players:
            fail("players", f"needs 2 <= min <= max, got min={self.min_players} max={self.max_players}")
        if self.max_players > MAX_SEATS:
            fail("players", f"max {self.max_players} exceeds the action layout's {MAX_SEATS} seats")
        if self.decks < 1 or any(count < 1 for _, count in self.decks_from_players):
            fail("decks", "must be at least 1")
        for n in range(self.min_players, self.max_players + 1):
            if self.decks_for(n) > 2:
                fail("decks", f"{self.decks_for(n)} decks at {n} players exceed the action layout's 8 copies of a rank")
        if not 0 <= self.jokers_per_deck <= JOKERS_PER_DECK_MAX:
            fail("jokers_per_deck", f"must be 0..{JOKERS_PER_DECK_MAX}, got {self.jokers_per_deck}")
        for n in range(self.min_players, self.max_players + 1):
            if CARDS_PER_PLAYER * n > self.deck_size(n):
                fail(
                    "players",
                    f"max {self.max_players}: {n} players need {CARDS_PER_PLAYER * n} cards but "
                    f"{self.decks_for(n)} deck(s) hold {self.deck_size(n)} (raise 'decks' or 'decks_from_players')",
                )
        if len(set(self.rank_order)) != len(self.rank_order) or not self.rank_order:
            fail("rank_order", f"must list distinct ranks, got {list(self.rank_order)}")
        if self.run_burn is not None and not 2 <= self.run_burn <= 8:
            fail("run_burn", f"must be 2..8 or null, got {self.run_burn}")
        if self.max_decisions < 1:
            fail("max_decisions", f"must be positive, got {self.max_decisions}")
        in_deck = [r for r in RANKS if r != "X"] + (["X"] if self.jokers_per_deck else [])
        for rank in in_deck:
            powers = self.powers_of(rank)
            if "cap" in powers and rank not in self.rank_order:
                fail("rank_order", f"must contain the cap rank {rank}")
            if rank not in self.rank_order and not (
                "anytime" in powers and {"reset", "joker", "invisible"} & set(powers)
            ):
                fail(
                    "rank_order",
                    f"lacks rank {rank}: a rank outside the order must be 'anytime' "
                    "and 'reset', 'joker' or 'invisible'",
                )
        if "X" in dict(self.powers) and not self.jokers_per_deck:
            fail("powers", "give powers to X (Joker) only when jokers_per_deck > 0")
        if self.jokers_per_deck and "joker" not in self.powers_of("X"):
            fail("powers", "the Joker rank X needs the 'joker' power when jokers are in the deck")
        for rank, powers in self.powers:
            if "joker" in powers and rank != "X":
                fail("powers", f"only X may carry 'joker', not {rank}")
            if "invisible" in powers and {"reset", "cap", "joker"} & set(powers):
                fail("powers", f"rank {rank}: an invisible card cannot also be reset, cap or joker")
        for rank in self.first_player_ignores:
            if rank not in self.rank_order:
                fail("first_player_ignores", f"rank {rank} is not in rank_order, so it never counts anyway")


_KEYS = {
    "name",
    "description",
    "players",
    "decks",
    "decks_from_players",
    "jokers_per_deck",
    "rank_order",
    "powers",
    "run_burn",
    "snatch",
    "face_up",
    "voluntary_pickup",
    "first_player",
    "first_player_ignores",
    "opener_plays_lowest",
    "next_game",
    "max_decisions",
}


class RuleTables:
    """Rules compiled to tuples indexed by rank index (and effective top)."""

    NO_TOP = NUM_RANKS  # index used for "no effective top" (empty or all-invisible pile)

    def __init__(self, rules: Rules) -> None:
        def flags(power: str) -> tuple[bool, ...]:
            return tuple(rules.has(r, power) for r in RANKS)

        self.anytime = flags("anytime")
        self.reset = flags("reset")
        self.invisible = flags("invisible")
        self.cap = flags("cap")
        self.skip = flags("skip")
        self.burn = flags("burn")
        self.reverse = flags("reverse")
        self.nominate = flags("nominate")
        self.joker = flags("joker")
        self.extra_turn = flags("extra_turn")
        self.dump = flags("eight_dump")
        order = {r: i for i, r in enumerate(rules.rank_order)}
        # value[r]: position in rank_order, or None for power-only ranks.
        self.value: tuple[int | None, ...] = tuple(order.get(r) for r in RANKS)
        self.first_player_value: tuple[int | None, ...] = tuple(
            None if r in rules.first_player_ignores else order.get(r) for r in RANKS
        )
        # legal[top][r]: may rank r be played when the effective top is `top`?
        self.legal: tuple[tuple[bool, ...], ...] = tuple(
            tuple(self._legal_on(top, r) for r in range(NUM_RANKS)) for top in range(NUM_RANKS + 1)
        )
        # deck_ranks: bitmask of the ranks the deck holds; unplayable[top]: those that may not be played on
        # `top` (what a forced pickup reveals).
        self.deck_ranks = sum(1 << r for r in range(NUM_RANKS) if r != JOKER or rules.jokers_per_deck)
        self.unplayable: tuple[int, ...] = tuple(
            sum(1 << r for r in range(NUM_RANKS) if not row[r]) & self.deck_ranks for row in self.legal
        )
        self.has_windows = rules.snatch or any(self.dump)
        self.run_burn = rules.run_burn or 0

    def _legal_on(self, top: int, r: int) -> bool:
        if top < NUM_RANKS and self.joker[top]:
            return self.joker[r]
        if self.anytime[r]:
            return True
        if top == self.NO_TOP or self.reset[top]:
            return True
        if self.value[r] is None or self.value[top] is None:
            return False
        if self.cap[top]:
            return self.value[r] <= self.value[top]
        return self.value[r] >= self.value[top]


def _resolve_extends(data: dict[str, Any], source: str, chain: tuple[str, ...]) -> dict[str, Any]:
    """The keys of ``data`` over those of the rules it ``extends`` (powers merged rank by rank)."""
    base = data.pop("extends", None)
    if base is None:
        return data
    if not isinstance(base, str) or not base:
        raise RulesError(f"{source}: 'extends' must be a preset name or a path to a .yaml file, got {base!r}")
    merged = _load(base, (*chain, source)).to_dict()
    merged["powers"] = {**merged["powers"], **_as_mapping(_or_empty(data.pop("powers", {}), {}), "powers", source)}
    merged.update(data)
    return merged


def _read_scalars(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The name, player range, counts, switches and choices present in ``data``, as ``Rules`` keywords."""
    kwargs: dict[str, Any] = {"name": _str(data["name"], "name", source)}
    if "players" in data:
        players = _as_mapping(data["players"], "players", source)
        extra = sorted(set(players) - {"min", "max"})
        if extra:
            raise RulesError(f"{source}: unknown key(s) {extra} in 'players' (expected min, max)")
        missing = [key for key in ("min", "max") if key not in players]
        if missing:
            raise RulesError(f"{source}: 'players' needs both min and max (missing {', '.join(missing)})")
        kwargs["min_players"] = _int(players["min"], "players.min", source)
        kwargs["max_players"] = _int(players["max"], "players.max", source)
    for key in ("decks", "jokers_per_deck", "max_decisions"):
        if key in data:
            kwargs[key] = _int(data[key], key, source)
    if "run_burn" in data:
        kwargs["run_burn"] = None if data["run_burn"] is None else _int(data["run_burn"], "run_burn", source)
    for key in ("snatch", "voluntary_pickup", "opener_plays_lowest"):
        if key in data:
            if not isinstance(data[key], bool):
                raise RulesError(f"{source}: '{key}' must be true or false, got {data[key]!r}")
            kwargs[key] = data[key]
    for key, choices in (
        ("face_up", FACE_UP_MODES),
        ("first_player", FIRST_PLAYER_RULES),
        ("next_game", NEXT_GAME_RULES),
    ):
        if key in data:
            if data[key] not in choices:
                raise RulesError(f"{source}: '{key}' must be one of {choices}, got {data[key]!r}")
            kwargs[key] = data[key]
    if "decks_from_players" in data:
        kwargs["decks_from_players"] = _read_deck_steps(data["decks_from_players"], source)
    if "description" in data:
        kwargs["description"] = _str(data["description"], "description", source)
    return kwargs


def _read_deck_steps(value: Any, source: str) -> tuple[tuple[int, int], ...]:
    """``decks_from_players``: player count -> decks, the counts as YAML writes them (ints) or as JSON does (their
    decimal strings, such as ``"6"``); any other key is refused, as is a count given twice (``6`` and ``"6"``)."""
    steps: dict[int, int] = {}
    for key, decks in _as_mapping(_or_empty(value, {}), "decks_from_players", source).items():
        players = key if isinstance(key, int) and not isinstance(key, bool) else _decimal(key)
        if players is None:
            raise RulesError(
                f"{source}: 'decks_from_players' keys must be player counts (integers, or their decimal strings "
                f"such as \"6\"), got {key!r}"
            )
        if players in steps:
            raise RulesError(f"{source}: 'decks_from_players' gives player count {players} twice")
        steps[players] = _int(decks, f"decks_from_players.{players}", source)
    return tuple(sorted(steps.items()))


def _decimal(key: Any) -> int | None:
    """The int a JSON object key stands for when ``str(int)`` wrote it: ``"6"``, not ``"06"``, ``" 6"`` or ``"6.0"``."""
    if isinstance(key, str) and re.fullmatch("-?[0-9]+", key) and str(int(key)) == key:
        return int(key)
    return None


def _read_rank_lists(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The rank order, the ranks the lowest-card opener ignores and the powers per rank, as ``Rules`` keywords."""
    kwargs: dict[str, Any] = {}
    for key in ("rank_order", "first_player_ignores"):
        if key in data:
            kwargs[key] = tuple(_rank(r, key, source) for r in _list(data[key], key, source))
    if "powers" in data:
        powers = []
        for rank, names in _as_mapping(_or_empty(data["powers"], {}), "powers", source).items():
            r = _rank(rank, "powers", source)
            names = tuple(_list(_or_empty(names, []), f"powers.{r}", source))
            bad = [p for p in names if p not in POWERS]
            if bad:
                raise RulesError(f"{source}: unknown power(s) {bad} for rank {r} in 'powers'; known: {POWERS}")
            if names:
                powers.append((r, tuple(p for p in POWERS if p in names)))
        kwargs["powers"] = tuple(sorted(powers, key=lambda item: rank_index(item[0])))
    return kwargs

def _or_empty(value: Any, empty: Any) -> Any:
    """A YAML key left blank (null) reads as ``empty``; any other value is kept, to be checked for its type."""
    return empty if value is None else value


def _as_mapping(value: Any, key: str, source: str) -> dict[Any, Any]:
    if not isinstance(value, Mapping):
        raise RulesError(f"{source}: '{key}' must be a mapping, got {value!r}")
    return dict(value)


def _list(value: Any, key: str, source: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"{source}: '{key}' must be a list, got {value!r}")
    return list(value)


def _int(value: Any, key: str, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{source}: '{key}' must be an integer, got {value!r}")
    return value


def _str(value: Any, key: str, source: str) -> str:
    if not isinstance(value, str) or not value:
        raise RulesError(f"{source}: '{key}' must be a non-empty string, got {value!r}")
    return value


def _rank(value: Any, key: str, source: str) -> str:
    """A rank name exactly as the rules model writes it (``"2"`` .. ``"9"``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``X``):
    a rules file is read as written, never case-folded or aliased."""
    if isinstance(value, str) and value in RANKS:
        return value
    raise RulesError(f"{source}: '{key}': unknown rank {value!r}: expected one of {' '.join(RANKS)} (as written, in "
                     "quotes for the digits)")


def presets_dir() -> Path:
    """Where the preset YAML files live: inside the wheel, else the checkout's configs/rules."""
    packaged = resources.files("shithead_env") / "presets"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "configs" / "rules"


@functools.cache
def _load_preset(name: str) -> Rules:
    path = presets_dir() / f"{name}.yaml"
    return _load_file(path, f"preset {name!r}", ())


def _load_file(path: Path, source: str, chain: tuple[str, ...]) -> Rules:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(f"cannot read rules file {str(path)!r}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise RulesError(f"rules file {str(path)!r} is not UTF-8 text: {error.reason} at byte {error.start}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise RulesError(f"{source}: not valid YAML: {error}") from None
    return Rules.from_dict(data, source=source, _chain=chain)


def _load(spec: str | Path, chain: tuple[str, ...]) -> Rules:
    """A preset or a file; ``chain`` lists the files extending it, so a cycle of ``extends`` is refused."""
    if isinstance(spec, str) and spec in PRESETS:
        return _load_preset(spec)
    path = Path(spec)
    if isinstance(spec, Path) or path.suffix in (".yaml", ".yml") or "/" in str(spec):
        source = str(path.resolve())
        if source in chain:
            cycle = " -> ".join([*chain[chain.index(source) :], source])
            raise RulesError(f"rules files extend each other in a cycle: {cycle}")
        return _load_file(path, source, chain)
    raise RulesError(
        f"unknown rules preset {spec!r}: choose one of {', '.join(PRESETS)} or give a path to a .yaml file"
    )


def load_rules(spec: str | Path | Mapping[str, Any] | Rules) -> Rules:
    """Rules from a preset name, a path to a YAML file, a mapping, or a Rules object."""
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, Mapping):
        return Rules.from_dict(spec)
    if isinstance(spec, (str, Path)) and str(spec):
        return _load(spec, ())
    raise RulesError(
        f"rules must be a preset name ({', '.join(PRESETS)}), a path to a .yaml file, a mapping or a Rules object, "
        f"got {spec!r}"
    )


def rules_reference(rules: Rules) -> str | dict[str, Any]:
    """The preset name when ``rules`` is exactly a shipped preset, else the full mapping."""
    if rules.name in PRESETS and _load_preset(rules.name) == rules:
        return rules.name
    return rules.to_dict()
