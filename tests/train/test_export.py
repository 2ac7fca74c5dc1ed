"""``shithead export`` and the ONNX bot: the card, version checks, torch/ONNX parity, a torch-free runtime."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.base import make_bot
from agents.onnx_bot import CARD_FILE, MODEL_FILE, ModelVersionError, OnnxBot, masked_probabilities
from shithead_env import (
    ACTION_LAYOUT_VERSION,
    ENCODING_VERSION,
    ENCODINGS,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    Game,
    action_mask,
    encode_observation,
    load_rules,
)
from shithead_env.cli import main as cli_main
from tests.helpers import random_positions

ROOT = Path(__file__).resolve().parents[2]
PRETRAINED = ROOT / "agents" / "pretrained" / "dead_last_4p"
PARITY_STATES = 1000


def _tiny_run(run_dir: Path, version: int = ENCODING_VERSION, size: int | None = None) -> Path:
    """A run directory holding an untrained MaskablePPO (spread-out logits) reading encoding ``version``
    (or observations of ``size`` values), and its config."""
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO

    encoding = ENCODINGS[version]
    box = gymnasium.spaces.Box(encoding.low, encoding.high, dtype=np.float32)
    if size is not None:
        box = gymnasium.spaces.Box(0.0, 1.0, (size,), dtype=np.float32)

    class Spaces(gymnasium.Env):
        observation_space = box
        action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)

    model = MaskablePPO("MlpPolicy", Spaces(), policy_kwargs={"net_arch": [32, 32]}, seed=0, device="cpu")
    with torch.no_grad():  # an untrained actor's logits are nearly equal; spread them so argmax is meaningful
        model.policy.action_net.weight.mul_(300.0)
    (run_dir / "best").mkdir(parents=True)
    model.save(run_dir / "best" / "model.zip")
    (run_dir / "config.yaml").write_text("rules: dead_last\nnum_players: 4\nseed: 0\nnet_arch: [32, 32]\n")
    final = {"checkpoint": "best/model.zip", "results": [{"opponent": "random", "score": 0.0}]}
    (run_dir / "final_eval.json").write_text(json.dumps(final))
    (run_dir / "best" / "eval.json").write_text(json.dumps({"step": 123, "score": 0.0}))
    return run_dir


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(run directory, export directory) made through the CLI."""
    base = tmp_path_factory.mktemp("export")
    run_dir = _tiny_run(base / "run")
    out = base / "bot"
    assert cli_main(["export", "--checkpoint", str(run_dir), "--out", str(out)]) == 0
    return run_dir, out


def _torch_logits(policy: object, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The reference: sb3-contrib's masked distribution logits, as MaskablePPO computes them when it acts."""
    import torch

    with torch.no_grad():
        distribution = policy.get_distribution(torch.as_tensor(observations), action_masks=masks)  # type: ignore[attr-defined]
        return distribution.distribution.logits.numpy()


def _real_states(count: int, seed: int = 0) -> list[Game]:
    """Copies of positions where a seat must decide, from real 4-player dead_last games between random bots."""
    positions = random_positions(load_rules("dead_last"), 4, seed * 10_000, games=None, rng=np.random.default_rng(seed))
    return [game.copy() for game in itertools.islice((g for g in positions if not g.is_over), count)]


def test_card_describes_the_model(exported: tuple[Path, Path]) -> None:
    run_dir, out = exported
    card = json.loads((out / CARD_FILE).read_text())
    assert card["name"] == "bot"
    assert card["rules"] == ["dead_last"] and card["players"] == [4]
    assert card["encoding_version"] == ENCODING_VERSION
    assert card["action_layout_version"] == ACTION_LAYOUT_VERSION
    assert card["observation_size"] == OBSERVATION_SIZE and card["num_actions"] == NUM_ACTIONS
    assert f"[batch, {OBSERVATION_SIZE}]" in card["model"]["inputs"]["observation"]
    assert card["training"]["checkpoint"] == str(run_dir / "best" / "model.zip")
    assert card["training"]["net_arch"] == [32, 32]
    assert card["training"]["step"] == 123
    assert card["evaluation"]["results"] == [{"opponent": "random", "score": 0.0}]
    import onnx

    graph = onnx.load(str(out / MODEL_FILE)).graph
    assert [i.name for i in graph.input] == ["observation", "action_mask"]
    assert [o.name for o in graph.output] == ["masked_logits", "action"]


def test_parity_with_torch_policy_on_real_states(exported: tuple[Path, Path]) -> None:
    """ONNX and torch pick the same action and agree on the logits (1e-4) on 1,000 real states."""
    from train.policy_bot import PolicyActor, load_policy

    run_dir, out = exported
    policy = load_policy(run_dir / "best" / "model.zip")
    actor = PolicyActor(policy)  # the torch policy bot of train/
    bot = make_bot(f"model:{out}")
    assert isinstance(bot, OnnxBot)
    states = _real_states(PARITY_STATES)
    observations = np.stack([encode_observation(g, g.current) for g in states])
    masks = np.stack([action_mask(g, g.current) for g in states]).astype(bool)
    onnx_logits, onnx_actions = bot.run(observations, masks)
    torch_logits = _torch_logits(policy, observations, masks)
    rng = np.random.default_rng(0)
    torch_actions = [actor.choose(o, m, rng) for o, m in zip(observations, masks, strict=True)]

    assert np.array_equal(onnx_logits <= -1e7, ~masks)  # illegal exactly where masked
    legal_diff = np.abs(np.where(masks, onnx_logits - torch_logits, 0.0)).max()
    assert legal_diff < 1e-4, legal_diff
    assert np.array_equal(onnx_actions, torch_logits.argmax(axis=1))
    assert np.array_equal(onnx_actions, torch_actions)
    for game, expected in zip(states, onnx_actions, strict=True):  # the view path (determinize) decides the same
        assert bot.act(game.view(game.current), rng).index == expected
        assert bot.act_game(game, game.current, rng).index == expected
    assert np.allclose(masked_probabilities(onnx_logits).sum(axis=1), 1.0)


def test_refuses_other_versions(exported: tuple[Path, Path], tmp_path: Path) -> None:
    _, out = exported
    for key in ("encoding_version", "action_layout_version"):
        copy = tmp_path / key
        copy.mkdir()
        (copy / MODEL_FILE).write_bytes((out / MODEL_FILE).read_bytes())
        card = json.loads((out / CARD_FILE).read_text())
        card[key] = 99
        (copy / CARD_FILE).write_text(json.dumps(card))
        with pytest.raises(ModelVersionError, match=rf"{key} = 99.*{key} = 1"):
            make_bot(f"model:{copy}")
    with pytest.raises(FileNotFoundError, match="not an exported model directory"):
        make_bot(f"model:{tmp_path / 'nowhere'}")


def _copy_with_card(out: Path, directory: Path, **changes: object) -> Path:
    directory.mkdir()
    (directory / MODEL_FILE).write_bytes((out / MODEL_FILE).read_bytes())
    card = {**json.loads((out / CARD_FILE).read_text()), **changes}
    (directory / CARD_FILE).write_text(json.dumps(card))
    return directory


def test_refuses_a_size_that_does_not_match_the_version(exported: tuple[Path, Path], tmp_path: Path) -> None:
    _, out = exported
    wrong = _copy_with_card(out, tmp_path / "size", observation_size=ENCODINGS[1].size)
    with pytest.raises(ModelVersionError, match=r"observation_size = 774 does not match encoding_version = 2"):
        make_bot(f"model:{wrong}")
    unknown = _copy_with_card(out, tmp_path / "version", encoding_version="2")
    with pytest.raises(ModelVersionError, match=r"encoding_version = '2', which this runtime does not know"):
        make_bot(f"model:{unknown}")
    # A consistent card for another version than the graph's input: the graph's own width gives it away.
    other = _copy_with_card(out, tmp_path / "graph", encoding_version=1, observation_size=ENCODINGS[1].size)
    with pytest.raises(ModelVersionError, match=rf"graph takes observations of {OBSERVATION_SIZE} values"):
        make_bot(f"model:{other}")


def test_a_version_1_policy_exports_a_version_1_card_and_is_fed_version_1(tmp_path: Path) -> None:
    """A checkpoint is exported and played in the version it was trained on, whatever the current one."""
    from train.export import export
    from train.policy_bot import PolicyBot, load_policy, policy_encoding

    run_dir = _tiny_run(tmp_path / "run", version=1)
    out = export(run_dir, tmp_path / "bot")
    card = json.loads((out / CARD_FILE).read_text())
    assert (card["encoding_version"], card["observation_size"]) == (1, 774)
    assert "[batch, 774]" in card["model"]["inputs"]["observation"]
    policy = load_policy(run_dir / "best" / "model.zip")
    assert policy_encoding(policy) is ENCODINGS[1]
    onnx_bot, torch_bot = make_bot(f"model:{out}"), PolicyBot(str(run_dir / "best" / "model.zip"))
    assert onnx_bot.encoding is ENCODINGS[1] and torch_bot.actor.encoding is ENCODINGS[1]
    rng = np.random.default_rng(0)
    for game in _real_states(40, seed=3):
        seat = game.current
        expected = int(onnx_bot.run(encode_observation(game, seat, 1)[None], action_mask(game, seat)[None])[1][0])
        assert onnx_bot.act(game.view(seat), rng).index == expected
        assert torch_bot.act_game(game, seat, rng).index == expected


def test_export_refuses_a_policy_of_no_known_encoding(tmp_path: Path) -> None:
    from train.export import export

    run_dir = _tiny_run(tmp_path / "run", size=775)
    with pytest.raises(ValueError, match=r"match no encoding version: no observation encoding has size 775"):
        export(run_dir, tmp_path / "bot")


def test_policy_encoding_reads_the_public_part_of_a_privileged_policy() -> None:
    """A privileged critic's policy sees more than the actor is fed: ``mlp_extractor.public_dim`` says how much."""
    from types import SimpleNamespace

    import gymnasium

    from train.policy_bot import policy_encoding

    wide = gymnasium.spaces.Box(0.0, 1.0, (OBSERVATION_SIZE + 500,), dtype=np.float32)
    privileged = SimpleNamespace(observation_space=wide, mlp_extractor=SimpleNamespace(public_dim=774))
    assert policy_encoding(privileged) is ENCODINGS[1]
    plain = SimpleNamespace(observation_space=gymnasium.spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,)), mlp_extractor=None)
    assert policy_encoding(plain) is ENCODINGS[ENCODING_VERSION]
    module = SimpleNamespace(observation_space=gymnasium.spaces.Dict(
        {"observation": gymnasium.spaces.Box(0.0, 1.0, (774,)), "action_mask": gymnasium.spaces.MultiBinary(139)}
    ))  # an RLlib module's dict space  # fmt: skip
    assert policy_encoding(module) is ENCODINGS[1]
    with pytest.raises(ValueError, match=f"no observation encoding has size {OBSERVATION_SIZE + 500}"):
        policy_encoding(SimpleNamespace(observation_space=wide))


TORCH_FREE = """
import sys
import numpy as np
from agents.base import make_bot
from shithead_env import Game, load_rules
bot = make_bot("model:" + sys.argv[1])
rng = np.random.default_rng(0)
game = Game.new(load_rules("dead_last"), 4, seed=3)
while not game.is_over:
    game.step(bot.act(game.view(game.current), rng))
heavy = sorted(m for m in ("torch", "stable_baselines3", "sb3_contrib") if m in sys.modules)
print("heavy:", heavy)
sys.exit(1 if heavy else 0)
"""


def test_onnx_bot_runs_without_torch(exported: tuple[Path, Path]) -> None:
    _, out = exported
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", TORCH_FREE, str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "heavy: []" in done.stdout


@pytest.mark.skipif(not (PRETRAINED / "policy.zip").is_file(), reason="no pretrained checkpoint in the repo")
def test_shipped_bot_matches_its_checkpoint() -> None:
    """The shipped dead_last_4p export agrees with the checkpoint it was exported from."""
    from train.policy_bot import load_policy

    policy = load_policy(PRETRAINED / "policy.zip")
    bot = make_bot("model:agents/pretrained/dead_last_4p")
    assert bot.encoding.version == 1, "the shipped model reads version 1 and is fed it"
    assert (PRETRAINED / MODEL_FILE).stat().st_size < 5_000_000
    states = _real_states(300, seed=1)
    observations = np.stack([encode_observation(g, g.current, 1) for g in states])
    masks = np.stack([action_mask(g, g.current) for g in states]).astype(bool)
    onnx_logits, onnx_actions = bot.run(observations, masks)
    torch_logits = _torch_logits(policy, observations, masks)
    assert np.abs(np.where(masks, onnx_logits - torch_logits, 0.0)).max() < 1e-4
    assert np.array_equal(onnx_actions, torch_logits.argmax(axis=1))


def test_export_errors_are_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["export", "--checkpoint", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert "best/model.zip" in capsys.readouterr().err


def test_a_checkpoint_outside_its_run_says_which_tables_to_pass(
    exported: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir, _ = exported
    alone = tmp_path / "model.zip"
    shutil.copyfile(run_dir / "best" / "model.zip", alone)
    assert cli_main(["export", "--checkpoint", str(alone), "--out", str(tmp_path / "out")]) == 2
    assert (f"{alone}: no run config.yaml beside or above it to read its tables from; say which tables the bot is "
            "made for: --tables PRESET:N[,N...] (e.g. --tables dead_last:4) or --rules PRESET --players N"
            ) in capsys.readouterr().err
    assert cli_main(["export", "--checkpoint", str(alone), "--out", str(tmp_path / "out"), "--rules", "pub",
                     "--players", "3"]) == 0  # fmt: skip
    assert json.loads((tmp_path / "out" / "bot.json").read_text())["tables"] == {"pub": [3]}


def test_sampling_bot_plays_legal_actions(exported: tuple[Path, Path]) -> None:
    _, out = exported
    bot = make_bot(f"model:{out},sample=true")
    rng = np.random.default_rng(0)
    states = _real_states(200, seed=2)
    chosen = [bot.act_game(g, g.current, rng) for g in states]
    assert all(a in g.legal_actions() for a, g in zip(chosen, states, strict=True))
    argmax = [bot.run(encode_observation(g, g.current)[None], action_mask(g, g.current)[None])[1][0] for g in states]
    assert any(a.index != i for a, i in zip(chosen, argmax, strict=True))  # it does sample


def test_harness_loads_the_model_by_path(exported: tuple[Path, Path]) -> None:
    from agents.tournament import TournamentConfig, run_tournament

    _, out = exported
    spec = f"model:{out}"
    summary, _ = run_tournament(TournamentConfig("dead_last", (spec, "random", "random", "random"), 8), workers=1)
    assert summary.games == 8 and any(b.spec == spec for b in summary.bots)


def test_a_missing_path_or_a_file_that_is_no_checkpoint_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shithead_env.cli import main

    assert main(["export", "--checkpoint", str(tmp_path / "nope.zip"), "--out", str(tmp_path / "out")]) == 2
    missing = tmp_path / "nope.zip"
    assert capsys.readouterr().err.strip() == f"shithead export: error: {missing}: no such file or directory"
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    assert main(["export", "--checkpoint", str(junk), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a MaskablePPO checkpoint" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()
