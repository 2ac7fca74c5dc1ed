"""``py``: your own Python bot at any table, by import path or file (docs/specs.md).

``py:mypkg.mybot:MyBot`` imports ``MyBot`` from the module ``mypkg.mybot``;
``py:path/to/file.py:MyBot`` loads it from that file. The spec's options
(``py:bots/mine.py:MyBot,depth=2``) are its keyword arguments, converted to the
types of their defaults, as for every other kind.

The interface is one method, ``act(view, rng)``: the seat's JSON view
(docs/state.md, the same the HTTP protocol sends) and a numpy generator in, one
of ``view["legal_actions"]`` (or an ``Action``) out. The target is a class with
that method (built with the options), a ``Bot`` subclass (built as it is), or a
function that is the method alone: ``def my_bot(view, rng, **options)``.
examples/bots/my_bot.py is a whole one.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from agents.base import Bot
from shithead_env import Action

KIND = "py"


class ActBot(Bot):
    """A bot whose decision is one call, ``act(view, rng)``, answering an action's JSON or an ``Action``."""

    def __init__(self, act: Callable[[Mapping[str, Any], np.random.Generator], Any]) -> None:
        self._act = act

    def act(self, view: Mapping[str, Any], rng: np.random.Generator) -> Action:
        choice = self._act(view, rng)
        return choice if isinstance(choice, Action) else Action.from_dict(choice)


def python_bot(target: str, *args: Any, **options: Any) -> Bot:
    """The bot ``target`` (``module:Name`` or ``file.py:Name``) names, built with ``args`` and ``options``."""
    obj = load_target(target)
    if inspect.isclass(obj) and issubclass(obj, Bot):
        return obj(*args, **options)
    if inspect.isclass(obj):
        return ActBot(obj(*args, **options).act)
    return ActBot(functools.partial(obj, **options))


def spec_signature(args: Sequence[str]) -> inspect.Signature:
    """The parameters a ``py:`` spec takes: ``target``, then the class's constructor's, or the function's after
    ``(view, rng)`` (``agents.base`` reads options and their types from it)."""
    if not args:
        raise ValueError(f"bot {KIND!r} needs the bot to load: {KIND}:package.module:Name or "
                         f"{KIND}:path/to/file.py:Name")  # fmt: skip
    obj = load_target(args[0])
    signature = inspect.signature(obj)
    params = list(signature.parameters.values())
    if not inspect.isclass(obj):
        params = params[2:]
    target = inspect.Parameter("target", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return signature.replace(parameters=[target, *params])


python_bot.spec_signature = spec_signature  # type: ignore[attr-defined]


def load_target(target: str) -> Any:
    """The class or function ``target`` names; a one-line error says what is missing and what was expected."""
    where, colon, name = target.rpartition(":")
    if not colon or not where or not name:
        raise ValueError(f"bot {KIND}:{target}: expected package.module:Name or path/to/file.py:Name")
    module = _load_file(Path(where)) if where.endswith(".py") or "/" in where or "\\" in where else _import(where)
    obj = getattr(module, name, None)
    if obj is None:
        public = ", ".join(n for n in vars(module) if not n.startswith("_") and callable(vars(module)[n]))
        raise ValueError(f"bot {KIND}:{target}: {where} has no {name!r} (it has: {public or 'nothing callable'})")
    if inspect.isclass(obj) and not issubclass(obj, Bot) and not callable(getattr(obj, "act", None)):
        raise ValueError(f"bot {KIND}:{target}: class {name} has no method act(view, rng)")
    if not callable(obj):
        raise ValueError(f"bot {KIND}:{target}: {name} is neither a class nor a function")
    if not inspect.isclass(obj) and len(inspect.signature(obj).parameters) < 2:
        raise ValueError(f"bot {KIND}:{target}: function {name} must take (view, rng, **options)")
    return obj


def _import(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise ValueError(f"bot {KIND}: cannot import {module!r}: {error} (a file is path/to/file.py)") from None


@functools.cache
def _load_file(path: Path) -> ModuleType:
    """The module of a bot file, loaded once per process under a name derived from its absolute path."""
    path = path.resolve()
    if not path.is_file():
        raise ValueError(f"bot {KIND}: no such file {str(path)!r}")
    name = f"_shithead_bot_{hashlib.sha256(str(path).encode()).hexdigest()[:12]}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # the class pickles by this name (worker processes load the same file)
    spec.loader.exec_module(module)
    return module
