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
    arms = ("--arm", "greedy", "--arm", "heuristic", "--opponents", "random", "--games", "8")
    command = [sys.executable, "-m", "shithead_env.cli", "compare", *arms, "--cache", str(cache), *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def test_a_file_under_an_old_key_is_named_by_its_line_and_reads_as_before(tmp_path):
    table = compare(tmp_path)
    run("endgames.py", "--arm", "random", "--opponent", "random", "--positions", "3", "--cache", str(tmp_path))
    names = sorted(path.name for path in tmp_path.glob("*.json"))
    assert len(names) == 3 and all(json.loads((tmp_path / n).read_text())["line"] for n in names)
    assert run("rekey_lines.py", "--cache", str(tmp_path)).stdout.endswith("0 renamed, 0 left\n")
    for name in names:  # as if a new option had changed every key since the lines were played
        (tmp_path / name).rename(tmp_path / f"old-{name}")
    dry = run("rekey_lines.py", "--cache", str(tmp_path), "--dry-run").stdout
    assert dry.endswith("3 to rename, 0 left\n") and not list(tmp_path.glob(names[0]))
    done = run("rekey_lines.py", "--cache", str(tmp_path)).stdout
    assert f"old-{names[0]} -> {names[0]}" in done
    assert sorted(path.name for path in tmp_path.glob("*.json")) == names
    assert compare(tmp_path, "--cached") == table  # every deal replayed from the renamed files


def test_a_bare_list_and_a_line_no_longer_played_are_left_and_a_taken_name_refused(tmp_path):
    compare(tmp_path)
    first, second = sorted(tmp_path.glob("*.json"))
    (tmp_path / "bare.json").write_text("[]")
    gone = json.loads(first.read_text())
    gone["line"]["config"]["bots"][0] = "greedy:depth=2"  # an option the code no longer has
    (tmp_path / "gone.json").write_text(json.dumps(gone))
    out = run("rekey_lines.py", "--cache", str(tmp_path)).stdout
    assert "bare.json: left as it is: no line kept" in out and out.endswith("0 renamed, 2 left\n")
    assert "gone.json: left as it is: its line no longer plays here (bot 'greedy' has no option 'depth'" in out
    second.rename(tmp_path / "old.json")
    (tmp_path / "older.json").write_text(first.read_text())  # two files of one line: their records would merge
    refused = run("rekey_lines.py", "--cache", str(tmp_path), check=False)
    assert refused.returncode != 0 and f"nothing renamed: {first.name} would hold two lines" in refused.stderr
    assert (tmp_path / "old.json").exists() and not second.exists() and refused.stderr.count("\n") == 1
