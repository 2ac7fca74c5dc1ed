"""The ``PPOConfig`` of a run: RLlib's new API stack, one shared masked module for every policy seat.

Mapping from ``TrainConfig`` (the same fields as the SB3 pipeline, where they exist):

- the rollout ``n_steps * n_envs`` -> ``train_batch_size_per_learner``, counted in env
  steps, which are the learner steps: each env step of ``ShitheadSelfPlayEnv`` is one
  decision of the shared policy (``count_steps_by="agent_steps"`` would count the same,
  but Ray 2.60 then fails on a seat that sampled nothing in an iteration);
- ``n_envs`` over ``env_runners`` -> ``num_envs_per_env_runner``, ``num_env_runners``;
- ``learning_rate`` .. ``lr_final_fraction`` -> ``lr``, a linear schedule over ``total_timesteps``;
- ``batch_size``, ``n_epochs``, ``gamma``, ``gae_lambda``, ``clip_range``, ``ent_coef``,
  ``vf_coef``, ``max_grad_norm`` -> ``minibatch_size``, ``num_epochs``, ``gamma``,
  ``lambda_``, ``clip_param``, ``entropy_coeff``, ``vf_loss_coeff``, ``grad_clip`` (global norm);
- ``net_arch``, ``activation`` -> ``fcnet_hiddens``, ``fcnet_activation``, separate policy
  and value networks (``vf_share_layers=False``).

PPO's KL penalty is off (``use_kl_loss=False``) so the loss is MaskablePPO's:
clipped surrogate, value loss, entropy bonus.
"""

from __future__ import annotations

from typing import Any

from train.config import TrainConfig
from train.rllib.policy import MODULE_ID

ENV_KEYS = ("rules", "num_players", "reward", "opponents", "opponent_share", "snapshot_share",
            "snapshot_deterministic", "max_decisions", "encoding")


def envs_per_runner(config: TrainConfig) -> int:
    """Environments stepped by each env runner (all of them in the driver when ``env_runners`` is 0)."""
    return config.n_envs // max(1, config.env_runners)


def map_to_shared(agent_id: str, episode: Any, **kwargs: Any) -> str:
    """Every seat the env hands to RLlib is played by the one shared module."""
    return MODULE_ID


def ppo_config(config: TrainConfig, restart_env_runners: bool = True) -> Any:
    """The ``PPOConfig`` for ``config`` (not yet built). ``restart_env_runners``: a lost env runner is started again
    (on a cluster, where a node may go); off, a failed one fails the run, as it should on one machine."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from train.rllib.env import ShitheadSelfPlayEnv
    from train.rllib.module import MaskedPPOTorchRLModule

    model = DefaultModelConfig(fcnet_hiddens=list(config.net_arch), fcnet_activation=config.activation,
                               vf_share_layers=False)
    final_lr = config.learning_rate * config.lr_final_fraction
    return (
        PPOConfig()
        .environment(ShitheadSelfPlayEnv, env_config={k: getattr(config, k) for k in ENV_KEYS},
                     disable_env_checking=True)
        .env_runners(num_env_runners=config.env_runners, num_envs_per_env_runner=envs_per_runner(config),
                     rollout_fragment_length="auto", num_cpus_per_env_runner=1)
        .multi_agent(policies={MODULE_ID}, policy_mapping_fn=map_to_shared, policies_to_train=[MODULE_ID])
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={MODULE_ID: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model)}))
        .fault_tolerance(restart_failed_env_runners=restart_env_runners)
        .learners(num_learners=0)
        .training(
            lr=[[0, config.learning_rate], [config.total_timesteps, final_lr]],
            train_batch_size_per_learner=config.n_steps * config.n_envs,
            minibatch_size=config.batch_size,
            num_epochs=config.n_epochs,
            gamma=config.gamma,
            lambda_=config.gae_lambda,
            clip_param=config.clip_range,
            entropy_coeff=config.ent_coef,
            vf_loss_coeff=config.vf_coef,
            grad_clip=config.max_grad_norm or None,
            grad_clip_by="global_norm",
            use_kl_loss=False,
        )
        .debugging(seed=config.seed, log_level="ERROR")
    )
