"""The bot interface, the registry of bot kinds and the one parser of bot specs (docs/specs.md).

A spec is ``kind`` or ``kind:item,item,...`` (``"ismcts:sims=200,rollout=random"``): an item
``opt=value`` is an option, an item without ``=`` a positional argument (``"model:path/to/net.onnx"``,
``"py:mypkg.mybot:MyBot"``); a bare URL (``http://HOST:PORT/v1/bots/NAME``) is ``remote:URL``.
A seat list is specs separated by ``;`` (``"guided;heuristic;heuristic;heuristic"``), never by ``,``.
Adding a kind is one line in ``BOTS``: ``name -> "module:Class"``, imported on
first use so heavy runtimes load only when asked for. Kinds from other packages
(``train``'s ``policy`` and ``rllib``, or a third party's) register the same line
as an entry point of the group ``shithead.bot_kinds``, so this layer names no
module above it; ``bot_kinds()`` is the whole registry.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from shithead_env import Action, Game, Knowledge, Rules
from shithead_env.rules import rules_reference

BOTS: dict[str, str] = {
    "random": "agents.simple:RandomBot",
    "greedy": "agents.simple:GreedyBot",
    "heuristic": "agents.heuristic:HeuristicBot",
    "ismcts": "agents.ismcts:ISMCTSBot",
    "guided": "agents.guided:GuidedBot",  # ismcts with a value network and policy priors: needs onnxruntime
    "lookahead": "agents.lookahead:LookaheadBot",  # one ply over sampled deals, a value network: onnxruntime
    "model": "agents.onnx_bot:model_bot",  # model:<dir>, or model:auto (the shipped model covering the table)
    "remote": "agents.remote:RemoteBot",  # remote:<URL> or the bare URL: a bot served over the JSON protocol
    "level": "agents.levels:level_bot",  # level:1 .. level:5, difficulty levels measured on Shithead-Bench
    "py": "agents.python_bot:python_bot",  # py:package.module:Name or py:path/to/file.py:Name: your own bot
}
URL_PREFIXES = ("http://", "https://")  # a spec that is a URL names a remote bot
SEAT_SEPARATOR = ";"  # between the specs of a seat list; "," separates the items inside one spec
BOT_KINDS_GROUP = "shithead.bot_kinds"  # entry points: kind name -> "module:Class" (pyproject.toml: policy, rllib)


@functools.cache
def bot_kinds() -> dict[str, str]:
    """Every registered kind: ``BOTS``, then the installed packages' ``shithead.bot_kinds`` entry points (a name
    that a built-in kind or another package already has is refused, naming both)."""
    kinds = dict(BOTS)
    for point in importlib.metadata.entry_points(group=BOT_KINDS_GROUP):
        if point.name in kinds and kinds[point.name] != point.value:
            raise ValueError(f"bot kind {point.name!r} is registered twice: {kinds[point.name]} and {point.value} "
                             f"(entry point group {BOT_KINDS_GROUP})")
        kinds[point.name] = point.value
    return kinds


class Bot:
    """A player. ``act`` sees only a seat's JSON view and must return a legal action.

    ``decide`` is the same decision from the seat's ``Knowledge`` (what the
    protocol handler has already checked), ``act_game`` the harness's fast
    path, read straight off the game (only what ``seat`` may know), and
    ``act_games`` the same for many games at once (rollouts). A bot
    implements ``act`` or, as every built-in bot does (``KnowledgeBot``),
    ``decide``; the others default to it.
    """

    spec: str = ""

    def act(self, view: Mapping[str, Any], rng: np.random.Generator) -> Action:
        raise NotImplementedError

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        return self.act(knowledge.to_dict(), rng)

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        return self.decide(Knowledge.from_game(game, seat), rng)

    def act_games(self, games: Sequence[Game], seat: int, rng: np.random.Generator) -> list[Action]:
        """``act_game`` for ``seat`` in each of ``games`` (a batch of rollouts); a network answers in one call."""
        return [self.act_game(game, seat, rng) for game in games]

    def covers(self, rules: str, players: int) -> bool:
        """Whether the bot is made for this table (preset name, player count); a model only for its card's."""
        return True

    def coverage(self) -> str:
        """The tables the bot is made for, in words (for errors)."""
        return "every table"


def table_rules_name(rules: Rules) -> str:
    """The preset's name, or ``custom rules '<name>'`` for any other rule set (no model card covers one)."""
    reference = rules_reference(rules)
    return reference if isinstance(reference, str) else f"custom rules {rules.name!r}"


def not_made_for(name: str, bot: Bot, rules: str, players: int) -> str:
    """The one wording of "this bot does not play this table" (the harness, the protocol, the game sessions)."""
    return f"bot {name!r} is not made for {rules} with {players} players; its card covers {bot.coverage()}"


def table_mismatch(bot: Bot, rules: Rules, players: int) -> str | None:
    """Why ``bot`` cannot sit at this table, from its card; None when it can (built-in bots play every table)."""
    name = table_rules_name(rules)
    return None if bot.covers(name, players) else not_made_for(bot.spec, bot, name, players)


def require_coverage(bot: Bot, rules: Rules, players: int) -> None:
    """Refuse, in one line, a bot whose card does not cover the table (a custom rule set is no preset's table)."""
    reason = table_mismatch(bot, rules, players)
    if reason:
        raise ValueError(reason)


class KnowledgeBot(Bot):
    """A bot that implements ``decide``: the view, the protocol and the fast path agree by construction."""

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        raise NotImplementedError

    def act(self, view: Mapping[str, Any], rng: np.random.Generator) -> Action:
        return self.decide(Knowledge.from_view(view), rng)


def parse_spec(spec: str) -> tuple[str, list[str], dict[str, str]]:
    """Split ``kind:a,k=v`` into (kind, positional args, options); a seat list written with ``,`` between its seats
    (the form ``;`` replaced) is refused with the spelling to use."""
    _refuse_comma_seats(spec)
    kind, _, rest = spec.strip().partition(":")
    args: list[str] = []
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            args.append(item)
        elif key.strip() in options:
            raise ValueError(f"bot spec {spec!r}: option {key.strip()!r} given twice")
        else:
            options[key.strip()] = value.strip()
    return kind.strip(), args, options


def split_specs(text: str) -> list[str]:
    """The specs of a seat list ``a;b;c`` (one spec is a list of one); an empty spec is refused."""
    specs = [spec.strip() for spec in text.split(SEAT_SEPARATOR)]
    if not all(specs):
        raise ValueError(f"seat list {text!r} has an empty spec: give one spec a seat, separated by "
                         f"'{SEAT_SEPARATOR}', e.g. 'heuristic;random'")  # fmt: skip
    for spec in specs:
        parse_spec(spec)
    return specs


def _refuse_comma_seats(spec: str) -> None:
    """Refuse ``heuristic,random`` (seats separated by ``,``), naming the same seats separated by ``;``: a part
    that starts with a registered kind (or a URL) begins a seat, a part ``opt=value`` continues the one before."""
    if "," not in spec:
        return
    seats: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        if seats and "=" in part.partition(":")[0]:
            seats[-1] += "," + part
        else:
            seats.append(part)
    if len(seats) > 1 and all(s.startswith(URL_PREFIXES) or s.partition(":")[0] in bot_kinds() for s in seats):
        raise ValueError(f"{spec!r}: seats are separated by '{SEAT_SEPARATOR}' (',' separates one spec's options): "
                         f"write {SEAT_SEPARATOR.join(seats)!r}")  # fmt: skip


def _convert(value: str, default: Any, where: str) -> Any:
    if isinstance(default, bool):
        if value.lower() in ("1", "true", "yes", "on"):
            return True
        if value.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{where} must be true or false, got {value!r}")
    if isinstance(default, (int, float)):
        try:
            return type(default)(value)
        except ValueError:
            kind = "an int" if isinstance(default, int) else "a number"
            raise ValueError(f"{where} must be {kind}, got {value!r}") from None
    return value


def bot_class(kind: str) -> Callable[..., Bot]:
    """The class (or factory) registered as ``kind``; a clear error names the known kinds."""
    kinds = bot_kinds()
    if kind not in kinds:
        raise ValueError(f"unknown bot {kind!r}: choose one of {', '.join(kinds)}")
    module, _, name = kinds[kind].partition(":")
    return getattr(importlib.import_module(module), name)


def make_bot(spec: str) -> Bot:
    """Build a bot from a spec string such as ``"heuristic"``, ``"ismcts:sims=200"`` or a served bot's URL."""
    cls, args, kwargs, _ = _parse_options(spec)
    bot = cls(*args, **kwargs)
    bot.spec = spec.strip()
    return bot


def resolved_spec(spec: str) -> str:
    """``spec`` with every option the bot takes, its default filled in where the spec leaves it out, in name
    order: the same text however the bot is spelt, and another once a default changes (what a benchmark's cache
    keys on). Reads the spec as ``make_bot`` does (the same errors for an unknown bot, option or value type)
    without building the bot."""
    _, args, kwargs, defaults = _parse_options(spec)
    options = [f"{name}={value!r}" for name, value in sorted((defaults | kwargs).items())]
    return f"{_kind_and_rest(spec)[0]}:{','.join([*args, *options])}"


def _kind_and_rest(spec: str) -> tuple[str, list[str], dict[str, str]]:
    """``parse_spec``, with a served bot's URL read as ``remote:<url>``."""
    return parse_spec(f"remote:{spec.strip()}" if spec.strip().startswith(URL_PREFIXES) else spec)


def _parse_options(spec: str) -> tuple[Callable[..., Bot], list[str], dict[str, Any], dict[str, Any]]:
    """The class a spec names, its positional arguments, its options converted to their defaults' types, and
    every option's default; a clear error for a wrong argument count, an unknown option or a bad value."""
    kind, args, options = _kind_and_rest(spec)
    cls = bot_class(kind)
    hook = getattr(cls, "spec_signature", None)  # a kind whose options depend on its arguments (``py``)
    signature = inspect.signature(cls) if hook is None else hook(args)
    params = [p for p in signature.parameters.values() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    positional = [p for p in params if p.default is inspect.Parameter.empty]
    if len(args) != len(positional):
        names = ", ".join(p.name for p in positional) or "none"
        raise ValueError(f"bot {kind!r} takes {len(positional)} positional argument(s) ({names}), got {args}")
    defaults = {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}
    hints: dict[str, str] = getattr(cls, "option_hints", {})  # a name a user may reach for -> the option it means
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        if key in hints:
            raise ValueError(f"bot {kind!r} has no option {key!r} (did you mean {hints[key]!r}?)")
        if key not in defaults:
            known = ", ".join(defaults) or "none"
            raise ValueError(f"bot {kind!r} has no option {key!r} (options: {known})")
        kwargs[key] = _convert(value, defaults[key], f"bot {kind!r} option {key!r}")
    return cls, args, kwargs, defaults
