"""A bench's results as Markdown and as a plot, and a leaderboard of many results as Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def format_interval(iv: Mapping[str, Any] | None, digits: int = 3, signed: bool = True) -> str:
    if iv is None:
        return "n/a"
    sign = "+" if signed else ""

    def number(x: float) -> str:
        return f"{round(x, digits) + 0.0:{sign}.{digits}f}"  # + 0.0: a rounded -0 reads as 0

    if iv["low"] is None:
        return number(iv["mean"])
    return f"{number(iv['mean'])} [{number(iv['low'])}, {number(iv['high'])}]"


def table_label(table: Mapping[str, Any]) -> str:
    """``dead_last/4``: a results table's preset and player count (``Table.name`` of the suite)."""
    return f"{table['rules']}/{table['players']}"


def _faults(faults: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in faults.items() if n) or "none"


def format_results(results: Mapping[str, Any]) -> str:
    """The bot's suite score and rating, then one row per match (Markdown)."""
    suite = results["suite"]
    lines = [
        f"# {results['bot']} on Shithead-Bench {suite['name']} v{suite['version']}",
        "",
        f"- suite score (mean placement score over tables): {format_interval(results['score'])}",
        f"- rating (Elo, {results['rating_anchor']} = 0): {format_interval(results['rating'], 0)}",
        f"- thinking time: {results['ms_per_decision']:.3f} ms a move; failed moves: {_faults(results['faults'])}",
        *_exploit_line(results.get("exploit")),
        "",
        "| table | opponent | games | score | head to head | loss rate | win rate | ms/move | failed moves |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for table in results["tables"]:
        name = table_label(table)
        for m in table["matches"]:
            figures = [format_interval(m["score"]), format_interval(m["head_to_head"]),
                       format_interval(m["loss_rate"], signed=False), format_interval(m["win_rate"], signed=False),
                       f"{m['ms_per_decision']:.3f}", _faults(m["faults"])]  # fmt: skip
            lines.append(f"| {name} | {m['opponent']} | {m['games']} | " + " | ".join(figures) + " |")
        games = sum(m["games"] for m in table["matches"])
        lines.append(f"| {name} | **all** | {games} | {format_interval(table['score'])} | | | | | |")
    return "\n".join(lines)


def _exploit_line(probe: Mapping[str, Any] | None) -> list[str]:
    if probe is None:
        return []
    return [f"- exploitability ({probe['table']}, a {probe['steps']}-step PPO best response, {probe['games']} games): "
            f"{format_interval(probe['score'])} (0 = the bot against itself)"]  # fmt: skip


def format_leaderboard(board: Mapping[str, Any]) -> str:
    """One row per bot, best rating first (Markdown)."""
    suite = board["suite"]
    entries = sorted(board["entries"], key=lambda e: -(e["rating"] or {"mean": -1e9})["mean"])
    tables = [table_label(t) for t in entries[0]["tables"]] if entries else []
    lines = [
        f"Shithead-Bench {suite['name']} v{suite['version']}, package {board['package_version']}: placement score "
        f"(+1 first safe .. -1 shithead) against the reference field, 95% intervals; rating on the Elo scale with "
        f"{board['anchor']} = 0.",
        "",
        "| bot | rating (Elo) | suite score | " + " | ".join(tables) + " | ms/move |",
        "|---|---|---|" + "---|" * len(tables) + "---|",
    ]
    for e in entries:
        per_table = {table_label(t): format_interval(t["score"]) for t in e["tables"]}
        lines.append(
            f"| {e['bot']} | {format_interval(e['rating'], 0)} | {format_interval(e['score'])} | "
            + " | ".join(per_table.get(name, "") for name in tables)
            + f" | {e['ms_per_decision']:.3f} |"
        )
    return "\n".join(lines)


def plot_results(results_list: Sequence[Mapping[str, Any]], path: str) -> None:
    """PNG: each bot's score per table and over the suite, with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [table_label(t) for t in results_list[0]["tables"]] + ["suite"]
    fig, ax = plt.subplots(figsize=(7, 1.5 + 0.4 * len(names) * max(1, len(results_list)) ** 0.5))
    step = 0.8 / max(1, len(results_list))
    for i, results in enumerate(results_list):
        rows = {table_label(t): t["score"] for t in results["tables"]} | {"suite": results["score"]}
        ys = [j + i * step for j, name in enumerate(names) if name in rows]
        ivs = [rows[name] for name in names if name in rows]
        means = [iv["mean"] for iv in ivs]
        errors = [[iv["mean"] - (iv["low"] if iv["low"] is not None else iv["mean"]) for iv in ivs],
                  [(iv["high"] if iv["high"] is not None else iv["mean"]) - iv["mean"] for iv in ivs]]  # fmt: skip
        ax.errorbar(means, ys, xerr=errors, fmt="o", capsize=3, label=results["bot"])
    ax.axvline(0.0, color="grey", linewidth=0.8)
    ax.set_yticks([j + 0.4 - step / 2 for j in range(len(names))], names)
    ax.invert_yaxis()
    ax.set_xlabel("mean placement score against the reference field (95% interval)")
    suite = results_list[0]["suite"]
    ax.set_title(f"Shithead-Bench {suite['name']} v{suite['version']}")
    ax.legend(fontsize="small", loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
