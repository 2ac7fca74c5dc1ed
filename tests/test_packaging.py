"""The project as users install it: presets inside the wheel, engine free of RL/torch imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    return next(out.glob("shithead_env-*.whl"))


def test_wheel_ships_every_preset(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for preset in ("dead_last", "online_classic", "pub", "harrogate", "power_deck"):
        assert f"shithead_env/presets/{preset}.yaml" in names
    assert {"agents/__init__.py", "train/__init__.py", "agents/pretrained/registry.json"} <= names


def test_wheel_ships_the_browser_table_and_the_schemas(wheel: Path) -> None:
    """The page is static files inside the package: nothing to build at install time."""
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"agents/web/index.html", "agents/web/app.js", "agents/web/style.css", "agents/web/favicon.svg"} <= names
    for schema in ("view", "response", "error", "game_create", "game_action", "game_state"):
        assert f"agents/protocol/schema/{schema}.schema.json" in names


def test_wheel_declares_the_bot_spec_resolver(wheel: Path) -> None:
    """The single-agent env finds agents.make_bot through this entry point (it imports no bots)."""
    archive = zipfile.ZipFile(wheel)
    (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
    text = archive.read(name).decode()
    assert "[shithead_env.bots]\nagents = agents.base:make_bot" in text


def test_the_page_fetches_nothing_from_elsewhere() -> None:
    """Every script, style and request of the page is a path on the same server (no CDN, no fonts)."""
    import re

    web = ROOT / "agents" / "web"
    for path in web.iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=\"(https?:)?//", text), path.name
        assert not re.search(r"(fetch|import|url)\(\s*[\"'`](https?:)?//", text), path.name


def test_presets_load_from_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import shithead_env, shithead_env.rules as r\n"
        "from shithead_env import PRESETS, load_rules, Game\n"
        f"assert shithead_env.__file__.startswith({str(site)!r}), shithead_env.__file__\n"
        f"assert str(r.presets_dir()).startswith({str(site)!r}), r.presets_dir()\n"
        "for p in PRESETS: Game.new(load_rules(p), 2, seed=0)\n"
        "print('ok')\n"
    )
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


ENGINE_MODULES = ("cards", "actions", "rules", "game", "state", "render", "scoring", "determinize", "events", "extras")


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_engine_module_imports_only_stdlib_numpy_yaml_and_itself(module: str) -> None:
    """The engine layer stands alone: bots and frontends use it without any RL library."""
    import ast

    tree = ast.parse((ROOT / "shithead_env" / f"{module}.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    roots = {name.split(".")[0] for name in imported}
    assert not roots & {"gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "agents", "train"}
    assert roots <= set(sys.stdlib_module_names) | {"numpy", "yaml", "shithead_env"}


def test_importing_the_package_pulls_in_no_torch_or_pettingzoo() -> None:
    code = (
        "import sys, shithead_env\n"
        "bad = sorted(m for m in ('torch', 'pettingzoo', 'gymnasium', 'stable_baselines3', 'sb3_contrib', 'agents',"
        " 'train') if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


RL_LIBRARIES = "loaded = [m for m in ('gymnasium', 'pettingzoo', 'torch') if m in sys.modules]\n"


def run_fresh(code: str) -> str:
    """stdout of ``code`` in a fresh interpreter at the project root (its stderr on failure)."""
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_engine_and_an_onnx_bot_play_without_rl_libraries() -> None:
    """A frontend that only plays (engine, shipped ONNX model) loads no gymnasium, pettingzoo or torch."""
    pytest.importorskip("onnxruntime")
    code = (
        "import sys\n"
        "import numpy as np\n"
        "import shithead_env\n"
        "rng = np.random.default_rng(0)\n"
        "game = shithead_env.Game.new('dead_last', 4, seed=0)\n"
        "while not game.is_over:\n"
        "    legal = game.legal_actions()\n"
        "    game.step(legal[int(rng.integers(len(legal)))])\n"
        + RL_LIBRARIES
        + "import agents.onnx_bot\n"
        "from agents.base import make_bot\n"
        "bot = make_bot('model:agents/pretrained/dead_last_4p')\n"
        "game = shithead_env.Game.new('dead_last', 4, seed=1)\n"
        "while not game.is_over:\n"
        "    game.step(bot.act(game.view(game.current), rng))\n"
        "loaded += [m for m in ('gymnasium', 'pettingzoo', 'torch') if m in sys.modules]\n"
        "print('played', sorted(set(loaded)))\n"
    )
    assert run_fresh(code) == "played []"


@pytest.mark.parametrize("gymnasium_first", [False, True])
def test_gymnasium_make_works_whichever_is_imported_first(gymnasium_first: bool) -> None:
    """``import shithead_env`` registers the env without importing gymnasium (shithead_env/envs/__init__.py)."""
    first, second = ("gymnasium", "shithead_env") if gymnasium_first else ("shithead_env", "gymnasium")
    code = (
        f"import sys, {first}\n"
        "before = 'gymnasium' in sys.modules\n"
        f"import {second}\n"
        "from shithead_env import SINGLE_AGENT_ID\n"
        "env = gymnasium.make(SINGLE_AGENT_ID, opponents='random')\n"
        "env.reset(seed=0)\n"
        "print(before, 'agents' in sys.modules, 'pettingzoo' in sys.modules)\n"
    )
    assert run_fresh(code) == f"{gymnasium_first} False False"


@pytest.mark.parametrize("module", ["__init__", "common", "aec", "single_agent", "parallel", "openspiel"])
def test_the_env_layer_imports_no_bots_or_training(module: str) -> None:
    """Bot spec strings resolve through the shithead_env.bots entry point, not an import of agents."""
    import ast

    tree = ast.parse((ROOT / "shithead_env" / "envs" / f"{module}.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not {name.split(".")[0] for name in imported} & {"agents", "train", "torch"}


def test_a_named_training_config_runs_from_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    """The wheel ships configs/train (train/configs); a config that starts from a shipped checkpoint names the
    extra that installs it, and runs once shithead-env-checkpoints is installed beside the wheel."""
    pytest.importorskip("sb3_contrib")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    assert (site / "train" / "configs" / "quick.yaml").is_file()
    env = {**os.environ, "PYTHONPATH": str(site)}
    code = "import train.config as c\nc.load_config('quick_finetune')\n"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert result.stderr.strip().splitlines()[-1].endswith(
        "dead_last_4p_v2/policy.zip: not installed; it is in shithead-env-checkpoints: "
        'pip install "shithead-env[checkpoints]"'), result.stderr
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(ROOT / "packages" / "checkpoints")], check=True)
    zipfile.ZipFile(next(tmp_path.glob("shithead_env_checkpoints-*.whl"))).extractall(site)
    code = (
        "import train.config as c\n"
        f"assert str(c.CONFIG_DIR).startswith({str(site)!r}), c.CONFIG_DIR\n"
        "assert 'quick' in c.named_configs()\n"
        "start = c.resolve_init(c.load_config('quick_finetune').init_from)\n"
        f"assert start.is_file() and str(start).startswith({str(site)!r}), start\n"
        "from train.trainer import train\n"
        "config = c.load_config('quick', ['total_timesteps=128', 'n_envs=2', 'vec_env=dummy', 'workers=1', "
        "'n_steps=64', 'batch_size=64', 'n_epochs=1', 'eval_every=0', 'final_eval_games=0', 'progress_bar=false', "
        f"'runs_dir={tmp_path / 'runs'}'])\n"
        "print(train(config).timesteps)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "128"


def test_the_wheel_ships_the_bench_suites_schema_and_leaderboard(wheel: Path, tmp_path: Path) -> None:
    """configs/bench travels as agents/bench/suites; the schema and the published leaderboard with it."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "from agents.bench import suite, leaderboard, results\n"
        f"assert str(suite.SUITE_DIR).startswith({str(site)!r}), suite.SUITE_DIR\n"
        "quick = suite.load_suite('quick')\n"
        "assert leaderboard.published_ratings(quick) is not None\n"
        "print(sorted(suite.suite_names()), results.RESULTS_SCHEMA['title'])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['full', 'quick'] Shithead-Bench results (format 1)"


WHEEL_LIMIT = 25_000_000  # bytes: far under the package index's 100 MB refusal, and what a user downloads
PRETRAINED = "agents/pretrained/"


def test_the_wheel_holds_exactly_the_networks_the_registry_assigns_to_it(wheel: Path) -> None:
    """Every network file a default bot loads is in the wheel, and no checkpoint or original is."""
    from agents.registry import MAIN, load_registry

    assert wheel.stat().st_size <= WHEEL_LIMIT, f"{wheel.name}: {wheel.stat().st_size:,} bytes"
    names = set(zipfile.ZipFile(wheel).namelist())
    registry = load_registry()
    files = {PRETRAINED + entry["file"]: entry["package"] for net in registry["networks"] for entry in net["files"]}
    shipped = {name for name in names if name.startswith(PRETRAINED) and name.endswith((".onnx", ".zip"))}
    assert shipped == {name for name, package in files.items() if package == MAIN}
    cards = {f"{PRETRAINED}{net['directory']}/{net['card']}" for net in registry["networks"]}
    assert cards | {PRETRAINED + "registry.json"} <= names
    assert not [name for name in names if name.startswith(("runs/", "out/", "benchmarks/", "packages/"))]


def test_the_checkpoints_and_originals_each_build_under_the_index_limit(tmp_path: Path) -> None:
    """The two other distributions hold every file the registry assigns them, each wheel under 100 MB."""
    pytest.importorskip("hatchling")
    from agents.registry import CHECKPOINTS, ORIGINALS, load_registry

    registry = load_registry()
    for package, folder in ((CHECKPOINTS, "checkpoints"), (ORIGINALS, "originals")):
        out = tmp_path / folder
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                        str(out), str(ROOT / "packages" / folder)], check=True)
        (built,) = out.glob("*.whl")
        assert built.stat().st_size < 100_000_000, f"{built.name}: {built.stat().st_size:,} bytes"
        names = {name for name in zipfile.ZipFile(built).namelist() if name.startswith(PRETRAINED)}
        assert names == {PRETRAINED + e["file"] for net in registry["networks"] for e in net["files"]
                         if e["package"] == package}


PLAY_EVERY_BOT = '''
import sys
import numpy as np
import agents, shithead_env
from agents import make_bot
from shithead_env import PRESETS, Game, load_rules
assert agents.__file__.startswith(sys.prefix) and shithead_env.__file__.startswith(sys.prefix), agents.__file__
def play(bots, rules, n, seed):
    game, rng = Game.new(rules, n, seed=seed), np.random.default_rng(seed)
    while not game.is_over:
        game.step(bots[game.current].act_game(game, game.current, rng))
auto, guided, heuristic = make_bot("model:auto"), make_bot("guided:sims=8"), make_bot("heuristic")
tables = [(p, n) for p in PRESETS for n in range(load_rules(p).min_players, load_rules(p).max_players + 1)]
for rules, n in tables:
    play([auto] * n, rules, n, 0)  # model:auto seats its network at every table
    game = Game.new(rules, n, seed=1)
    guided.act_game(game, game.current, np.random.default_rng(1))  # the value network of every table loads
play([guided, heuristic], "pub", 2, 2)
for level in range(1, 6):
    play([make_bot(f"level:{level}")] + [heuristic] * 2, "dead_last", 3, level)
play([make_bot("lookahead:samples=4"), heuristic], "dead_last", 2, 3)
print("played", len(tables), "tables")
'''


def test_every_shipped_bot_plays_from_the_wheel_installed_in_a_fresh_virtualenv(wheel: Path, tmp_path: Path) -> None:
    """The wheel alone, installed (not editable) into a new virtualenv and run from elsewhere: model:auto at every
    table, guided's value network at every table, level:1..5 and lookahead play, and ``shithead models`` finds every
    file a default bot loads. A network left out of the wheel fails here. The dependencies come from this
    interpreter's site-packages (a .pth line), so nothing is downloaded."""
    import sysconfig

    pytest.importorskip("onnxruntime")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True)
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    played = subprocess.run([str(python), "-I", "-c", PLAY_EVERY_BOT], cwd=tmp_path, env=env, capture_output=True,
                            text=True)
    assert played.returncode == 0, played.stderr
    assert played.stdout.strip() == "played 29 tables"
    listed = subprocess.run([str(venv / "bin" / "shithead"), "models", "--json"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert {row["installed"] for row in rows if row["package"] == "shithead-env"} == {True}
    assert {row["installed"] for row in rows if row["package"] != "shithead-env"} == {False}
