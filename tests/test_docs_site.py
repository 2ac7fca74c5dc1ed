"""The documentation site builds strictly from docs/, the docstrings and the CLI's parsers: a warning (a broken
link, a missing page, a docstring mkdocstrings cannot read) fails the build, so it fails here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_docs_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "cli" / "index.html").is_file() and (tmp_path / "api" / "index.html").is_file()
    api = (tmp_path / "api" / "index.html").read_text(encoding="utf-8")
    assert "legal_actions" in api  # the API page carries Game's documented methods, not only headings


def test_the_readme_reads_in_five_minutes() -> None:
    """The README is an introduction (at most 160 lines and 1,500 words); reference belongs on the docs pages."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 160 and len(text.split()) <= 1500
