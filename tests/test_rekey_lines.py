"""benchmarks/rekey_lines.py: cache files named anew from the line each keeps, so a key change keeps the records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, BENCHMARKS / script, *args], capture_output=True, text=True, check=check)


def compare(cache: Path, *args: str) -> str:
    arms = ("--arm", "greedy", "--arm", "heuristic", "--opponent", "random", "--games", "8")
    return run("compare_bots.py", *arms, "--cache", str(cache), *args).stdout


def test_a_file_under_an_old_key_is_named_by_its_line_and_reads_as_before(tmp_path):
    table = compare(tmp_path)
    run("endgames.py", "--arm", "random", "--opponent", "random", "--positions", "3", "--cache", str(tmp_path))
    names = sorted(path.name for path in tmp_path.glob("*.json"))
    assert len(names) == 3 and all(json.loads((tmp_path / n).read_text())["line"] for n in names)
    assert run("rekey_lines.py", "--cache", str(tmp_path)).stdout.endswith("0 renamed, 0 without a line\n")
    for name in names:  # as if a new option had changed every key since the lines were played
        (tmp_path / name).rename(tmp_path / f"old-{name}")
    dry = run("rekey_lines.py", "--cache", str(tmp_path), "--dry-run").stdout
    assert dry.endswith("3 to rename, 0 without a line\n") and not list(tmp_path.glob(names[0]))
    done = run("rekey_lines.py", "--cache", str(tmp_path)).stdout
    assert f"old-{names[0]} -> {names[0]}" in done
    assert sorted(path.name for path in tmp_path.glob("*.json")) == names
    assert compare(tmp_path, "--cached") == table  # every deal replayed from the renamed files


def test_a_bare_list_is_left_and_a_taken_name_refused_without_renaming_anything(tmp_path):
    compare(tmp_path)
    first, second = sorted(tmp_path.glob("*.json"))
    (tmp_path / "bare.json").write_text("[]")
    assert "bare.json: no line kept" in run("rekey_lines.py", "--cache", str(tmp_path)).stdout
    second.rename(tmp_path / "old.json")
    (tmp_path / "older.json").write_text(first.read_text())  # two files of one line: their records would merge
    refused = run("rekey_lines.py", "--cache", str(tmp_path), check=False)
    assert refused.returncode != 0 and f"nothing renamed: {first.name} would hold two lines" in refused.stderr
    assert (tmp_path / "old.json").exists() and not second.exists() and refused.stderr.count("\n") == 1
