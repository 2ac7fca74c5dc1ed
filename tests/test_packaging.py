"""The project as users install it: presets inside the wheel, engine free of RL/torch imports."""

from __future__ import annotations

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
    assert "agents/__init__.py" in names or any(n.startswith("agents/") for n in names)


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


def test_engine_imports_no_rl_library_or_torch() -> None:
    code = (
        "import sys\n"
        "import shithead_env.game, shithead_env.rules, shithead_env.state, shithead_env.render, shithead_env.scoring\n"
        "bad = sorted(m for m in ('torch', 'gymnasium', 'pettingzoo', 'stable_baselines3', 'agents', 'train')"
        " if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
