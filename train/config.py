"""The one typed training configuration: YAML file + ``key=value`` overrides, validated field by field.

Every field is documented in its ``metadata["doc"]``; ``python -m train.config``
prints the table that docs/training.md carries. A YAML file may hold any
subset of the fields (the rest keep their defaults); an unknown key, a value
of the wrong type, a value out of range, an unknown preset or an unknown /
malformed bot spec is refused with a ``ConfigError`` that names the key.
"""

from __future__ import annotations

import argparse
import dataclasses
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from shithead_env import ENCODING_VERSION, ENCODINGS, PRESETS, RulesError, load_rules
from shithead_env.phases import STAGES
from shithead_env.scoring import SCHEMES

# The directory holding the packages (the checkout, or site-packages): ``init_from`` paths are relative to it.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
# The named training configs: inside the wheel (pyproject's force-include), else the checkout's configs/train.
_PACKAGED_CONFIGS = Path(__file__).resolve().parent / "configs"
CONFIG_DIR = _PACKAGED_CONFIGS if _PACKAGED_CONFIGS.is_dir() else PROJECT_ROOT / "configs" / "train"
VEC_ENVS = ("auto", "subproc", "dummy")
SNAPSHOT_SCHEMES = ("latest", "uniform", "loss")
BACKENDS = ("sb3", "rllib", "expert")
ACTIVATIONS = ("tanh", "relu")
DEVICES = ("cpu", "cuda", "auto")


class ConfigError(ValueError):
    """A training config that cannot be run; the message names the offending key."""


def _f(default: Any, doc: str, **checks: Any) -> Any:
    """A dataclass field (immutable default) with its documentation and range / choice checks in the metadata."""
    return field(default=default, metadata={"doc": doc, **checks})


@dataclass
class TrainConfig:
    """Everything one training run needs; the resolved copy is saved as ``config.yaml`` in the run directory."""

    # --- the table
    rules: str = _f("dead_last", "rules preset the learner plays", choices=PRESETS)
    num_players: int = _f(4, "players at the table (the learner + opponents); checked against the preset", min=2)
    tables: dict[str, list[int]] = field(
        default_factory=dict,
        metadata={"doc": "several tables at once, preset -> player counts (replaces rules and num_players): "
                         "environment i plays table i mod the number of tables ({} = the one table above)"},
    )
    reward: str = _f("placement", "zero-sum end-of-game score paid to the learner (shithead_env.scoring)",
                     choices=SCHEMES)
    max_decisions: int = _f(600, "cap on a game's decisions (all seats): the learner's episode ends truncated "
                                 "(reward 0, bootstrapped from the critic) at its first step past it, and evaluation "
                                 "games end there with the places left split; bot games that finish take at most "
                                 "~400 (docs/training.md), looping ones run to the rules' 5,000 (0 = the rules' cap)",
                            min=0)
    # --- what the networks read
    encoding: int = _f(ENCODING_VERSION, "observation encoding version the policy reads (docs/observation.md)",
                       choices=tuple(ENCODINGS))
    privileged_critic: bool = _f(False, "the value network also reads every hand, face-down card and the draw pile "
                                        "(train/networks.py); the policy and the export read only the observation")
    # --- the run
    seed: int = _f(0, "seed of everything: torch, numpy, every worker's deals and opponents", min=0)
    total_timesteps: int = _f(200_000, "learner decisions to train for (counted over all environments)", min=1)
    max_seconds: float = _f(0.0, "stop this chunk of training after so many seconds, with a checkpoint (0 = no "
                                 "limit); --resume trains on", min=0.0)
    n_envs: int = _f(8, "environments stepped together (each plays whole games)", min=1)
    vec_env: str = _f("auto", "auto: subproc when workers > 1, else dummy; subproc; dummy (all in one process)",
                      choices=VEC_ENVS)
    workers: int = _f(2, "processes for subproc (environments are split among them; 1 = dummy)", min=1)
    torch_threads: int = _f(1, "torch intra-op threads in the learner process", min=1)
    device: str = _f("cpu", "torch device of the learner's updates (auto: cuda when available)", choices=DEVICES)
    init_from: str = _f("", "a MaskablePPO .zip whose policy weights start a new run (same net_arch and "
                            "activation; '' = fresh weights)")
    init_sharpen: float = _f(1.0, "sb3: multiply init_from's action logits by this factor (> 1 sharpens): PPO "
                                  "improves the policy it samples, and a distilled network's samples play far below "
                                  "its argmax (docs/design.md); above 0")
    # --- the Ray RLlib backend (train/rllib, docs/training.md)
    backend: str = _f("sb3", "sb3: MaskablePPO, one learner seat; rllib: Ray RLlib PPO, one shared policy in "
                      "every seat it plays; expert: expert iteration, a search teacher distilled into the policy "
                      "(train/expert.py)", choices=BACKENDS)
    env_runners: int = _f(2, "rllib: env runner processes sharing the n_envs (0 = sample in the driver)", min=0)
    opponent_share: float = _f(0.0, "rllib: chance each seat but one is an opponent (a bot, or a snapshot) "
                               "instead of the shared policy", min=0.0, max=1.0)
    # --- expert iteration (backend expert, train/expert.py, docs/training.md)
    teacher: str = _f("guided:sims=200,opponents=search,root=ucb", "expert: the search (a bot with root visit "
                      "shares: guided, ismcts) that plays the self-play games' learner seats (every seat unless "
                      "learner_seats) and labels their decisions; root=ucb spreads the shares over the moves "
                      "(halving's pile on the last two standing)")
    rounds: int = _f(2, "expert: rounds of self-play + distillation (from round 2 on, the previous round's network "
                     "gives the teacher's root priors when teacher_prior)", min=1)
    round_games: int = _f(600, "expert: self-play games per round", min=1)
    explore_moves: int = _f(30, "expert: a game's first searched decisions whose move is drawn from the visit "
                            "shares (after them the most visited move)", min=0)
    play_by: str = _f("teacher", "expert: who plays a game's moves after its explore_moves: the teacher (its most "
                      "visited move), or from round 2 on the previous round's network (apprentice: every "
                      "decision still searched and labelled, so the labels cover the positions the network "
                      "reaches, as in DAgger)", choices=("teacher", "apprentice"))
    learner_seats: int = _f(0, "expert: seats of each self-play game that the teacher (or apprentice) plays and "
                            "labels, rotating with the game's seed; the other seats are opponents' bots, so the "
                            "labels cover the tables the network meets (0 = every seat)", min=0)
    label_stages: list[str] = field(
        default_factory=lambda: list(STAGES),
        metadata={"doc": "expert: the stages (Knowledge.stage: swap, pile, hand, table) whose learner decisions "
                         "the teacher searches and labels; the network plays the others unlabelled (init_from's "
                         "in round 1, then the previous round's), so a teacher's time goes where it gains"},
    )
    teacher_prior: bool = _f(False, "expert: from round 2 on, the teacher's root priors are the previous "
                             "round's network (teacher must take a prior option: guided)")
    distil_epochs: int = _f(4, "expert: passes over the labelled positions of all rounds so far", min=1)
    target_power: float = _f(1.0, "expert: the policy learns visit shares ** target_power, renormalised (> 1 "
                             "sharpens the search's flat shares towards its most visited move; above 0)", min=0.0)
    # --- opponents: fixed bots and the self-play league
    opponents: dict[str, float] = field(
        default_factory=lambda: {"random": 1.0},
        metadata={"doc": "bot specs (agents.make_bot) -> weight; each opponent seat draws one per game by weight"},
    )
    league: bool = _f(False, "self-play league: snapshots of the learner join the opponents")
    snapshot_every: int = _f(100_000, "learner steps between two snapshots added to the pool", min=1)
    snapshot_max: int = _f(10, "snapshots kept in the pool (the oldest leave first)", min=1)
    snapshot_share: float = _f(0.5, "chance an opponent seat is a snapshot, once the pool has one", min=0.0, max=1.0)
    snapshot_scheme: str = _f(
        "latest",
        "which snapshot: latest (weight decay^age), uniform, or loss (how often the learner loses to it)",
        choices=SNAPSHOT_SCHEMES,
    )
    snapshot_decay: float = _f(0.7, "latest scheme: weight of a snapshot relative to the next newer one",
                               min=0.0, max=1.0)
    snapshot_deterministic: bool = _f(False, "snapshots play their most likely action (else they sample)")
    # --- PPO (sb3-contrib MaskablePPO)
    learning_rate: float = _f(3e-4, "Adam learning rate", min=0.0, max=1.0)
    lr_final_fraction: float = _f(1.0, "learning rate at the end as a fraction of the start (linear decay)",
                                  min=0.0, max=1.0)
    n_steps: int = _f(256, "steps per environment per rollout (rollout = n_steps * n_envs)", min=2)
    batch_size: int = _f(256, "minibatch size", min=2)
    n_epochs: int = _f(4, "passes over each rollout", min=1)
    gamma: float = _f(0.999, "discount; close to 1 because the only reward comes at the end of the game",
                      min=0.0, max=1.0)
    gae_lambda: float = _f(0.95, "GAE lambda", min=0.0, max=1.0)
    clip_range: float = _f(0.2, "PPO clip range", min=0.0, max=1.0)
    ent_coef: float = _f(0.01, "entropy bonus coefficient", min=0.0)
    vf_coef: float = _f(0.5, "value loss coefficient", min=0.0)
    max_grad_norm: float = _f(0.5, "gradient clipping norm", min=0.0)
    target_kl: float = _f(0.0, "stop an update early past this KL (0 = never)", min=0.0)
    net_arch: list[int] = field(
        default_factory=lambda: [256, 256],
        metadata={"doc": "hidden layer sizes of the policy and of the value network (separate)"},
    )
    activation: str = _f("tanh", "activation of the hidden layers", choices=ACTIVATIONS)
    # --- evaluation (tournament harness, duplicate deals) and checkpoints
    eval_every: int = _f(50_000, "learner steps between two evaluations (0 = only at the end)", min=0)
    eval_at_start: bool = _f(False, "also evaluate before the first update: the learning curve's step-0 point")
    eval_opponents: list[str] = field(
        default_factory=lambda: ["random", "greedy"], metadata={"doc": "bot specs the learner is evaluated against"}
    )
    eval_games: int = _f(200, "games per opponent per evaluation during training (duplicate deals)", min=1)
    final_eval_games: int = _f(1000, "games per opponent of the evaluation at the end (0 = skip)", min=0)
    best_by: str = _f("", "eval opponent whose score picks the best checkpoint ('' = the mean over all)")
    checkpoint_every: int = _f(100_000, "learner steps between two checkpoints (the last is always kept)", min=1)
    eval_deterministic: bool = _f(True, "the learner plays its most likely action when evaluated")
    runs_dir: str = _f("runs", "where run directories are created")
    progress_bar: bool = _f(True, "show a tqdm progress bar")
    name: str = _f("", "config name in the run directory's name (default: the YAML file's stem)")

    # ------------------------------------------------------------------ checks
    def validate(self) -> TrainConfig:
        """Check every field's type and range and the cross-field constraints; return self."""
        hints = typing.get_type_hints(TrainConfig)
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            _check_type(f.name, value, hints[f.name])
            meta = f.metadata
            if "choices" in meta and value not in meta["choices"]:
                raise ConfigError(f"{f.name}: {value!r} is not one of {', '.join(map(str, meta['choices']))}")
            if "min" in meta and value < meta["min"]:
                raise ConfigError(f"{f.name}: {value!r} is below the minimum {meta['min']}")
            if "max" in meta and value > meta["max"]:
                raise ConfigError(f"{f.name}: {value!r} is above the maximum {meta['max']}")
        try:
            load_rules(self.rules).check_players(self.num_players)
        except (RulesError, ValueError) as error:
            raise ConfigError(f"num_players: {error}") from None
        self._validate_tables()
        self._validate_init_from()
        if self.init_sharpen != 1.0:
            self._validate_sharpen()
        if not self.opponents:
            raise ConfigError("opponents: give at least one bot spec")
        for spec, weight in self.opponents.items():
            _check_bot(f"opponents[{spec!r}]", spec)
            if weight < 0:
                raise ConfigError(f"opponents[{spec!r}]: weight {weight} is negative")
        if sum(self.opponents.values()) <= 0:
            raise ConfigError("opponents: the weights sum to zero")
        if not self.eval_opponents and self.final_eval_games:
            raise ConfigError("eval_opponents: give at least one bot spec")
        for i, spec in enumerate(self.eval_opponents):
            _check_bot(f"eval_opponents[{i}]", spec)
        if self.best_by and self.best_by not in self.eval_opponents:
            raise ConfigError(f"best_by: {self.best_by!r} is not one of eval_opponents {self.eval_opponents}")
        if not self.net_arch or any(width < 1 for width in self.net_arch):
            raise ConfigError(f"net_arch: {self.net_arch} must be a non-empty list of positive widths")
        if self.n_envs % self.workers and self.vec_env != "dummy" and self.workers > 1:
            raise ConfigError(f"workers: n_envs {self.n_envs} must be a multiple of workers {self.workers}")
        if (self.n_steps * self.n_envs) % self.batch_size:
            raise ConfigError(
                f"batch_size: {self.batch_size} must divide the rollout n_steps * n_envs = {self.n_steps * self.n_envs}"
            )
        if self.backend == "rllib":
            self._validate_rllib()
        if self.backend == "expert":
            self._validate_expert()
        if self.name and not self.name.replace("_", "").replace("-", "").isalnum():
            raise ConfigError(f"name: {self.name!r} may hold only letters, digits, '-' and '_'")
        return self

    def _validate_tables(self) -> None:
        for preset, counts in self.tables.items():
            if preset not in PRESETS:
                raise ConfigError(f"tables: {preset!r} is not one of {', '.join(PRESETS)}")
            if not counts or len(set(counts)) != len(counts):
                raise ConfigError(f"tables[{preset!r}]: {counts} must be a non-empty list of distinct player counts")
            for n in counts:
                try:
                    load_rules(preset).check_players(n)
                except ValueError as error:
                    raise ConfigError(f"tables[{preset!r}]: {error}") from None
        if self.n_envs % len(self.table_list()):
            raise ConfigError(f"n_envs: {self.n_envs} must be a multiple of the {len(self.table_list())} tables, "
                              "so that every table gets the same share of environments")

    @property
    def game_cap(self) -> int | None:
        """``max_decisions`` for the engine and the harness: None keeps the rules' own cap."""
        return self.max_decisions or None

    def table_list(self) -> list[tuple[str, int]]:
        """Every (preset, players) table the learner plays, in environment order."""
        if not self.tables:
            return [(self.rules, self.num_players)]
        return [(preset, n) for preset, counts in self.tables.items() for n in counts]

    def _require_coverage(self, key: str, covering: Any) -> None:
        """``covering`` (a bot) must cover every table the learner plays."""
        for rules, players in self.table_list():
            if not covering.covers(rules, players):
                raise ConfigError(f"{key}: {getattr(self, key)!r} plays {covering.coverage()}, not {rules} with "
                                  f"{players} players")

    def _validate_init_from(self) -> None:
        """``init_from`` is a file; a shipped checkpoint that is not installed, or altered, is named in one line."""
        if not self.init_from:
            return
        try:
            start = resolve_init(self.init_from)
        except (FileNotFoundError, ValueError) as error:
            raise ConfigError(f"init_from: {error}") from None
        if not start.is_file():
            raise ConfigError(f"init_from: {self.init_from!r} is not a file")

    def _validate_sharpen(self) -> None:
        """A factor for a network that is loaded, and only where PPO then samples from it."""
        if self.init_sharpen <= 0:
            raise ConfigError(f"init_sharpen: {self.init_sharpen!r} must be above 0 (1 = the network as it is)")
        if self.backend != "sb3":
            raise ConfigError(f"init_sharpen: only the sb3 backend supports it (leave it at 1 for backend "
                              f"{self.backend})")
        if not self.init_from:
            raise ConfigError("init_sharpen: it scales init_from's action head; give init_from or leave it at 1")

    def _validate_rllib(self) -> None:
        """What the RLlib backend cannot run."""
        for key in ("tables", "init_from", "max_seconds", "privileged_critic", "eval_at_start"):
            if getattr(self, key):
                raise ConfigError(f"{key}: only the sb3 backend supports it (remove it for backend rllib)")
        if self.env_runners and self.n_envs % self.env_runners:
            raise ConfigError(f"env_runners: n_envs {self.n_envs} must be a multiple of env_runners {self.env_runners}")
        if self.target_kl:
            raise ConfigError(f"target_kl: {self.target_kl} is not supported by the rllib backend (use 0)")
        if self.league and not self.opponent_share:
            raise ConfigError("league: snapshots play opponent seats; set opponent_share > 0 with backend rllib")
        if self.league and self.snapshot_scheme == "loss":
            raise ConfigError("snapshot_scheme: 'loss' is not supported by the rllib backend (latest or uniform)")

    def _validate_expert(self) -> None:
        """What expert iteration needs: one table, and a teacher that searches it."""
        if self.tables:
            raise ConfigError("tables: expert iteration plays one table (rules and num_players)")
        teacher = _check_bot("teacher", self.teacher)
        if not callable(getattr(teacher, "search", None)):
            raise ConfigError(f"teacher: {self.teacher!r} is not a search bot (guided or ismcts)")
        self._require_coverage("teacher", teacher)
        if self.learner_seats > self.num_players:
            raise ConfigError(f"learner_seats: {self.learner_seats} is more than the table's {self.num_players} seats")
        if self.target_power == 0:
            raise ConfigError("target_power: 0 would make the targets uniform over the visited moves; give a "
                              "power above 0")
        unknown = [stage for stage in self.label_stages if stage not in STAGES]
        if unknown or not self.label_stages or len(set(self.label_stages)) < len(self.label_stages):
            raise ConfigError(f"label_stages: {self.label_stages} must name each of some of {', '.join(STAGES)} "
                              "once")
        if set(self.label_stages) != set(STAGES) and not self.init_from:
            raise ConfigError("label_stages: the stages the teacher does not label are played by the network, so "
                              "round 1 needs init_from")
        if self.teacher_prior and "prior" not in _options_of(self.teacher):
            raise ConfigError(f"teacher_prior: the teacher {self.teacher!r} takes no prior option (use guided)")
        if self.teacher_prior and teacher.root_rule != "ucb":
            raise ConfigError(f"teacher_prior: the teacher {self.teacher!r} needs root=ucb (priors guide its root's "
                              "ucb choice)")

    @property
    def use_subproc(self) -> bool:
        """Whether the environments run in worker processes."""
        return self.vec_env == "subproc" or (self.vec_env == "auto" and self.workers > 1)

    # ------------------------------------------------------------------ I/O
    def to_dict(self) -> dict[str, Any]:
        """The plain mapping written to ``config.yaml``."""
        return dataclasses.asdict(self)

    def save(self, path: Path) -> None:
        """Write the resolved config (all fields) as YAML."""
        path.write_text(yaml.safe_dump(self.to_dict(), sort_keys=False), encoding="utf-8")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "config") -> TrainConfig:
        """Build and validate; unknown keys are refused by name."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"{source}: a config must be a mapping of keys, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"{source}: unknown key(s) {', '.join(map(repr, unknown))}")
        try:
            return cls(**dict(data)).validate()
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp)


def _check_type(key: str, value: Any, tp: Any) -> None:
    """Refuse a value that does not match the field's annotation (bool is not an int, int is a float)."""
    if not _matches(value, tp):
        raise ConfigError(f"{key}: expected {_describe(tp)}, got {type(value).__name__} {value!r}")


def _describe(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is None:
        return _type_name(tp)
    args = ", ".join(_describe(a) for a in typing.get_args(tp))
    return f"{_type_name(origin)}[{args}]"


def _matches(value: Any, tp: Any) -> bool:
    origin = typing.get_origin(tp)
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    if origin is list:
        (item,) = typing.get_args(tp)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    if origin is dict:
        key_type, value_type = typing.get_args(tp)
        return isinstance(value, dict) and all(_matches(k, key_type) and _matches(v, value_type)
                                               for k, v in value.items())
    return isinstance(value, tp)


def _options_of(spec: str) -> tuple[str, ...]:
    """The option names a bot spec's class takes."""
    import inspect

    from agents.base import bot_class, parse_spec

    return tuple(inspect.signature(bot_class(parse_spec(spec)[0])).parameters)


def _check_bot(key: str, spec: str) -> Any:
    """A bot spec must name a registered bot with valid options (built once, cheaply, to check); the bot."""
    from agents import make_bot

    try:
        return make_bot(spec)
    except (ValueError, TypeError, FileNotFoundError) as error:
        raise ConfigError(f"{key}: bad bot spec {spec!r}: {error}") from None


def _coerce_floats(data: dict[str, Any]) -> dict[str, Any]:
    """YAML reads ``1`` as int; a float field accepts it (and the weights of ``opponents``)."""
    hints = typing.get_type_hints(TrainConfig)
    out = dict(data)
    for key, value in data.items():
        if hints.get(key) is float and isinstance(value, int) and not isinstance(value, bool):
            out[key] = float(value)
        if key == "opponents" and isinstance(value, dict):
            out[key] = {k: float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                        for k, v in value.items()}
    return out


def resolve_init(path: str) -> Path:
    """``init_from`` as given, or relative to the project root when it is not found from here; a shipped training
    checkpoint (``agents/pretrained/*/policy.zip``, in ``shithead-env-checkpoints``) is checked against the sha256
    the model registry records, and one that is not installed is a one-line error naming what to install."""
    from agents.registry import verified

    candidate = Path(path)
    if not candidate.exists() and not candidate.is_absolute() and (PROJECT_ROOT / candidate).parent.is_dir():
        candidate = PROJECT_ROOT / candidate
    return verified(candidate)


def resolve_config_path(spec: str | Path) -> Path:
    """A path to a YAML file, or a bare name looked up in configs/train/."""
    path = Path(spec)
    if path.is_file():
        return path
    named = CONFIG_DIR / f"{spec}.yaml"
    if named.is_file():
        return named
    raise ConfigError(f"config {str(spec)!r}: no such file (named configs: {', '.join(named_configs())})")


def named_configs() -> list[str]:
    """The names ``--config`` accepts for the YAML files of configs/train/."""
    return sorted(p.stem for p in CONFIG_DIR.glob("*.yaml"))


def parse_override(text: str) -> tuple[str, Any]:
    """``key=value`` with the value read as YAML (``n_envs=4``, ``net_arch=[64,64]``, ``opponents={heuristic: 1}``)."""
    key, eq, raw = text.partition("=")
    if not eq or not key.strip():
        raise ConfigError(f"override {text!r}: expected key=value")
    try:
        value = yaml.safe_load(raw)
    except yaml.YAMLError as error:
        raise ConfigError(f"override {text!r}: value is not valid YAML ({error})") from None
    return key.strip(), "" if value is None and raw.strip() in ("", "''", '""') else value


def load_config(path: str | Path | None = None, overrides: Sequence[str] = ()) -> TrainConfig:
    """Read a YAML config (or the defaults), apply ``key=value`` overrides, validate."""
    data: dict[str, Any] = {}
    source = "defaults"
    if path is not None:
        file = resolve_config_path(path)
        source = str(file)
        try:
            loaded = yaml.safe_load(file.read_text(encoding="utf-8"))
        except yaml.YAMLError as error:
            raise ConfigError(f"{source}: not valid YAML ({error})") from None
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{source}: a config must be a mapping of keys, got {type(loaded).__name__}")
        data.update(loaded)
        data.setdefault("name", file.stem)
    for text in overrides:
        key, value = parse_override(text)
        data[key] = value
    return TrainConfig.from_dict(_coerce_floats(data), source=source)


def config_markdown() -> str:
    """The field table of docs/training.md, generated from the dataclass."""
    hints = typing.get_type_hints(TrainConfig)
    lines = ["| key | type | default | meaning |", "|---|---|---|---|"]
    for f in dataclasses.fields(TrainConfig):
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        extra = []
        if "choices" in f.metadata:
            extra.append("one of " + ", ".join(f"`{c}`" for c in f.metadata["choices"]))
        if "min" in f.metadata:
            extra.append(f">= {f.metadata['min']}")
        if "max" in f.metadata:
            extra.append(f"<= {f.metadata['max']}")
        note = f" ({'; '.join(extra)})" if extra else ""
        lines.append(f"| `{f.name}` | `{_describe(hints[f.name])}` | `{default!r}` | {f.metadata['doc']}{note} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Print the config field table (Markdown)."""
    argparse.ArgumentParser(prog="python -m train.config", description=main.__doc__).parse_args(argv)
    print(config_markdown(), end="")


if __name__ == "__main__":
    main()


def parse_tables(items: list[str]) -> list[tuple[str, int]]:
    """``["dead_last:2,4", "pub:3"]`` -> ``[("dead_last", 2), ("dead_last", 4), ("pub", 3)]``, each checked."""
    tables = []
    for item in items:
        rules, colon, counts = item.partition(":")
        try:
            players = [int(n) for n in counts.split(",")] if colon else []
        except ValueError:
            players = []
        if not players:
            raise ValueError(f"table {item!r}: expected PRESET:N[,N...], e.g. dead_last:2,4")
        for n in players:
            load_rules(rules).check_players(n)
            tables.append((rules, n))
    return tables
