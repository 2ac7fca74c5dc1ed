"""benchmarks/play_inference.py: deals weighted by the others' last decisions, read from public history only."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from agents import make_bot
from shithead_env import Game, Knowledge
from shithead_env.inference import fits, hidden_cards
from shithead_env.phases import PLAY

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
_spec = importlib.util.spec_from_file_location("play_inference", BENCHMARKS / "play_inference.py")
play_inference = sys.modules["play_inference"] = importlib.util.module_from_spec(_spec)  # its dataclass needs it
_spec.loader.exec_module(play_inference)


def watched_game(seed: int, until) -> tuple[Game, object, dict[int, list[int]]]:
    """A 4-player dead_last game of ``heuristic`` seats, every decision watched, played until ``until(game)``;
    also each seat's true hand at its last decision (the test's, never the recorder's)."""
    recorder = play_inference.PlayRecorder()
    bots = [play_inference.watched(make_bot("heuristic"), recorder) for _ in range(4)]
    game, rng, last_hands = Game.new("dead_last", 4, seed=seed), np.random.default_rng(seed), {}
    while not game.is_over and not until(game):
        last_hands[game.current] = sorted(game.hands[game.current])
        game.step(bots[game.current].act_game(game, game.current, rng))
    return game, recorder, last_hands


def late(game: Game) -> bool:
    """In play, the draw pile empty: nobody draws any more, so every hand then is rebuilt exactly."""
    return game.phase == PLAY and game.draw_pile_size == 0 and game.decisions > 40


def test_a_decision_keeps_no_hand_and_the_hand_then_is_rebuilt_from_public_events():
    exact = drew = 0
    for seed in range(8):
        game, recorder, last_hands = watched_game(seed, lambda g, seed=seed: g.decisions > 8 + 4 * seed)
        for s, decision in recorder.decisions(game, game.current).items():
            assert decision.knowledge.hand == [] and decision.knowledge._game is None
            drawn = sum(e.data["count"] for e in recorder.events[decision.events_before:]
                        if e.kind == "draw" and e.seat == s)
            hand = play_inference.hand_then(decision, recorder.events, game.hands[s], game.known[s],
                                            np.random.default_rng(0))
            assert hand is not None and len(hand) == len(last_hands[s])
            if drawn:  # which hidden cards were the drawn ones is a guess; the rest is exact
                drew += 1
                assert len(Counter(hand) - Counter(last_hands[s])) <= drawn
            else:
                exact += 1
                assert sorted(hand) == last_hands[s]
    assert exact and drew


def test_the_true_deal_fits_an_exact_model_and_some_sampled_deals_do_not():
    discriminated = False
    for seed in range(8):
        game, recorder, _ = watched_game(seed, late)
        if game.is_over:
            continue
        seat = game.current
        knowledge = Knowledge.from_game(game, seat)
        decisions = recorder.decisions(game, seat)
        weigh = play_inference.PlayWeightedDeterminizer(knowledge, decisions, recorder.events, make_bot("heuristic"),
                                                        agree=1.0, deals=40)
        rng = np.random.default_rng(seed)
        assert weigh.likelihood(game, rng) == 1.0  # nobody draws from an empty pile: every hand rebuilt exactly
        weigh.sample(rng)
        assert weigh.weights.sum() == 1.0 or np.isclose(weigh.weights.sum(), 1.0)
        discriminated |= bool((weigh.weights == 0).any())
    assert discriminated


def test_the_script_plays_the_inferring_arm_beside_the_plain_one(tmp_path):
    command = [sys.executable, BENCHMARKS / "hands_seen.py", "--arm", "plays", "--bot", "ismcts:sims=10",
               "--opponent", "heuristic", "--games", "4", "--deals", "20", "--cache", str(tmp_path)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = {line.split("|")[1].strip(" `"): line.split("|")[3].strip() for line in out.splitlines()
            if line.startswith("| `")}
    arm = "ismcts:sims=10+plays(model=heuristic,agree=0.9,deals=20)"
    assert set(rows) == {"ismcts:sims=10", arm} and rows["ismcts:sims=10"] == "reference" and rows[arm][0] in "+-"


def test_a_heuristic_seats_hidden_cards_always_fit_its_soft_narrowing_under_the_heuristic_model():
    narrowed = checked = 0
    for seed in range(6):
        soft = play_inference.SoftNarrowing(make_bot("heuristic"))
        game, rng, bot = Game.new("dead_last", 4, seed=seed), np.random.default_rng(seed), make_bot("heuristic")
        while not game.is_over:
            seat = game.current
            action = bot.act_game(game, seat, rng)
            soft.chose(game, seat, action)
            game.step(action)
            soft.update(game)
            for s in range(4):
                hidden = hidden_cards(game.hands[s], game.known[s])
                assert len(soft.masks[s]) <= len(hidden)
                checked += 1
                if soft.masks[s]:
                    narrowed += 1
                    assert fits(soft.masks[s], hidden), (seed, game.decisions, s)
    assert narrowed > checked / 10
