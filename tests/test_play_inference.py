"""benchmarks/play_inference.py: a soft narrowing of the hidden hands from every decision, read from public history."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np

from agents import make_bot
from shithead_env import Game, Knowledge
from shithead_env.cards import RANKS
from shithead_env.inference import fits, hidden_cards

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
_spec = importlib.util.spec_from_file_location("play_inference", BENCHMARKS / "play_inference.py")
play_inference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(play_inference)


def narrowed_game(seed: int, decisions: int | None = None) -> tuple[Game, object, int, int]:
    """A 4-player dead_last game of ``heuristic`` seats with a soft narrowing under the ``heuristic`` model, every
    hidden hand checked against it after every step; the game, the narrowing, and how many seat-steps were
    narrowed and checked."""
    soft = play_inference.SoftNarrowing(make_bot("heuristic"))
    game, rng, bot = Game.new("dead_last", 4, seed=seed), np.random.default_rng(seed), make_bot("heuristic")
    narrowed = checked = 0
    while not game.is_over and game.decisions != decisions:
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
    return game, soft, narrowed, checked


def test_seats_that_play_as_the_model_always_hold_hidden_cards_that_fit_their_soft_narrowing():
    narrowed = checked = 0
    for seed in range(6):
        _, _, n, c = narrowed_game(seed)
        narrowed, checked = narrowed + n, checked + c
    assert narrowed > checked / 10  # it narrows often, not just soundly


def test_a_heuristic_seat_that_lays_a_plain_rank_on_an_empty_pile_held_no_lower_one_and_no_more_of_it():
    plain = "456789"  # dead_last's plain ranks below the ten (2, 3 and 10 are its magic ones)
    found = 0
    for seed in range(10):
        game, rng, heuristic = Game.new("dead_last", 4, seed=seed), np.random.default_rng(seed), make_bot("heuristic")
        while not game.is_over:
            seat, action = game.current, heuristic.act_game(game, game.current, rng)
            played = [c for c in game.hands[seat] if RANKS[c >> 2] == action.rank]  # none from the face-up cards
            if not game.pile and action.kind == "play" and action.rank in plain[1:] and not game.known[seat] and played:
                knowledge = Knowledge.from_game(game, seat)
                allowed = play_inference.model_allowed(knowledge, [], played, action, heuristic, rng)
                ranks = {RANKS[r] for r in range(len(RANKS)) if allowed >> r & 1}
                assert action.rank not in ranks  # it lays every copy it holds
                assert not ranks & set(plain[: plain.index(action.rank)])  # and the lowest plain rank it holds
                assert ranks & set("JQKA")  # a higher one need not have changed its move
                found += 1
            game.step(action)
    assert found


def test_the_deals_fit_the_soft_narrowing_and_are_the_plain_ones_when_nothing_fits():
    game, soft, _, _ = narrowed_game(2, decisions=30)
    seat = game.current
    knowledge = Knowledge.from_game(game, seat)
    masks = [list(m) if s != seat else [] for s, m in enumerate(soft.masks)]
    assert any(masks)
    rng = np.random.default_rng(0)
    deals = play_inference.SoftDeterminizer(knowledge, masks)
    for _ in range(20):
        sample = deals.sample(rng)
        assert sample.narrowed == game.narrowed  # what the table has seen, not the soft narrowing
        for s, seat_masks in enumerate(masks):
            if seat_masks and not game.narrowed[s]:
                assert fits(seat_masks, hidden_cards(sample.hands[s], game.known[s]))
    impossible = [[1 << 12] * 8 if m else [] for m in masks]  # eight aces in a hand: no deal fits
    fallback = play_inference.SoftDeterminizer(knowledge, impossible)
    sample = fallback.sample(rng)
    assert fallback.knowledge is knowledge and [len(h) for h in sample.hands] == [len(h) for h in game.hands]


def test_the_script_plays_the_inferring_arm_beside_the_plain_one(tmp_path):
    command = [sys.executable, BENCHMARKS / "hands_seen.py", "--arm", "history", "--bot", "ismcts:sims=10",
               "--opponents", "heuristic", "--games", "4", "--cache", str(tmp_path)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = {line.split("|")[1].strip(" `"): line.split("|")[3].strip() for line in out.splitlines()
            if line.startswith("| `")}
    arm = "ismcts:sims=10+history(model=heuristic)"
    assert set(rows) == {"ismcts:sims=10", arm} and rows["ismcts:sims=10"] == "reference" and rows[arm][0] in "+-"
