"""Every ```python example in the README and the docs runs as written (from the repository root)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", "docs/state.md", "docs/rules.md", "docs/environments.md")


def examples(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), re.DOTALL)


def test_environments_page_has_an_example_per_interface() -> None:
    found = examples("docs/environments.md")
    text = "\n".join(found)
    assert len(found) == 4
    for interface in ("shithead_v0.env(", "shithead_v0.parallel_env(", "gymnasium.make(", "MaskablePPO("):
        assert interface in text


CASES = [(page, code) for page in PAGES for code in examples(page)]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("page", "code"), CASES, ids=[f"{page}#{i}" for i, (page, _) in enumerate(CASES)])
def test_example_runs(page: str, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if "sb3_contrib" in code:
        pytest.importorskip("sb3_contrib")
    monkeypatch.chdir(ROOT)
    exec(compile(code, str(ROOT / page), "exec"), {"__name__": "__docs__"})
