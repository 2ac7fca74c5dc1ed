"""examples/: every script is run by scripts/examples.sh, documented, and has its library's pins in scripts/venv.sh.

The examples themselves train in their libraries' virtualenvs (``bash scripts/examples.sh``, which .ci/run calls);
this checks only that the script, the docs and the pins cannot drift apart.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
SCRIPT = (ROOT / "scripts" / "examples.sh").read_text(encoding="utf-8")


def script_libraries() -> list[str]:
    match = re.search(r"^LIBRARIES=\(([^)]*)\)$", SCRIPT, re.MULTILINE)
    assert match, "scripts/examples.sh lost its LIBRARIES=(...) line"
    return match.group(1).split()


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_is_run_documented_and_says_its_pins(path: Path) -> None:
    name = f"examples/{path.name}"
    assert name in SCRIPT, f"{name} is not run by scripts/examples.sh"
    assert f"`{name}`" in (ROOT / "docs" / "environments.md").read_text(encoding="utf-8"), f"{name} is not documented"
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert "Pins:" in doc, f"{name}'s docstring does not say which venv and pins it runs with"


@pytest.mark.parametrize("library", [name for name in script_libraries() if name != "main"])
def test_every_library_venv_has_exact_pins(library: str) -> None:
    pins = subprocess.run(
        ["bash", "-c", f"source scripts/venv.sh && library_pins {library}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
    assert pins and all("==" in pin for pin in pins), f"{library}: {pins}"


def test_an_unknown_library_venv_is_refused_in_one_line() -> None:
    result = subprocess.run(
        ["bash", "-c", "source scripts/venv.sh && library_pins nosuch"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert result.stderr.strip() == "no library venv named nosuch (tianshou, torchrl, agilerl, rlcard)"
