"""The rules doc's preset table is generated from the YAML files: it must match them."""

from __future__ import annotations

from pathlib import Path

from shithead_env.rules_table import BEGIN, END, presets_markdown, replace_block

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def test_rules_doc_table_matches_presets() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert replace_block(text, presets_markdown()) == text, (
        "docs/rules.md is stale: run `python -m shithead_env.rules_table --write docs/rules.md`"
    )


def test_table_names_every_power_of_every_preset() -> None:
    table = presets_markdown()
    for power in (
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
    ):
        assert power in table
