"""The ``shithead`` command explains itself: help with defaults and an example, --version, early one-line errors."""

from __future__ import annotations

import argparse
import json
import re
import socket
import sys
from pathlib import Path

import numpy as np
import pytest

from shithead_env import __version__
from shithead_env.cli import build_parser, main


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"shithead {__version__}"


def test_eval_infers_players_from_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eval.json"
    assert main(["eval", "--bots", "greedy;random;random", "--games", "6", "--no-progress", "--json", str(out)]) == 0
    assert "3 players, 6 games" in capsys.readouterr().out
    summary = json.loads(out.read_text())
    assert summary["players"] == 3 and summary["bots_by_slot"] == ["greedy", "random", "random"]
    assert main(["eval", "--bots", "greedy;random", "--players", "3", "--games", "6"]) == 2
    assert "--bots names 2 bot(s) (greedy; random) for --players 3" in capsys.readouterr().err


def test_eval_caps_games_at_max_decisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eval.json"
    args = ["eval", "--bots", "greedy;random;random", "--games", "6", "--no-progress", "--json", str(out)]
    assert main([*args, "--max-decisions", "30"]) == 0
    assert "capped at 30 decisions, 6 truncated" in capsys.readouterr().out  # no game ends in 30 decisions
    summary = json.loads(out.read_text())
    assert summary["max_decisions"] == 30 and summary["truncated_games"] == 6
    assert all(record["decisions"] and sum(record["decisions"]) == 30 for record in summary["game_records"])
    assert main([*args, "--max-decisions", "0"]) == 2
    assert "--max-decisions must be positive, got 0" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--json", "--plot"])
def test_eval_refuses_an_unwritable_output_before_playing(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (tmp_path / "no_such_dir" / "out.file", tmp_path):
        assert main(["eval", "--bots", "random;random", "--games", "2000", option, str(path)]) == 2
        captured = capsys.readouterr()
        assert f"{option} '{path}'" in captured.err and captured.out == ""  # no tournament table
    assert list(tmp_path.iterdir()) == []


def test_a_missing_extra_is_one_line_before_any_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails as if not installed
    assert main(["eval", "--bots", "random;random", "--games", "2000", "--plot", str(tmp_path / "p.png")]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == (
        'shithead eval: error: --plot needs matplotlib, which is not installed: pip install -e ".[plot]"'
    )
    assert captured.out == ""
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve", "--port", "8000"]) == 2
    assert capsys.readouterr().err.strip() == (
        'shithead serve: error: shithead serve needs uvicorn, which is not installed: pip install -e ".[serve]"'
    )
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # a model bot, before the first game
    argv = ["eval", "--bots", "model:agents/pretrained/dead_last_4p;random;random;random", "--games", "2000"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().endswith('needs onnxruntime, which is not installed: pip install -e ".[runtime]"')
    assert captured.out == ""


def test_extras_match_pyproject() -> None:
    """shithead_env.extras lists, per extra, the modules pyproject's optional dependencies install."""
    tomllib = pytest.importorskip("tomllib")
    from shithead_env.extras import EXTRA_MODULES, extra_for

    declared = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    optional = declared["project"]["optional-dependencies"]
    not_imported = {"uvloop", "httptools"}  # uvicorn's speed-ups, never imported by the project
    for extra, modules in EXTRA_MODULES.items():
        names = {re.split(r"[<>=;\[ ]", req)[0].replace("-", "_") for req in optional[extra]} - not_imported
        assert set(modules) == names, extra
    assert extra_for("torch", "export") == "export" and extra_for("torch", "eval") == "export"
    assert extra_for("onnxruntime") == "runtime" and extra_for("numpy") is None


def test_rate_intervals_stay_within_zero_and_one() -> None:
    from agents.tournament import RATE_BOUNDS, interval

    never = interval(np.array([0.0, 0.0, 0.25, 0.0]), RATE_BOUNDS)
    always = interval(np.array([1.0, 1.0, 0.75, 1.0]), RATE_BOUNDS)
    assert never.low == 0.0 and 0 < never.high < 1 and always.high == 1.0 and 0 < always.low < 1
    assert interval(np.array([0.0, 0.0, 0.25, 0.0])).low < 0  # a score is not clipped


def test_train_prints_one_line_per_evaluation() -> None:
    pytest.importorskip("stable_baselines3")
    from agents.tournament import Interval
    from train.callbacks import eval_line
    from train.evaluate import EvalResult

    rate = Interval(0.5, None, None)
    results = [
        EvalResult("random", 400, Interval(0.41, 0.35, 0.47), rate, rate, None),  # type: ignore[arg-type]
        EvalResult("greedy", 400, Interval(-0.02, None, None), rate, rate, None),  # type: ignore[arg-type]
    ]
    line = eval_line(150_000, results, 12.4, best=True)
    assert line == "eval at step 150,000: vs random +0.410 [+0.350, +0.470]; vs greedy -0.020 (12 s), new best"


def test_serve_refuses_bad_ports_and_never_claims_a_taken_one(capsys: pytest.CaptureFixture[str]) -> None:
    for port in ("0", "65536", "-1"):
        assert main(["serve", "--port", port]) == 2
        assert f"--port must be 1..65535, got {port}" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--host", "127.0.0.1", "--port", str(port)]) == 2
        captured = capsys.readouterr()
    assert "serving" not in captured.out
    assert f"cannot listen on 127.0.0.1:{port}" in captured.err and "in use" in captured.err


def test_a_missing_torch_names_the_pinned_cpu_build_first() -> None:
    from shithead_env.extras import TORCH_PIN, install_hint

    assert install_hint("torch", "shithead train", "train") == (
        f'shithead train needs torch, which is not installed: pip install "{TORCH_PIN}" && pip install -e ".[train]"'
    )
    setup = (Path(__file__).resolve().parents[2] / "scripts" / "venv.sh").read_text()
    assert f'"{TORCH_PIN}"' in setup  # the set-up script installs the same pin


def test_bare_shithead_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: shithead") and all(name in out for name in ("train", "eval", "play", "serve"))


def test_ctrl_c_is_one_line_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import shithead_env.demo

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(shithead_env.demo, "run", interrupted)
    assert main(["demo"]) == 130
    assert capsys.readouterr().err == "shithead demo: interrupted\n"


def test_hints_name_the_programs_of_the_environment_running_them(tmp_path, monkeypatch):
    """A hint such as `python -m shithead_env.cli evaluate RUN` runs as printed: a .venv not on PATH is named by its
    path."""
    import shutil
    import sys

    from shithead_env.commands import runnable

    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("python", "shithead"):
        (bin_dir / name).write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")  # PATH finds the system's programs
    command = "python -m shithead_env.cli evaluate runs/x"
    assert runnable(command) == f".venv/bin/{command}"
    assert runnable("shithead train --resume runs/x") == ".venv/bin/shithead train --resume runs/x"
    monkeypatch.setattr(shutil, "which", lambda name: str(bin_dir / name))  # the .venv is activated
    assert runnable("shithead train --resume runs/x") == "shithead train --resume runs/x"
    assert runnable(command) == command
