"""The presets side by side, generated from the YAML files so the rules doc cannot drift.

``python -m shithead_env.rules_table`` prints the table; ``--write docs/rules.md``
replaces the block between the ``presets:begin`` / ``presets:end`` markers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shithead_env.cards import RANKS
from shithead_env.rules import PRESETS, Rules, load_rules

BEGIN, END = "<!-- presets:begin -->", "<!-- presets:end -->"


def _players(rules: Rules) -> str:
    text = f"{rules.min_players}-{rules.max_players}"
    steps = ", ".join(f"{decks} decks from {n}" for n, decks in rules.decks_from_players)
    return f"{text} ({rules.decks} deck{'s' if rules.decks > 1 else ''}{'; ' + steps if steps else ''})"


def presets_markdown(names: tuple[str, ...] = PRESETS) -> str:
    """Markdown table: one column per preset, one row per parameter and per rank with powers."""
    presets = [load_rules(name) for name in names]
    rows: list[tuple[str, list[str]]] = [
        ("players", [_players(r) for r in presets]),
        ("jokers per deck", [str(r.jokers_per_deck) for r in presets]),
        ("rank order (low to high)", [" ".join(r.rank_order) for r in presets]),
    ]
    ranks = [rank for rank in RANKS if any(r.powers_of(rank) for r in presets)]
    for rank in ranks:
        rows.append((f"rank {rank}", [_powers(r, rank) for r in presets]))
    rows += [
        ("run that burns", [str(r.run_burn) if r.run_burn else "off" for r in presets]),
        ("snatch", ["yes" if r.snatch else "no" for r in presets]),
        ("face-up cards", [r.face_up.replace("_", " ") for r in presets]),
        ("voluntary pickup", ["yes" if r.voluntary_pickup else "no" for r in presets]),
        ("first player", [_first_player(r) for r in presets]),
        ("next game of a match", [r.next_game.replace("_", " ") for r in presets]),
        ("decision cap", [str(r.max_decisions) for r in presets]),
    ]
    header = "| parameter | " + " | ".join(f"`{r.name}`" for r in presets) + " |"
    lines = [header, "|---" * (len(presets) + 1) + "|"]
    lines += [f"| {name} | " + " | ".join(cells) + " |" for name, cells in rows]
    return "\n".join(lines)


def _powers(rules: Rules, rank: str) -> str:
    if rank == "X" and not rules.jokers_per_deck:
        return "-"
    return ", ".join(rules.powers_of(rank)) or "plain"


def _first_player(rules: Rules) -> str:
    text = rules.first_player.replace("_", " ")
    if rules.first_player_ignores:
        text += f" (ignoring {', '.join(rules.first_player_ignores)})"
    if rules.opener_plays_lowest:
        text += ", must open with it"
    return text


def replace_block(text: str, table: str) -> str:
    """``text`` with the generated block between the markers replaced by ``table``."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + table + "\n" + text[end:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, help="markdown file whose marked block to replace")
    args = parser.parse_args()
    table = presets_markdown()
    if args.write:
        args.write.write_text(replace_block(args.write.read_text(encoding="utf-8"), table), encoding="utf-8")
    else:
        print(table)


if __name__ == "__main__":
    main()
