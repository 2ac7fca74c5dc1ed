"""The bots a server offers: each under its served name with the card ``GET /v1/bots`` shows.

The served set (``collect_bots``) is every registered kind that needs no argument, the difficulty levels, every
exported model directory under a folder (named by its card) with ``auto``, and any extra name -> spec.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.base import Bot, bot_class, bot_kinds, make_bot
from agents.levels import LEVELS
from agents.onnx_bot import AUTO, CARD_FILE, ShippedBot, shipped_model_dirs
from agents.protocol.handler import reports_policy, supported_rules


@dataclass
class ServedBot:
    """A bot under its served name, with the card ``/v1/bots`` shows."""

    name: str
    bot: Bot
    card: dict[str, Any] = field(default_factory=dict)


def _needs_arguments(kind: str) -> bool:
    """Whether the registered ``kind`` takes a positional argument (a model path), so cannot be built bare."""
    params = inspect.signature(bot_class(kind)).parameters.values()
    return any(p.default is inspect.Parameter.empty and p.kind != p.VAR_KEYWORD for p in params)


def spec_bot(name: str, spec: str) -> ServedBot:
    """A bot built from a spec (``"heuristic"``, ``"ismcts:sims=50"``, ``"model:<dir>"``)."""
    return served_bot(name, spec, make_bot(spec))


def served_bot(name: str, spec: str, bot: Bot) -> ServedBot:
    """``bot`` under ``name`` with its card (a model's ``bot.json``, else the presets it plays)."""
    card = getattr(bot, "card", None)
    card = dict(card) if card is not None else {"kind": "builtin", "rules": list(supported_rules(bot))}
    card.update(name=name, spec=spec, policy=reports_policy(bot))
    return ServedBot(name, bot, card)


def builtin_bots() -> dict[str, ServedBot]:
    """Every registered kind that can be built without arguments, under its kind name; the difficulty levels under
    their specs, ``level:1`` .. ``level:5`` (a served name is the spec that builds the bot)."""
    bots = {kind: spec_bot(kind, kind) for kind in bot_kinds() if not _needs_arguments(kind)}
    return bots | {f"level:{n}": spec_bot(f"level:{n}", f"level:{n}") for n in LEVELS}


def model_bots(directory: str | Path) -> dict[str, ServedBot]:
    """Every exported model directory under ``directory`` (itself included), named by its card, and ``auto``:
    for each request, the one of them whose card covers the view's table."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"--models {directory}: not a directory")
    found: dict[str, ServedBot] = {}
    for model_dir in shipped_model_dirs(directory):
        served = spec_bot("", f"model:{model_dir}")
        served.name = served.card["name"] = str(served.bot.name)  # type: ignore[attr-defined]
        if served.name in found or served.name == AUTO:
            taken = found[served.name].card["spec"] if served.name in found else "the automatic choice"
            raise ValueError(f"two models are named {served.name!r}: {taken} and {model_dir / CARD_FILE}")
        found[served.name] = served
    if found:
        found[AUTO] = served_bot(AUTO, f"model:{AUTO}", ShippedBot(root=directory))
    return found


def collect_bots(models: str | Path | None, extra: Mapping[str, str] | None = None) -> dict[str, ServedBot]:
    """The served set: built-ins, then models (a model may not shadow a built-in), then ``extra`` name -> spec."""
    bots = builtin_bots()
    for name, served in (model_bots(models) if models is not None else {}).items():
        if name in bots:
            raise ValueError(f"model {name!r} would shadow the built-in bot of that name; rename it in {CARD_FILE}")
        bots[name] = served
    for name, spec in (extra or {}).items():
        bots[name] = spec_bot(name, spec)
    return bots
