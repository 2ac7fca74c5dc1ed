"""Your own bot at any table: ``py:`` specs (a class, a function, a ``Bot``; by module or file) in ``eval``, ``bench``,
``play`` and the env's opponents, and a Node.js bot over HTTP that ``shithead bench`` rates like the same bot in
Python."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import yaml

from agents import make_bot
from agents.bench.results import bench_results
from agents.bench.run import play_bench
from agents.bench.suite import Suite, Table, cards_digest
from agents.serve import free_port
from agents.simple import GreedyBot
from shithead_env import Game
from shithead_env.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
MY_BOT = "py:examples/bots/my_bot.py:LowestBot"
TIMING = {"ms_per_decision", "card", "bot", "networks"}  # what a bot is, not how it played


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the documented specs name files from the repository's root


def tiny_suite(path: Path | None = None) -> Suite:
    """Four deals of dead_last/2 against random and greedy; written as a suite file at ``path`` when given."""
    table = Table("dead_last", 2, 4, 5, ("random", "greedy"), "")
    suite = Suite("tiny", 1, "four deals of dead_last/2", "greedy", (replace(table, cards_sha256=cards_digest(table)),))
    if path is not None:
        t = suite.tables[0]
        data = {"name": suite.name, "version": 1, "description": suite.description, "anchor": suite.anchor,
                "tables": [{"rules": t.rules, "players": t.players, "deals": t.deals, "seed": t.seed,
                            "opponents": list(t.opponents), "cards_sha256": t.cards_sha256}]}
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return suite


def without_timing(value: object) -> object:
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def rated(spec: str) -> dict:
    suite = tiny_suite()
    return bench_results(suite, spec, play_bench(suite, spec), None)


def test_the_example_bot_plays_legal_moves_to_the_end() -> None:
    bot = make_bot(MY_BOT)
    game = Game.new("pub", 3, seed=4)
    rng = np.random.default_rng(0)
    while not game.is_over:
        action = bot.act_game(game, game.current, rng)
        assert game.is_legal(action)
        game.step(action)


def test_a_function_with_options_a_bot_class_and_a_module_path(tmp_path: Path) -> None:
    (tmp_path / "pick.py").write_text(
        "def nth(view, rng, n=0):\n    legal = view['legal_actions']\n    return legal[min(n, len(legal) - 1)]\n"
    )
    game = Game.new("dead_last", 2, seed=1)
    legal = game.legal_actions()
    assert len(legal) > 1
    assert make_bot(f"py:{tmp_path}/pick.py:nth,n=1").act_game(game, game.current, None) == legal[1]
    assert isinstance(make_bot("py:agents.simple:GreedyBot"), GreedyBot)  # a Bot subclass is built as it is
    for spec, message in [
        (f"py:{tmp_path}/pick.py:nth,n=x", "'n' must be an int, got 'x'"),
        (f"py:{tmp_path}/pick.py:nth,depth=2", r"no option 'depth' \(options: n\)"),
        (f"py:{tmp_path}/pick.py:other", r"has no 'other' \(it has: nth\)"),
        (f"py:{tmp_path}/none.py:nth", "no such file"),
        ("py:no_such_module:Bot", "cannot import 'no_such_module'"),
        ("py:agents.simple", "expected package.module:Name or path/to/file.py:Name"),
        ("py", "needs the bot to load"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_bot(spec)


def test_eval_seats_a_file_bot_in_worker_processes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eval.json"
    argv = ["eval", "--bots", f"{MY_BOT};random", "--games", "4", "--workers", "2", "--no-progress", "--json", str(out)]
    assert main(argv) == 0
    assert MY_BOT in capsys.readouterr().out
    assert json.loads(out.read_text())["bots_by_slot"] == [MY_BOT, "random"]


def test_play_and_the_env_seat_a_file_bot(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--players", "2", "--seed", "1", "--opponents", MY_BOT]) == 0
    assert f"P1 {MY_BOT}" in capsys.readouterr().out
    from shithead_env.envs.single_agent import ShitheadEnv

    env = ShitheadEnv("dead_last", 3, opponents=[MY_BOT, "random"], learner_seat=0)
    _, info = env.reset(seed=3)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # the opponents' moves before and after are the file bot's


def test_bench_rates_a_file_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite_file = tmp_path / "tiny.yaml"
    tiny_suite(suite_file)
    assert main(["bench", MY_BOT, "--suite", str(suite_file), "--no-progress", "--out", str(tmp_path / "out")]) == 0
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["bot"] == MY_BOT and MY_BOT in capsys.readouterr().out


@contextlib.contextmanager
def node_bot() -> str:
    port = free_port()
    process = subprocess.Popen(["node", str(ROOT / "examples" / "bots" / "node_bot.js"), str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{url}/v1/health", timeout=1).close()
                break
            assert process.poll() is None and time.monotonic() < deadline, process.stderr.read().decode()
            time.sleep(0.1)
        yield f"{url}/v1/bots/lowest"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_shithead_bench_rates_the_node_bot_over_http_as_the_same_bot_in_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with node_bot() as url:
        suite_file = tmp_path / "tiny.yaml"
        tiny_suite(suite_file)
        assert main(["bench", url, "--suite", str(suite_file), "--no-progress", "--out", str(tmp_path / "out")]) == 0
        assert "lowest" in capsys.readouterr().out
        served = json.loads((tmp_path / "out" / "results.json").read_text())
        assert without_timing(served) == without_timing(rated(MY_BOT))  # every game, every figure: the same bot
