"""The results page's table of shipped models, one row per table the presets allow, generated from the model
registry.

Each policy's registry entry (``agents/pretrained/registry.json``, copied from
its card) holds its release evaluation (``strength.results``: every table it
was played at, the ones it does not cover included), so the table is read off
the registry rather than copied by hand: which model ``model:auto`` seats, its
figures, and every other shipped model's figure at that table.

    python -m agents.shipped_table   # the Markdown table (tests/agents/test_model_auto.py checks docs/results.md)
"""

from __future__ import annotations

from pathlib import Path

from agents.onnx_bot import choose_model
from agents.registry import PRETRAINED_DIR, load_registry
from shithead_env import PRESETS, load_rules

HEADER = (
    "| rules | players | `model:auto` seats | games | mean score [95% interval] | loss rate | win rate "
    "| the other shipped models there (**no**: its card does not cover the table) |\n"
    "|---|---|---|---|---|---|---|---|\n"
)


def _interval(result: dict) -> str:
    return f"{result['score']:+.3f} [{result['score_low']:+.3f}, {result['score_high']:+.3f}]"


def shipped_table(root: Path = PRETRAINED_DIR) -> str:
    """Markdown: per preset and player count, the model ``model:auto`` seats and its release figures against
    ``heuristic``, then the other models measured there."""
    policies = [net for net in load_registry(root)["networks"] if net["kind"] == "policy"]
    seated = [{"name": net["name"], "tables": net["tables"], "evaluation": {"results": net["strength"]["results"]}}
              for net in policies if net["auto"]]
    measured: dict[tuple[str, int], list[tuple[str, dict, bool]]] = {}
    for net in policies:
        for result in net["strength"]["results"]:
            if result["opponent"] == "heuristic":
                covered = result["players"] in net["tables"].get(result["rules"], [])
                measured.setdefault((result["rules"], result["players"]), []).append((net["name"], result, covered))
    rows = []
    for preset in PRESETS:
        rules = load_rules(preset)
        for players in range(rules.min_players, rules.max_players + 1):
            here = measured.get((preset, players), [])
            card = choose_model(seated, preset, players)
            if card is None:
                rows.append(f"| {preset} | {players} | none | | | | | {_others(here, None)} |")
                continue
            chosen = card["name"]
            best = next(result for name, result, _ in here if name == chosen)
            rows.append(f"| {preset} | {players} | `{chosen}` | {best['games']:,} | {_interval(best)} "
                        f"| {best['loss_rate']:.3f} | {best['win_rate']:.3f} | {_others(here, chosen)} |")
    return HEADER + "\n".join(rows) + "\n"


def _others(here: list[tuple[str, dict, bool]], chosen: str | None) -> str:
    return "; ".join(f"`{name}` {_interval(result)}{'' if covered else ' **no**'}"
                     for name, result, covered in here if name != chosen) or "-"


if __name__ == "__main__":
    print(shipped_table(), end="")
