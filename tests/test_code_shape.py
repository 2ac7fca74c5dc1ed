"""The tree's shape: functions short enough to read at once, and text that describes the product, not its making.

A function body is counted from its first statement (its docstring, if any) to
its end, so a long keyword signature such as ``Game.assemble``'s is not held
against it. The text of every source, test, config and doc (CHANGELOG.md, which
names versions, aside) names no issue number and no working session: a reader
of the tree cannot resolve either, and the history they point to is git's.
"""

from __future__ import annotations

import ast
import re
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


TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".yaml",
    ".yml",
    ".toml",
    ".cfg",
    ".ini",
    ".txt",
    ".js",
    ".mjs",
    ".ts",
    ".html",
    ".css",
    ".json",
    ".sh",
    ".rst",
}
THIS_FILE = Path(__file__).resolve()
SKIPPED_DIRS = {"node_modules", "runs", "out", "build", "dist", "__pycache__", "site", "_build"}
ORDINAL = (
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth"
    r"|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-\w+)?|\d+(?:st|nd|rd|th))"
)
WORK_LOG = re.compile(
    r"\bissues?[ _-]?#?\d+|\(#\d+\)|\bsessions?[ _-]\d+\b"
    rf"|\b{ORDINAL}[ _-]sessions?\b"
    r"|\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?:first|second|third|\w+th)\b"
    r"|\b(?:eleventh|twelfth|\w+teenth|twentieth|thirtieth|fortieth|fiftieth)\b",
    re.IGNORECASE,
)


def text_files(root: Path = ROOT) -> list[Path]:
    """Every text file of the tree that describes the product: hidden folders, build outputs, CHANGELOG.md and this
    file (whose patterns spell what they search for) out."""
    found = []
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if any(part.startswith(".") or part in SKIPPED_DIRS or part.endswith(".egg-info") for part in parts[:-1]):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and path.name != "CHANGELOG.md" and path != THIS_FILE:
            found.append(path)
    return found


def work_log_mentions(paths: list[Path], root: Path = ROOT) -> list[str]:
    """``path:line: text`` for each line that names an issue number or a working session."""
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if WORK_LOG.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()[:120]}")
    return found


def test_nothing_in_the_tree_names_an_issue_or_a_session() -> None:
    assert work_log_mentions(text_files()) == []


def test_the_work_log_search_finds_issue_numbers_and_session_ordinals(tmp_path: Path) -> None:
    logged = [
        "as issue 12 asks",
        "see issue-7",
        "fixed (#31)",
        "the thirty-fourth session's default",
        "since the forty-first",
        "the twenty-third session",
        "the eleventh",
        "session 4",
    ]
    product = [
        "game sessions over HTTP",
        "an ONNX Runtime session",
        "the first card",
        "a fourth table card",
        "issues are tracked on GitHub",
        "the 4th seat",
        "sessionStorage",
    ]
    (tmp_path / "notes.md").write_text("\n".join(logged + product), encoding="utf-8")
    (tmp_path / "CHANGELOG.md").write_text("issue 3", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "log.txt").write_text("issue 3", encoding="utf-8")
    files = text_files(tmp_path)
    assert [path.name for path in files] == ["notes.md"]
    assert [hit.split(": ", 1)[1] for hit in work_log_mentions(files, tmp_path)] == logged
