"""Every ```python and ```javascript example in the README and docs/ runs as written (from the repository root).

Examples that talk to a server (they read ``SHITHEAD_URL``) run against one real ``shithead serve``; the
JavaScript ones run in Node (18+, for ``fetch``) where it is installed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")))
# What an example must print, beyond running: (page, language, its number on the page) -> texts.
PRINTS = {
    ("docs/playing.md", "python", 0): ("game over: ", "the shithead", "scores: [", "P1 heuristic "),
    ("docs/shipping.md", "python", 0): ("finish order (loser last):", "422 invalid_view: view.hand[0]"),
    ("docs/shipping.md", "javascript", 0): ("kind",),
}


def examples(page: str, language: str = "python") -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), re.DOTALL)


def test_environments_page_has_an_example_per_interface() -> None:
    found = examples("docs/environments.md")
    text = "\n".join(found)
    assert len(found) == 5
    for interface in ("shithead_v0.env(", "shithead_v0.parallel_env(", "gymnasium.make(", "MaskablePPO(",
                      "pyspiel.load_game("):  # fmt: skip
        assert interface in text


CASES = [(page, language, i, code) for page in PAGES for language in ("python", "javascript")
         for i, code in enumerate(examples(page, language))]


@pytest.mark.parametrize(("page", "language", "index", "code"), CASES,
                         ids=[f"{page}#{language}{i}" for page, language, i, _ in CASES])
def test_example_runs(page: str, language: str, index: int, code: str, request: pytest.FixtureRequest) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if "SHITHEAD_URL" in code:
        env["SHITHEAD_URL"] = request.getfixturevalue("server")
    if language == "javascript":
        node = shutil.which("node")
        if node is None:
            pytest.skip("Node is not installed")
        command = [node, "--input-type=module", "-e", code]
    else:
        command = [sys.executable, "-W", "ignore::UserWarning", "-c", code]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page} {language} example {index}: {done.stderr[-3000:]}"
    for text in PRINTS.get((page, language, index), ()):
        assert text in done.stdout, f"{page} {language} example {index} printed {done.stdout[-1000:]!r}"
