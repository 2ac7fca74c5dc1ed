"""``kl_coef``: a PPO fine-tune penalised by KL(policy || the network it started from) (issue 20's optional fine-tune
after expert iteration): refused without what it needs, exact in its gradient, kept out of checkpoints, and holding a
run near its start."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from train.config import ConfigError, load_config
from train.envs import make_vec_env
from train.trainer import _model_kwargs, _policy_class, anchor, init_weights, train

TINY = [
    "vec_env=dummy", "workers=1", "n_steps=64", "batch_size=64", "n_epochs=1", "net_arch=[32, 32]",
    "eval_every=0", "final_eval_games=0", "checkpoint_every=128", "progress_bar=false", "num_players=2", "n_envs=2",
]


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny network to fine-tune: 64 steps of PPO."""
    runs = tmp_path_factory.mktemp("runs")
    config = load_config(None, [*TINY, "total_timesteps=64", f"runs_dir={runs}"])
    return train(config).run_dir / "checkpoints" / "last.zip"


@pytest.mark.parametrize(("overrides", "message"), [
    (["kl_coef=0.5"], "kl_coef: the penalty pulls towards init_from's policy"),
    (["kl_coef=0.5", "ent_coef=0", "init_from={start}"], r"kl_coef: needs ent_coef > 0"),
    (["kl_coef=-1"], "kl_coef: -1.0 is below the minimum 0.0"),
])
def test_kl_coef_is_refused_without_what_it_needs(start: Path, overrides: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(None, [*TINY, *(o.format(start=start) for o in overrides)])


def anchored(start: Path, kl_coef: float = 0.5, ent_coef: float = 0.01) -> tuple[MaskablePPO, object]:
    config = load_config(None, [*TINY, f"init_from={start}", f"kl_coef={kl_coef}", f"ent_coef={ent_coef}"])
    venv = make_vec_env(config)
    model = MaskablePPO(_policy_class(config), venv, seed=1, device="cpu", **_model_kwargs(config))
    init_weights(model, start)  # as a new run starts
    anchor(model, config)
    return model, venv


def batch(model: MaskablePPO, size: int = 16) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Observations with a random legal mask (at least one legal action each) and a legal action of each."""
    generator = torch.Generator().manual_seed(3)
    observations = torch.rand(size, model.observation_space.shape[0], generator=generator)
    masks = torch.rand(size, model.action_space.n, generator=generator) < 0.3
    masks[:, 0] = True
    actions = torch.multinomial(masks.float(), 1, generator=generator).squeeze(1)
    return observations, actions, masks


def test_the_penalty_adds_the_kl_gradient_and_leaves_the_entropy_value(start: Path) -> None:
    model, venv = anchored(start)
    try:
        policy = model.policy
        observations, actions, masks = batch(model)
        assert torch.allclose(policy.kl_to_reference(observations, masks), torch.zeros(len(masks)), atol=1e-6)
        weights = [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()]
        with torch.no_grad():  # move the policy away from its anchor
            for parameter in weights:
                parameter.add_(0.3 * torch.randn_like(parameter))

        def gradient(loss: torch.Tensor) -> list[torch.Tensor]:
            return torch.autograd.grad(loss, weights)

        _, _, penalised = policy.evaluate_actions(observations, actions, masks)
        _, _, plain = MaskableActorCriticPolicy.evaluate_actions(policy, observations, actions, masks)  # SB3's own
        kl = policy.kl_to_reference(observations, masks)
        assert float(kl.detach().mean()) > 0.01
        assert torch.allclose(penalised, plain)  # the logged entropy is the policy's own
        # SB3 adds ent_coef * -mean(entropy): the difference is kl_coef * mean(KL) in gradient
        added = [a - b for a, b in zip(gradient(-0.01 * penalised.mean()), gradient(-0.01 * plain.mean()), strict=True)]
        expected = gradient(0.5 * kl.mean())
        assert all(torch.allclose(a, e, atol=1e-6) for a, e in zip(added, expected, strict=True))
        assert set(policy.state_dict()) == set(MaskablePPO.load(start, device="cpu").policy.state_dict())
    finally:
        venv.close()


def test_a_resumed_run_is_anchored_to_init_from_not_to_its_checkpoint(start: Path) -> None:
    model, venv = anchored(start)
    try:
        init = {key: value.clone() for key, value in model.policy.state_dict().items()}
        with torch.no_grad():
            for parameter in model.policy.action_net.parameters():
                parameter.mul_(3.0)  # what training did since
        trained = {key: value.clone() for key, value in model.policy.state_dict().items()}
        config = load_config(None, [*TINY, f"init_from={start}", "kl_coef=0.5"])
        anchor(model, config)
        assert all(torch.equal(value, trained[key]) for key, value in model.policy.state_dict().items())
        assert all(torch.equal(value, init[key]) for key, value in model.policy._reference.state_dict().items())
    finally:
        venv.close()


def test_a_run_with_kl_coef_stays_nearer_its_start_and_logs_the_kl(start: Path, tmp_path: Path) -> None:
    def drift(kl_coef: float) -> float:
        overrides = [*TINY, f"init_from={start}", "total_timesteps=512", "learning_rate=0.01", "n_epochs=4",
                     f"runs_dir={tmp_path / str(kl_coef)}", "seed=5", f"kl_coef={kl_coef}"]
        run = train(load_config(None, overrides)).run_dir
        model, venv = anchored(start)
        try:
            model.policy.load_state_dict(MaskablePPO.load(run / "checkpoints" / "last.zip").policy.state_dict())
            observations, _, masks = batch(model, 256)
            with torch.no_grad():
                return float(model.policy.kl_to_reference(observations, masks).mean())
        finally:
            venv.close()

    anchored_drift, free_drift = drift(100.0), drift(0.0)
    assert anchored_drift < 0.2 * free_drift
    events = list((tmp_path / "100.0").glob("*/tb/ppo_*/events.out.tfevents.*"))
    assert events and b"train/kl_to_init" in events[0].read_bytes()
