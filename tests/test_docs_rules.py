"""The rules doc's preset table is generated from the YAML files: it must match them."""

from __future__ import annotations

from pathlib import Path

from shithead_env.rules import POWERS, PRESETS, load_rules
from shithead_env.rules_table import BEGIN, END, presets_markdown, replace_block

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def test_rules_doc_table_matches_presets() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert replace_block(text, presets_markdown()) == text, (
        "docs/rules.md is stale: run `python -m shithead_env.rules_table --write docs/rules.md`"
    )


def test_table_names_every_power_the_presets_use() -> None:
    table = presets_markdown()
    used = {power for name in PRESETS for _, powers in load_rules(name).powers for power in powers}
    assert used == set(POWERS)  # the five presets together exercise every power
    for power in used:
        assert power in table
