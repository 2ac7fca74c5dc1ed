"""The package's functions stay short enough to read at once: no body over 60 lines.

A body is counted from its first statement (its docstring, if any) to its end,
so a long keyword signature such as ``Game.assemble``'s is not held against it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_BODY_LINES = 60


def long_functions(limit: int = MAX_BODY_LINES) -> list[str]:
    found = []
    for package in ("shithead_env", "agents", "train"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = node.end_lineno - node.body[0].lineno + 1
                    if lines > limit:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_body_is_over_60_lines() -> None:
    assert long_functions() == []


def test_the_measure_finds_long_functions() -> None:
    assert any(f.startswith("shithead_env/game.py:") and " assemble (" in f for f in long_functions(limit=30))
