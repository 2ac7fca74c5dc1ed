"""Expert iteration (Anthony et al. 2017; the loop of AlphaZero): a search labels self-play, a network learns it.

    shithead train --config expert_dead_last_4p        # backend: expert
    shithead train --resume runs/<that run>            # carries on where a chunk stopped

Each round:

1. **Self-play.** ``round_games`` seeded games with the ``teacher`` search
   (``guided``) in every seat, capped at ``max_decisions``. Every decision with
   a choice is searched; its root visit shares and root value are kept. A
   game's first ``explore_moves`` searched moves are drawn from the shares
   (so the games cover more than the teacher's own line), later ones are the
   most visited, or (``play_by: apprentice``, from round 2) the previous
   round's network's, so the labels cover the positions the network itself
   reaches (DAgger). With ``teacher_prior`` the previous round's network gives
   the teacher's root priors, so a better apprentice makes a better teacher.
2. **Distil.** The public-observation policy (from ``init_from``, then from the
   previous round's) learns the visit shares of every round so far by
   cross-entropy (the shares, sharpened by ``target_power``; not the
   argmax: the search is noisy) and its
   value head the seat's final score (a privileged critic reads the full state).
   A held-out 5% of the games gives the figures: cross-entropy, agreement with
   the teacher's move, the value's explained variance and the value regret of
   the network's own move before and after the fit (``value_regret``: with
   values of the network's own continuation, the figure that tracks play).
3. **Evaluate.** The harness plays the round's network against ``eval_opponents``
   (``eval.csv``, ``best/``), and the network is exported for the next round's priors.

The data stay on disk (``rounds/<r>/data/chunk_<i>.npz``: seeds, every move,
the visit shares; positions are rebuilt by replaying the moves, so any encoding
can be read from them later), written chunk by chunk: ``max_seconds`` stops a
chunk of work between two of them and ``--resume`` skips what is done. The
network is a MaskablePPO checkpoint like any run's, so ``shithead export``,
``train.release`` and ``policy:`` read it as they read PPO's.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np

from shithead_env import NUM_ACTIONS, Action, Game, Knowledge, encode_observation
from shithead_env.commands import runnable
from shithead_env.full_state import encode_full_state
from shithead_env.phases import STAGES
from shithead_env.scoring import final_scores
from train.config import ConfigError, TrainConfig, resolve_init
from train.trainer import RunResult, finish, open_run

ROUNDS_DIR = "rounds"  # rounds/<r>/data/chunk_*.npz, rounds/<r>/model.zip, ...
CHUNK_GAMES = 10  # games per data file: the unit of work that a stop or a resume respects
HOLDOUT = 0.05  # share of the games kept out of the fit, for its figures
ROUND_FILE = "round.json"  # written last: the round is done
EXPORT = "model"  # a round's ONNX export, beside its model.zip


# ---------------------------------------------------------------- self-play


def opponent_seats(players: int, learner_seats: int, seed: int, opponents: dict[str, float]) -> dict[int, str]:
    """The seats of game ``seed`` that ``opponents``' bots play (seat -> spec, drawn by weight): all but
    ``learner_seats`` of them, the learner's seats rotating with the seed (none when ``learner_seats`` is 0)."""
    if not learner_seats:
        return {}
    rng = np.random.default_rng([seed, 17])
    specs = list(opponents)
    weights = np.array([opponents[spec] for spec in specs], np.float64)
    seats = [(seed + k) % players for k in range(learner_seats, players)]
    return {seat: specs[int(rng.choice(len(specs), p=weights / weights.sum()))] for seat in seats}


def selfplay_games(rules: str, players: int, teacher: str, seeds: list[int], explore_moves: int,
                   max_decisions: int | None, player: str | None = None, opponents: dict[str, float] | None = None,
                   learner_seats: int = 0, label_stages: tuple[str, ...] = STAGES,
                   network: str | None = None) -> dict[str, np.ndarray]:
    """The games ``seeds`` with ``teacher`` searching every decision of the learner's seats (every seat, or
    ``learner_seats`` of them with ``opponents``' bots in the others) in ``label_stages`` (the bot ``network``
    plays the others, unsearched): moves, which were searched, visit shares, each root action's mean value
    (``action_means``) and the root's value. After a game's first ``explore_moves`` searched moves (drawn from
    the shares) the learner's moves are the teacher's most visited, or the bot ``player``'s when given."""
    from agents import make_bot
    from agents.ismcts import most_visited, visit_shares

    if set(label_stages) != set(STAGES) and not network:
        raise ValueError(f"self-play labelling only {', '.join(label_stages)} needs a network for the other stages")
    bot = make_bot(teacher)
    mover = make_bot(player) if player else None
    unlabelled = make_bot(network) if network else None
    bots = {spec: make_bot(spec) for spec in opponents or {}} if learner_seats else {}
    lengths, actions, searched, shares, means, values, scores = [], [], [], [], [], [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 13])
        seated = {seat: bots[spec] for seat, spec in opponent_seats(players, learner_seats, seed, opponents or {})
                  .items()}
        game = Game.new(rules, players, seed=seed, max_decisions=max_decisions)
        explored = 0
        while not game.is_over:
            legal = game.legal_actions()
            opponent = seated.get(game.current)
            knowledge = Knowledge.from_game(game, game.current) if len(legal) > 1 and opponent is None else None
            if knowledge is not None and knowledge.stage not in label_stages:
                opponent, knowledge = unlabelled, None
            searched.append(knowledge is not None)
            if len(legal) == 1:
                action = legal[0]
            elif knowledge is None:
                action = opponent.act_game(game, game.current, rng)
            else:
                stats = bot.search(knowledge, rng)
                share = visit_shares(stats)
                shares.append(share.astype(np.float16))
                means.append(action_means(stats))
                values.append(sum(share[a.index] * mean for a, (_, mean) in stats.items()))
                if explored < explore_moves:
                    action = Action.from_index(int(rng.choice(NUM_ACTIONS, p=share)))
                    explored += 1
                elif mover is not None:
                    action = mover.act_game(game, game.current, rng)
                else:
                    action = most_visited(stats)
            actions.append(action.index)
            game.step(action)
        lengths.append(game.decisions)
        scores.append(final_scores(game))
    return {
        "seeds": np.array(seeds, np.int64),
        "lengths": np.array(lengths, np.int32),
        "actions": np.array(actions, np.int16),
        "searched": np.array(searched, bool),
        "shares": np.array(shares, np.float16).reshape(-1, NUM_ACTIONS),
        "values": np.array(values, np.float32),
        "means": np.array(means, np.float16).reshape(-1, NUM_ACTIONS),
        "scores": np.array(scores, np.float32).reshape(len(seeds), players),
    }


def action_means(stats: dict[Action, tuple[int, float]]) -> np.ndarray:
    """A search's mean value (the mover's expected score) of each root action over the action layout, float16,
    NaN on the actions it did not visit: what the value regret (``value_regret``) is measured with."""
    means = np.full(NUM_ACTIONS, np.nan, np.float16)
    for action, (visits, mean) in stats.items():
        if visits:
            means[action.index] = mean
    return means


def round_dir(run_dir: Path, round_no: int) -> Path:
    return run_dir / ROUNDS_DIR / f"{round_no:02d}"


def previous_export(run_dir: Path, round_no: int) -> Path:
    """The ONNX export of the round before ``round_no`` (its network: the next round's prior or mover)."""
    return round_dir(run_dir, round_no - 1) / EXPORT


def teacher_spec(config: TrainConfig, run_dir: Path, round_no: int) -> str:
    """The teacher of round ``round_no``: with ``teacher_prior``, guided by the previous round's export."""
    if not config.teacher_prior or round_no == 1:
        return config.teacher
    return f"{config.teacher},prior={previous_export(run_dir, round_no)}"


def player_spec(config: TrainConfig, run_dir: Path, round_no: int) -> str | None:
    """Who plays round ``round_no``'s moves past the exploration: None (the teacher) or the previous network."""
    if config.play_by == "teacher" or round_no == 1:
        return None
    return f"model:{previous_export(run_dir, round_no)}"


def network_spec(config: TrainConfig, run_dir: Path, round_no: int) -> str | None:
    """Who plays the decisions outside ``label_stages``: ``init_from``'s network in round 1, then the previous
    round's; None when the teacher labels every stage."""
    if set(config.label_stages) == set(STAGES):
        return None
    return f"policy:{config.init_from}" if round_no == 1 else f"model:{previous_export(run_dir, round_no)}"


def game_seeds(config: TrainConfig, round_no: int) -> list[int]:
    base = config.seed * 1_000_000 + round_no * 100_000
    return list(range(base, base + config.round_games))


def generate(config: TrainConfig, run_dir: Path, round_no: int, deadline: float | None) -> bool:
    """Play round ``round_no``'s self-play games into its data files (those on disk are kept); False when
    ``deadline`` (a ``time.time()``) stopped it first."""
    from tqdm import tqdm

    data = round_dir(run_dir, round_no) / "data"
    data.mkdir(parents=True, exist_ok=True)
    seeds = game_seeds(config, round_no)
    chunks = {data / f"chunk_{i // CHUNK_GAMES:05d}.npz": seeds[i:i + CHUNK_GAMES]
              for i in range(0, len(seeds), CHUNK_GAMES)}
    todo = {path: chunk for path, chunk in chunks.items() if not path.is_file()}
    args = (config.rules, config.num_players, teacher_spec(config, run_dir, round_no), config.explore_moves,
            config.game_cap, player_spec(config, run_dir, round_no), config.opponents, config.learner_seats,
            tuple(config.label_stages), network_spec(config, run_dir, round_no))
    done = len(seeds) - sum(map(len, todo.values()))
    with ProcessPoolExecutor(config.workers) as pool, tqdm(
        total=len(seeds), initial=done, unit="game", desc=f"round {round_no} self-play",
        disable=not config.progress_bar,
    ) as bar:
        pending = {pool.submit(selfplay_games, *args[:3], chunk, *args[3:]): path
                   for path, chunk in todo.items()}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                path = pending.pop(future)
                _save_atomic(path, future.result())
                bar.update(len(chunks[path]))
            if pending and deadline is not None and time.time() > deadline:
                for future in pending:
                    future.cancel()
                for future, path in pending.items():  # the chunks already running still land
                    if not future.cancelled():
                        _save_atomic(path, future.result())
                return all(path.is_file() for path in chunks)
    return True


def _save_atomic(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``path`` under a temporary name first, so a stop never leaves half a chunk."""
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


# ---------------------------------------------------------------- positions


def searched_positions(chunk: dict[str, np.ndarray], rules: str, players: int,
                       max_decisions: int | None) -> Iterator[tuple[Game, int, int]]:
    """Replay a chunk's games, yielding (game, the game's number in the chunk, the position's row in the chunk's
    labels) at each searched position, before its move is played: the one walk over a chunk that every reader of
    the labels shares."""
    moves = iter(zip(chunk["actions"].tolist(), chunk["searched"].tolist(), strict=True))
    row = 0
    for number, (seed, length) in enumerate(zip(chunk["seeds"].tolist(), chunk["lengths"].tolist(), strict=True)):
        game = Game.new(rules, players, seed=seed, max_decisions=max_decisions)
        for _ in range(length):
            index, searched = next(moves)
            if searched:
                yield game, number, row
                row += 1
            game.step(Action.from_index(index))


def replay_chunk(path: Path, rules: str, players: int, max_decisions: int | None, version: int,
                 privileged: bool) -> dict[str, np.ndarray]:
    """A chunk's searched positions rebuilt by replaying its moves: observation (with the full state appended for
    a privileged critic), legal mask, visit shares, root action means, the seat's
    final score and the game's seed."""
    from shithead_env import action_mask

    chunk = dict(np.load(path))
    observations, masks, outcomes, games = [], [], [], []
    for game, number, _ in searched_positions(chunk, rules, players, max_decisions):
        seat = game.current
        observation = encode_observation(game, seat, version)
        if privileged:
            observation = np.concatenate([observation, encode_full_state(game, seat)])
        observations.append(observation.astype(np.float16))
        masks.append(action_mask(game, seat))
        outcomes.append(chunk["scores"][number][seat])
        games.append(chunk["seeds"][number])
    return {
        "observations": np.array(observations, np.float16),
        "masks": np.array(masks, bool),
        "shares": chunk["shares"],
        "means": chunk["means"],
        "outcomes": np.array(outcomes, np.float32),
        "games": np.array(games, np.int64),
    }


def load_positions(config: TrainConfig, run_dir: Path, rounds: int, privileged: bool) -> dict[str, np.ndarray]:
    """Every searched position of rounds 1..``rounds``, replayed in worker processes."""
    paths = sorted(p for r in range(1, rounds + 1) for p in (round_dir(run_dir, r) / "data").glob("chunk_*[0-9].npz"))
    if not paths:
        raise ValueError(f"{run_dir}: no self-play data in rounds 1..{rounds}")
    args = (config.rules, config.num_players, config.game_cap, config.encoding, privileged)
    with ProcessPoolExecutor(config.workers) as pool:
        parts = list(pool.map(replay_chunk, paths, *([a] * len(paths) for a in args)))
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


# ---------------------------------------------------------------- distillation


def policy_targets(shares: np.ndarray, power: float) -> np.ndarray:
    """What the policy learns at each position: ``shares ** power``, renormalised (float32 rows summing to 1)."""
    weights = np.where(shares > 0, shares.astype(np.float64) ** power, 0.0)
    return (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)


def build_model(config: TrainConfig, start: Path | None) -> Any:
    """A MaskablePPO model of the config's network (its spaces from one environment), with ``start``'s weights."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from train.envs import make_env
    from train.trainer import _model_kwargs, _policy_class, init_weights

    env = DummyVecEnv([lambda: make_env(config, 0)])
    model = MaskablePPO(_policy_class(config), env, seed=config.seed, device=config.device, verbose=0,
                        **_model_kwargs(config))
    if start is not None:
        init_weights(model, start)
    return model


def distil(model: Any, data: dict[str, np.ndarray], config: TrainConfig, round_no: int) -> dict[str, float]:
    """Fit the policy to the visit shares and the value to the outcomes; the held-out figures."""
    import torch
    from tqdm import tqdm

    policy = model.policy
    held = _held_out(data["games"], config.seed)
    train_rows, test_rows = np.flatnonzero(~held), np.flatnonzero(held)
    before = _figures(policy, data, test_rows, 0)
    optimizer = torch.optim.Adam(policy.parameters(), lr=config.learning_rate)
    rng = np.random.default_rng([config.seed, round_no])
    steps = config.distil_epochs * (len(train_rows) // config.batch_size)
    policy.set_training_mode(True)
    with tqdm(total=steps, unit="batch", desc=f"round {round_no} distil", disable=not config.progress_bar) as bar:
        for _ in range(config.distil_epochs):
            order = rng.permutation(train_rows)
            for start in range(0, len(order) - config.batch_size + 1, config.batch_size):
                cross_entropy, value_error, _ = _losses(policy, data, order[start:start + config.batch_size])
                loss = cross_entropy + config.vf_coef * value_error
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), config.max_grad_norm)
                optimizer.step()
                bar.update()
                bar.set_postfix(ce=f"{cross_entropy.item():.3f}", mse=f"{value_error.item():.3f}")
    policy.set_training_mode(False)
    figures = _figures(policy, data, test_rows, len(train_rows))
    if "value_regret" in before:
        figures["start_value_regret"] = before["value_regret"]
    return figures


def _held_out(games: np.ndarray, seed: int) -> np.ndarray:
    """Whether each position's game is held out: a fixed function of its seed, so a game held out once stays out
    of every later round's fit."""
    return (np.random.default_rng([seed, 99]).random(1) + games * 0.6180339887) % 1.0 < HOLDOUT


def _losses(policy: Any, data: dict[str, np.ndarray], rows: np.ndarray) -> tuple[Any, Any, Any]:
    """(cross-entropy to the shares, squared error of the value, log-probabilities) on ``rows``."""
    import torch

    observations = torch.as_tensor(data["observations"][rows], dtype=torch.float32)
    distribution = policy.get_distribution(observations, action_masks=data["masks"][rows])
    log_probs = distribution.distribution.logits  # normalised, illegal actions at a large negative value
    shares = torch.as_tensor(data["shares"][rows], dtype=torch.float32)
    cross_entropy = -(shares * log_probs).sum(-1).mean()
    values = policy.predict_values(observations).squeeze(-1)
    value_error = ((values - torch.as_tensor(data["outcomes"][rows])) ** 2).mean()
    return cross_entropy, value_error, log_probs


def value_regret(log_probs: np.ndarray, means: np.ndarray, masks: np.ndarray) -> tuple[float, float]:
    """(regret, coverage): how much of the teacher's value the network's most likely move gives up.

    Per position, the teacher's best mean over the legal moves minus its mean of the network's argmax, averaged over
    the positions where the teacher valued that move (``coverage``: their share). Cross-entropy and agreement do not
    track play: a fit can lower the cross-entropy while its argmax gets worse. The max over noisy means is biased
    up by the same amount for any network on the same positions, so the level means little but the difference
    between two networks on held-out positions estimates how much better one's moves are by the teacher's values.
    Those values assume the teacher's continuation: with a rollout teacher that plays on as the network does
    (``lookahead:rollout=...``) the regret ranks networks as play does; with a tree search's it need not.
    """
    means = np.where(masks, means.astype(np.float64), np.nan)
    chosen = means[np.arange(len(means)), np.where(masks, log_probs, -np.inf).argmax(axis=1)]
    valued = np.isfinite(chosen)
    if not valued.any():
        return float("nan"), 0.0
    best = np.nanmax(means[valued], axis=1)
    return float((best - chosen[valued]).mean()), float(valued.mean())


def _figures(policy: Any, data: dict[str, np.ndarray], rows: np.ndarray, trained: int) -> dict[str, float]:
    """Held-out cross-entropy (and the shares' own entropy, its floor), move agreement, value explained variance,
    and the value regret of the network's move."""
    import torch

    if not len(rows):
        return {"positions": trained}
    with torch.no_grad():
        cross_entropy, value_error, log_probs = _losses(policy, data, rows)
    shares = data["shares"][rows].astype(np.float64)
    entropy = float(-(shares * np.log(np.where(shares > 0, shares, 1.0))).sum(-1).mean())
    agree = float((log_probs.argmax(-1).numpy() == shares.argmax(-1)).mean())
    outcomes = data["outcomes"][rows]
    figures = {"positions": trained, "held_out_positions": len(rows), "cross_entropy": round(cross_entropy.item(), 4),
               "teacher_entropy": round(entropy, 4), "agreement": round(agree, 4),
               "value_explained": round(1.0 - value_error.item() / max(float(outcomes.var()), 1e-9), 4)}
    regret, coverage = value_regret(log_probs.numpy(), data["means"][rows], data["masks"][rows])
    if coverage:  # no figure (rather than NaN in round.json) where the teacher valued none of its moves
        figures.update(value_regret=round(regret, 4), regret_coverage=round(coverage, 4))
    return figures


# ---------------------------------------------------------------- the rounds


def run_round(config: TrainConfig, run_dir: Path, round_no: int, started: float) -> dict[str, Any]:
    """Distil round ``round_no`` (its self-play done), evaluate and export its network; its record."""
    from train.evaluate import append_csv, evaluate_spec, learner_spec, previous_best, save_best, selection_score
    from train.export import export

    here = round_dir(run_dir, round_no)
    previous = round_dir(run_dir, round_no - 1) / "model.zip"
    start = previous if round_no > 1 else (resolve_init(config.init_from) if config.init_from else None)
    model = build_model(config, start)
    data = load_positions(config, run_dir, round_no, config.privileged_critic)
    data["shares"] = policy_targets(data["shares"], config.target_power)
    record: dict[str, Any] = {"round": round_no, "teacher": teacher_spec(config, run_dir, round_no),
                              "played_by": player_spec(config, run_dir, round_no) or "teacher",
                              "unlabelled_by": network_spec(config, run_dir, round_no),
                              "opponents": config.opponents if config.learner_seats else None,
                              **distil(model, data, config, round_no)}
    model.save(here / "model.zip")
    (run_dir / "checkpoints").mkdir(exist_ok=True)
    shutil.copyfile(here / "model.zip", run_dir / "checkpoints" / "last.zip")
    results = evaluate_spec(learner_spec(here / "model.zip", config.eval_deterministic), config.rules,
                            config.num_players, config.eval_opponents, config.eval_games, seed=config.seed + 1,
                            scheme=config.reward, workers=config.workers, max_decisions=config.game_cap)
    append_csv(run_dir / "eval.csv", record["positions"], time.time() - started, results)
    score = selection_score(results, config.best_by)
    if score > previous_best(run_dir / "best"):
        save_best(run_dir / "best", here / "model.zip", record["positions"], score, results)
    record["eval"] = {r.opponent: [r.score.mean, r.score.low, r.score.high] for r in results}
    export(here / "model.zip", here / EXPORT, name=f"{run_dir.name}-round{round_no}")
    (here / ROUND_FILE).write_text(json.dumps(record, indent=1), encoding="utf-8")
    return record


def rounds_done(run_dir: Path) -> int:
    """How many rounds of the run are complete (their ``round.json`` written)."""
    done = 0
    while (round_dir(run_dir, done + 1) / ROUND_FILE).is_file():
        done += 1
    return done


def train(config: TrainConfig | None = None, *, resume: str | Path | None = None,
          overrides: list[str] | None = None) -> RunResult:
    """Run (or resume) expert iteration: ``rounds`` of self-play, distillation and evaluation, then the final
    evaluation of the best round's network."""
    import torch

    if config is not None and config.backend != "expert":
        raise ConfigError(f"backend: {config.backend!r} is not expert iteration")
    config, run_dir, _ = open_run(config, resume, overrides, lambda _: rounds_done(Path(resume or "")),
                                  checkpoint_required=False)
    started = time.time()
    deadline = started + config.max_seconds if config.max_seconds else None
    torch.set_num_threads(config.torch_threads)
    torch.manual_seed(config.seed)
    records = []
    for round_no in range(rounds_done(run_dir) + 1, config.rounds + 1):
        try:
            complete = generate(config, run_dir, round_no, deadline)
        except KeyboardInterrupt:  # the chunks on disk stay; the ones being played are lost
            print(f"\n{runnable(f'shithead train --resume {run_dir}')} carries on from the self-play games on disk")
            raise
        if not complete:
            print(f"stopped after max_seconds in round {round_no}'s self-play; "
                  f"{runnable(f'shithead train --resume {run_dir}')} carries on")
            return RunResult(run_dir, 0, time.time() - started, None, [])
        records.append(run_round(config, run_dir, round_no, started))
        print(f"round {round_no}: " + ", ".join(f"{k} {v}" for k, v in records[-1].items() if k != "round"))
    last = json.loads((round_dir(run_dir, config.rounds) / ROUND_FILE).read_text(encoding="utf-8"))
    return finish(config, run_dir, last["positions"], time.time() - started)
