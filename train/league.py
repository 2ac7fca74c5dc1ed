"""The self-play league: a pool of frozen learner snapshots, shared with the workers through a directory.

The learner process owns the pool (``LeaguePool``): every ``snapshot_every``
steps it saves the policy (``policy.save``, torch weights) as a file in the
league directory and rewrites ``pool.json`` atomically with a new version,
the snapshots and their sampling weights. Each environment, in whatever
worker process, holds an ``OpponentSampler`` that reads ``pool.json`` at
every reset (``os.replace`` makes each read whole), takes it when its
version is new, and loads new snapshot files on first use. Workers step in
lock-step with the learner, so which game first sees a new snapshot does
not depend on timing.

Per game, each opponent seat independently is a snapshot with probability
``snapshot_share`` (once the pool holds one), picked by the snapshot weights,
else a baseline bot picked by the ``opponents`` weights. Snapshot weights:

- ``latest``: ``decay ** age`` (age 0 = newest snapshot),
- ``uniform``: equal,
- ``loss``: how often the learner lost to that snapshot so far,
  ``(losses + 1) / (games + 2)`` (prioritised fictitious self-play).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents import Bot, make_bot
from agents.files import write_whole

POOL_FILE = "pool.json"


@dataclass
class Snapshot:
    """One frozen learner: its file (relative to the league directory) and the learner's record against it."""

    name: str
    file: str
    step: int
    games: int = 0
    losses: float = 0.0  # the learner finished behind it (ties at truncation count one half)

    @property
    def loss_rate(self) -> float:
        """Smoothed share of games the learner lost to this snapshot."""
        return (self.losses + 1.0) / (self.games + 2.0)


def snapshot_weights(snapshots: list[Snapshot], scheme: str, decay: float) -> list[float]:
    """Sampling weights of the snapshots (oldest first) under ``scheme``; they sum to one."""
    if not snapshots:
        return []
    if scheme == "uniform":
        raw = [1.0] * len(snapshots)
    elif scheme == "latest":
        newest = len(snapshots) - 1
        raw = [decay ** (newest - i) for i in range(len(snapshots))]
    elif scheme == "loss":
        raw = [s.loss_rate for s in snapshots]
    else:
        raise ValueError(f"unknown snapshot scheme {scheme!r}")
    total = sum(raw)
    if total <= 0:  # decay 0 and a single snapshot: fall back on the newest
        raw = [0.0] * (len(snapshots) - 1) + [1.0]
        total = 1.0
    return [w / total for w in raw]


class LeaguePool:
    """The pool as the learner process sees it; ``write`` publishes it to the workers."""

    def __init__(self, directory: str | Path, scheme: str = "latest", decay: float = 0.7, max_size: int = 10) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.scheme = scheme
        self.decay = decay
        self.max_size = max_size
        self.version = 0
        self.snapshots: list[Snapshot] = []
        self.retired: list[Snapshot] = []  # left the pool; files deleted one publication later
        manifest = self.directory / POOL_FILE
        if manifest.is_file():  # resume: carry on with the same pool
            data = json.loads(manifest.read_text(encoding="utf-8"))
            self.version = int(data["version"])
            self.snapshots = [Snapshot(**{k: s[k] for k in ("name", "file", "step", "games", "losses")})
                              for s in data["snapshots"]]

    def add(self, policy: Any, step: int) -> Snapshot:
        """Save ``policy`` (an SB3 policy) as a new snapshot, retire the oldest past ``max_size``, publish."""
        name = f"snapshot_{step:010d}"
        file = f"{name}.pt"
        policy.save(str(self.directory / file))
        snapshot = Snapshot(name, file, step)
        self.snapshots = [s for s in self.snapshots if s.name != name] + [snapshot]
        for old in self.retired:
            (self.directory / old.file).unlink(missing_ok=True)
        self.retired = self.snapshots[: -self.max_size] if len(self.snapshots) > self.max_size else []
        self.snapshots = self.snapshots[-self.max_size :]
        self.write()
        return snapshot

    def record(self, name: str, lost: float) -> None:
        """Count one game against snapshot ``name`` (no-op for a name no longer in the pool)."""
        for s in self.snapshots:
            if s.name == name:
                s.games += 1
                s.losses += lost
                return

    def weights(self) -> list[float]:
        """Current sampling weights, oldest snapshot first."""
        return snapshot_weights(self.snapshots, self.scheme, self.decay)

    def write(self) -> None:
        """Publish the pool: ``pool.json`` with a new version, replaced atomically."""
        self.version += 1
        data = {
            "version": self.version,
            "scheme": self.scheme,
            "snapshots": [{**asdict(s), "weight": w} for s, w in zip(self.snapshots, self.weights(), strict=True)],
        }
        write_whole(self.directory / POOL_FILE, json.dumps(data, indent=1))


class OpponentSampler:
    """Draws the opponent of every seat for each game, in one environment (any process)."""

    def __init__(
        self,
        bots: Mapping[str, float],
        league_dir: str | Path | None = None,
        share: float = 0.0,
        deterministic: bool = False,
        seed: int | None = None,
    ) -> None:
        self.bot_specs = list(bots)
        weights = np.array([bots[s] for s in self.bot_specs], float)
        self.bot_weights = weights / weights.sum()
        self.bots: dict[str, Bot] = {spec: make_bot(spec) for spec in self.bot_specs}
        self.league_dir = Path(league_dir) if league_dir is not None else None
        self.share = share
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.version = 0
        self.names: list[str] = []
        self.files: dict[str, str] = {}
        self.snapshot_weights = np.zeros(0)
        self._loaded: dict[str, Bot] = {}

    def refresh(self) -> bool:
        """Re-read ``pool.json``; True when it holds a new version (read at every reset: a few hundred bytes)."""
        if self.league_dir is None:
            return False
        try:
            data = json.loads((self.league_dir / POOL_FILE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return False
        if int(data["version"]) == self.version:
            return False
        self.version = int(data["version"])
        snapshots = data["snapshots"]
        self.names = [s["name"] for s in snapshots]
        self.files = {s["name"]: s["file"] for s in snapshots}
        self.snapshot_weights = np.array([s["weight"] for s in snapshots], float)
        self._loaded = {name: bot for name, bot in self._loaded.items() if name in self.files}
        return True

    def snapshot_bot(self, name: str) -> Bot | None:
        """The snapshot as a bot, loaded on first use; None if its file has gone (retired meanwhile)."""
        bot = self._loaded.get(name)
        if bot is None and self.league_dir is not None:
            from train.policy_bot import PolicyBot, load_policy

            try:
                policy = load_policy(self.league_dir / self.files[name])
            except (ValueError, OSError, EOFError, RuntimeError):
                return None
            bot = self._loaded[name] = PolicyBot.from_policy(policy, self.deterministic)
        return bot

    def draw(self, seats: int) -> list[tuple[str, Bot]]:
        """(name, bot) for each of ``seats`` opponent seats: snapshot names start with ``snapshot_``."""
        out = []
        for _ in range(seats):
            if self.names and self.rng.random() < self.share:
                name = self.names[int(self.rng.choice(len(self.names), p=self.snapshot_weights))]
                bot = self.snapshot_bot(name)
                if bot is not None:
                    out.append((name, bot))
                    continue
            spec = self.bot_specs[int(self.rng.choice(len(self.bot_specs), p=self.bot_weights))]
            out.append((spec, self.bots[spec]))
        return out
