"""Bots for shithead-env: ``make_bot("heuristic")``, ``make_bot("ismcts:sims=200")``.

``bot.act(view, rng)`` takes ``game.view(seat)`` and a ``numpy.random.Generator``
and returns a legal ``Action``. The registry is ``agents.base.bot_kinds()``: ``BOTS`` and the
``shithead.bot_kinds`` entry points.
"""

from agents.base import BOTS, Bot, KnowledgeBot, make_bot, parse_spec, split_specs

__all__ = ["BOTS", "Bot", "KnowledgeBot", "make_bot", "parse_spec", "split_specs"]
