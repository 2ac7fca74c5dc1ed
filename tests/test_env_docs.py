"""docs/environments.md: every ```python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "environments.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_page_has_an_example_per_interface() -> None:
    text = "\n".join(EXAMPLES)
    assert len(EXAMPLES) == 3
    assert "shithead_v0.env(" in text and "gymnasium.make(" in text and "MaskablePPO(" in text


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_example_runs(code: str) -> None:
    if "sb3_contrib" in code:
        pytest.importorskip("sb3_contrib")
    exec(compile(code, str(DOC), "exec"), {"__name__": "__docs__"})
