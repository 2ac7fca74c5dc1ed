"""The Ray RLlib backend: the self-play env adapter, the masked module, config checks, and one real run on a
local multi-process Ray (two env runners) that is checkpointed, resumed, evaluated and exported."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from itertools import islice
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="needs the rllib extra")
torch = pytest.importorskip("torch")

from ray.rllib.core.columns import Columns  # noqa: E402

from agents import make_bot  # noqa: E402
from shithead_env import action_mask, encode_observation  # noqa: E402
from shithead_env.scoring import final_scores  # noqa: E402
from tests.helpers import random_positions  # noqa: E402
from train.config import ConfigError, load_config  # noqa: E402
from train.rllib.algo import ppo_config  # noqa: E402
from train.rllib.env import ShitheadSelfPlayEnv  # noqa: E402
from train.rllib.league import LeagueSampler  # noqa: E402
from train.rllib.module import ACTION_MASK, OBSERVATION, MaskedPPOTorchRLModule  # noqa: E402
from train.rllib.policy import (  # noqa: E402
    MODULE_ID,
    ModuleActor,
    RLlibPolicyBot,
    load_module,
)

ENV = {"rules": "dead_last", "num_players": 4, "reward": "placement", "opponents": {"random": 1.0}}


def play(env: ShitheadSelfPlayEnv, seed: int, rng: np.random.Generator) -> dict[str, object]:
    """One game with uniformly random legal actions; what the env returned, checked step by step."""
    obs, _ = env.reset(seed=seed)
    returns: dict[str, float] = {}
    trace = []
    while True:
        assert len(obs) == 1, "one policy seat acts at a time"
        (agent, o), = obs.items()
        assert agent == env.aec.agent_selection and agent not in env.opponents
        legal = np.flatnonzero(o[ACTION_MASK])
        action = int(rng.choice(legal))
        trace.append((agent, action))
        obs, rewards, terminateds, truncateds, _ = env.step({agent: action})
        for a, r in rewards.items():
            returns[a] = returns.get(a, 0.0) + r
        if terminateds["__all__"] or truncateds["__all__"]:
            return {"returns": returns, "trace": trace, "done": set(obs), "opponents": dict(env.opponents)}


def test_policy_seat_returns_sum_to_their_final_scores() -> None:
    env = ShitheadSelfPlayEnv({**ENV, "opponent_share": 0.5})
    rng = np.random.default_rng(0)
    kinds = set()
    for seed in range(6):
        game = play(env, seed, rng)
        scores = final_scores(env.game)
        policy_seats = [a for a in env.possible_agents if a not in game["opponents"]]
        assert game["done"] == set(policy_seats), "every policy seat gets its last observation at the end"
        for agent in policy_seats:
            assert game["returns"][agent] == pytest.approx(scores[env.aec.agent_name_mapping[agent]])
        kinds.add(len(game["opponents"]))
    assert len(kinds) > 1, "the number of bot seats varies from game to game"


def test_without_opponents_every_seat_is_the_policy() -> None:
    env = ShitheadSelfPlayEnv({**ENV, "opponent_share": 0.0})
    game = play(env, 3, np.random.default_rng(1))
    assert not game["opponents"] and {a for a, _ in game["trace"]} == set(env.possible_agents)


def test_same_seed_same_games_and_runners_deal_differently() -> None:
    def first_deal(worker: int, seed: int) -> list[list[int]]:
        from ray.rllib.env.env_context import EnvContext

        env = ShitheadSelfPlayEnv(EnvContext({**ENV, "opponent_share": 0.5}, worker_index=worker))
        env.reset(seed=seed)
        return [list(hand) for hand in env.game.hands]

    a = play(ShitheadSelfPlayEnv({**ENV, "opponent_share": 0.5}), 7, np.random.default_rng(2))
    b = play(ShitheadSelfPlayEnv({**ENV, "opponent_share": 0.5}), 7, np.random.default_rng(2))
    assert a["trace"] == b["trace"] and a["returns"] == b["returns"]
    assert first_deal(1, 5) == first_deal(1, 5)
    assert first_deal(1, 5) != first_deal(2, 5), "env runners share a seed but not their deals"


def test_step_refuses_an_action_for_a_seat_not_to_act() -> None:
    env = ShitheadSelfPlayEnv({**ENV, "opponent_share": 0.0})
    obs, _ = env.reset(seed=0)
    other = next(a for a in env.possible_agents if a not in obs)
    with pytest.raises(ValueError, match=other):
        env.step({other: 0})


def _module(hidden: int = 16) -> MaskedPPOTorchRLModule:
    config = load_config(None, ["backend=rllib", f"net_arch=[{hidden}]", "env_runners=0"])
    spec = ppo_config(config).get_multi_rl_module_spec(env=ShitheadSelfPlayEnv(ENV))
    return spec.rl_module_specs[MODULE_ID].build()


def _states(n: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) of the seat to act, along random games."""
    playing = (game for game in random_positions("dead_last", 4, seed, games=None) if not game.is_over)
    return [(encode_observation(game, game.current), action_mask(game, game.current)) for game in islice(playing, n)]


def test_the_module_never_samples_an_illegal_action() -> None:
    module = _module()
    with torch.no_grad():  # make the illegal actions the most likely ones before masking
        module.pi.net.mlp[-1].bias.add_(50.0)
    states = _states(64)
    obs = torch.from_numpy(np.stack([s[0] for s in states]))
    mask = torch.from_numpy(np.stack([s[1] for s in states]))
    with torch.no_grad():
        for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
            logits = forward({Columns.OBS: {OBSERVATION: obs, ACTION_MASK: mask}})[Columns.ACTION_DIST_INPUTS]
            dist = torch.distributions.Categorical(logits=logits)
            samples = dist.sample((200,))
            assert bool(mask.gather(1, samples.T).all()), forward.__name__
            assert float(dist.probs[~mask.bool()].max()) == 0.0
    # the actor path used by bots and the export gives the same logits on legal actions
    with torch.no_grad():
        raw = module.actor_logits(obs)
    assert torch.equal(raw[mask.bool()], logits[mask.bool()])


def test_the_module_refuses_an_observation_without_a_mask() -> None:
    module = _module()
    with pytest.raises(ValueError, match="action_mask"):
        module.forward_inference({Columns.OBS: torch.zeros((1, 774))})


def test_a_snapshot_plays_the_seats_the_sampler_gives_it() -> None:
    env = ShitheadSelfPlayEnv({**ENV, "opponent_share": 1.0, "snapshot_share": 1.0})
    snapshot = RLlibPolicyBot.from_module(_module())
    env.sampler.set_pool(["snapshot_0000000100"], [1.0], {"snapshot_0000000100": snapshot})
    game = play(env, 11, np.random.default_rng(3))
    names = {name for name, _ in game["opponents"].values()}
    assert names == {"snapshot_0000000100"} and len(game["opponents"]) == 3


def test_league_sampler_falls_back_on_bots_without_snapshots() -> None:
    sampler = LeagueSampler({"greedy": 1.0}, share=1.0, seed=0)
    assert [name for name, _ in sampler.draw(3)] == ["greedy"] * 3


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        (["env_runners=3", "n_envs=8"], "env_runners"),
        (["env_runners=-1"], "env_runners"),
        (["opponent_share=1.5"], "opponent_share"),
        (["target_kl=0.02"], "target_kl"),
        (["league=true"], "league"),
        (["league=true", "opponent_share=0.5", "snapshot_scheme=loss"], "snapshot_scheme"),
        (["backend=tf"], "backend"),
    ],
)
def test_rllib_config_errors_name_the_key(overrides: list[str], key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        load_config(None, ["backend=rllib", *overrides])


def test_the_shipped_rllib_configs_load() -> None:
    for name in ("rllib_quick", "rllib_selfplay"):
        config = load_config(name)
        assert config.backend == "rllib" and config.n_envs % max(1, config.env_runners) == 0


# ---------------------------------------------------------------- a real run on a local multi-process Ray
RUN = [
    "backend=rllib", "rules=dead_last", "num_players=4", "seed=0", "total_timesteps=1024", "n_envs=4",
    "env_runners=2", "n_steps=128", "batch_size=256", "n_epochs=1", "net_arch=[32]", "opponent_share=0.5",
    "opponents={random: 1.0}", "league=true", "snapshot_every=512", "snapshot_share=1.0", "eval_every=512",
    "eval_opponents=[random]", "eval_games=8", "final_eval_games=8", "checkpoint_every=512", "progress_bar=false",
    "name=rllib_test",
]


@pytest.fixture(scope="module")
def local_ray() -> object:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


def _check_two_runner_processes(config_overrides: list[str]) -> None:
    """Two env runner actors in their own processes, both stepping games with the pushed league."""
    from train.league import LeaguePool
    from train.rllib.league import add_snapshot, push_pool

    config = load_config(None, config_overrides)
    algo = ppo_config(config).build_algo()
    try:
        group = algo.env_runner_group
        assert group.num_healthy_remote_workers() == 2
        pids = group.foreach_env_runner(lambda runner: os.getpid(), local_env_runner=False)
        assert len(set(pids)) == 2 and os.getpid() not in pids
        import tempfile

        with tempfile.TemporaryDirectory() as league:
            pool = LeaguePool(league)
            add_snapshot(pool, algo.get_module(MODULE_ID), 0)
            push_pool(algo, pool, deterministic=False)
        pools = group.foreach_env_runner(
            lambda runner: [e.unwrapped.sampler.names for e in runner.env.envs], local_env_runner=False)
        assert pools == [[["snapshot_0000000000"]] * 2] * 2
        sampled = group.foreach_env_runner(
            lambda runner: sum(len(e) for e in runner.sample(num_timesteps=64)), local_env_runner=False)
        assert all(n >= 64 for n in sampled)
    finally:
        algo.stop()


def test_a_run_on_two_env_runners_resumes_and_exports_with_parity(
    local_ray: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from train.export import export
    from train.rllib.trainer import checkpoint_steps, train

    _check_two_runner_processes(RUN)
    monkeypatch.chdir(tmp_path)  # runs_dir is relative, as with the CLI's default
    result = train(load_config(None, RUN))
    run = result.run_dir
    assert not run.is_absolute()
    assert result.timesteps >= 1024 and checkpoint_steps(run / "checkpoints" / "last") == result.timesteps
    assert (run / "best" / "checkpoint").is_dir() and json.loads((run / "best" / "eval.json").read_text())["step"]
    assert len((run / "eval.csv").read_text().splitlines()) >= 3  # header + two evaluations
    pool = json.loads((run / "league" / "pool.json").read_text())
    assert len(pool["snapshots"]) >= 2
    assert json.loads((run / "final_eval.json").read_text())["checkpoint"] == "best/checkpoint"

    # resume on the driver alone (env runners are not fixed by a run): the step count and the pool carry on
    resumed = train(resume=run, overrides=["total_timesteps=1536", "env_runners=0"])
    assert resumed.run_dir == run and resumed.timesteps >= 1536
    assert checkpoint_steps(run / "checkpoints" / "last") == resumed.timesteps
    assert (run / f"config-until-{result.timesteps}.yaml").is_file()

    # the export plays like the RLlib module, to 1e-4, and is a bot of the harness
    out = export(run, tmp_path / "bot")
    card = json.loads((out / "bot.json").read_text())
    assert card["training"]["run"] == run.name and card["training"]["backend"] == "rllib"
    assert card["rules"] == ["dead_last"] and card["players"] == [4]
    _check_parity(run / "best" / "checkpoint", out)


def _check_parity(checkpoint: Path, out: Path) -> None:
    """ONNX Runtime's masked log-probabilities and actions against the module's own masked forward pass."""
    from agents.onnx_bot import OnnxBot

    module = load_module(checkpoint)
    states = _states(500, seed=5)
    obs = np.stack([s[0] for s in states])
    mask = np.stack([s[1] for s in states])
    with torch.no_grad():
        logits = module.forward_inference(
            {Columns.OBS: {OBSERVATION: torch.from_numpy(obs), ACTION_MASK: torch.from_numpy(mask)}}
        )[Columns.ACTION_DIST_INPUTS]
        expected = torch.log_softmax(logits, dim=-1).numpy()
    onnx_logits, onnx_actions = OnnxBot(str(out)).run(obs, mask)
    legal = mask.astype(bool)
    assert np.abs(onnx_logits[legal] - expected[legal]).max() < 1e-4
    assert onnx_logits[~legal].max() < -1e7  # -1e8, renormalised
    top2 = np.sort(np.where(legal, expected, -np.inf), axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-4
    assert (onnx_actions[clear] == expected.argmax(axis=1)[clear]).all()
    actor = ModuleActor(module)
    for i in np.flatnonzero(clear)[:50]:
        assert actor.choose(obs[i], mask[i], np.random.default_rng(0)) == onnx_actions[i]
    assert make_bot(f"rllib:{checkpoint}").actor.deterministic


def test_same_seed_same_weights_when_sampling_in_the_driver(local_ray: object) -> None:
    config = load_config(None, [*RUN, "env_runners=0", "league=false"])

    def weights() -> list[np.ndarray]:
        algo = ppo_config(config).build_algo()
        try:
            algo.train()
            return [p.detach().numpy().copy() for p in algo.get_module(MODULE_ID).parameters()]
        finally:
            algo.stop()

    first, second = weights(), weights()
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_each_trainer_refuses_the_other_backend() -> None:
    from train.rllib.trainer import train as train_rllib
    from train.trainer import train as train_sb3

    with pytest.raises(ConfigError, match="backend"):
        train_sb3(load_config(None, ["backend=rllib"]))
    with pytest.raises(ConfigError, match="backend"):
        train_rllib(load_config(None, []))


def test_train_cli_refuses_an_address_for_sb3(capsys: pytest.CaptureFixture[str]) -> None:
    from shithead_env.cli import main

    assert main(["train", "--config", "quick", "--address", "auto"]) == 2
    assert "--address auto" in capsys.readouterr().err


# Ray's raylet warns, every 10 s, while the disk holding its session is over 95% full (as a CI machine's may be).
FULL_DISK_NOTE = re.compile(r"\S*\(raylet\)\S* [^\n]*?file_system_monitor\.cc:[^\n]*?spilling is required\.")


def test_a_local_rllib_run_prints_its_bar_and_no_ray_internals(tmp_path: Path) -> None:
    """`shithead train` on a local Ray: stderr holds the progress bar, drawn to its end once, and none of Ray's notes
    on its own internals (deprecations inside RLlib, the actor-restart caveat of ray-project/ray#53727)."""
    overrides = ["total_timesteps=600", "n_envs=4", "env_runners=2", "n_steps=64", "batch_size=128", "n_epochs=1",
                 "net_arch=[32]", "eval_every=0", "final_eval_games=0", "progress_bar=true", f"runs_dir={tmp_path}"]
    command = [str(Path(sys.executable).parent / "shithead"), "train", "--config", "rllib_quick"]
    for override in overrides:
        command += ["--override", override]
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=400, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    stderr = FULL_DISK_NOTE.sub("", done.stderr)  # the machine's state, not Ray's internals
    lines = [line for line in stderr.replace("\r", "\n").splitlines() if line.strip()]
    assert lines and all("step" in line and "|" in line for line in lines), lines  # the bar's drawings alone
    steps = int(done.stdout.split("trained ")[1].split()[0])
    assert sum(f"{steps}/{steps}" in line for line in lines) == 1, lines
