"""The learning curve of a run: the learner's mean score against each baseline, with 95% intervals, per step."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path


def plot_learning_curve(csv_path: Path, png_path: Path, title: str = "") -> bool:
    """Write the PNG from the run's ``eval.csv`` (one curve per baseline, and per table when the rows name
    theirs); False (nothing written) when there is no row yet."""
    if not csv_path.is_file():
        return False
    series: dict[str, list[tuple[int, float, float, float]]] = defaultdict(list)
    with csv_path.open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            mean = float(row["score"])
            low = float(row["score_low"]) if row["score_low"] else mean
            high = float(row["score_high"]) if row["score_high"] else mean
            table = f" at {row['rules']}/{row['players']}" if row.get("rules") else ""
            series[row["opponent"] + table].append((int(row["step"]), mean, low, high))
    if not series:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for opponent, points in series.items():
        points.sort()
        steps = [p[0] for p in points]
        ax.plot(steps, [p[1] for p in points], marker="o", label=f"vs {opponent}")
        ax.fill_between(steps, [p[2] for p in points], [p[3] for p in points], alpha=0.2)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("mean placement score (95% interval)")
    ax.set_title(title or "learning curve (harness, duplicate deals)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)
    return True
