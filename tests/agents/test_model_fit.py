"""agents/model_fit.py and ``watch``: which other seats play like the opponent model, from one seat's moves seen."""

import threading

import numpy as np
import pytest

from agents import make_bot
from agents.model_fit import ModelFit, fit_for
from shithead_env import Game, Knowledge
from shithead_env.determinize import Determinizer


def watched_game(field: str, seed: int, until: int | None = None) -> tuple[Game, ModelFit]:
    """A 4-player dead_last game of ``heuristic`` in seat 0 and ``field`` in the others, watched from seat 0 by a
    fit of ``heuristic``, played to the end (or ``until`` decisions)."""
    game = Game.new("dead_last", 4, seed=seed)
    heuristic, other = make_bot("heuristic"), make_bot(field)
    fit = fit_for(game, 0, owner=None, model=heuristic)
    rng = np.random.default_rng(seed)
    while not game.is_over and (until is None or game.decisions < until):
        game.step((heuristic if game.current == 0 else other).act_game(game, game.current, rng))
    return game, fit


def test_heuristic_seats_keep_the_model_and_random_ones_lose_it():
    for seed in range(3):
        _, fit = watched_game("heuristic", seed)
        assert fit.modelled() == {1, 2, 3}
        assert sum(fit.tested.values()) > 20 and sum(fit.misses.values()) <= 1  # 0.1% of heuristic's moves miss
        _, fit = watched_game("random", seed)
        kept = fit.modelled()
        assert all(fit.tested[s] < 10 for s in kept)  # a seat out early may have made few choices, all heuristic's
        assert sum(fit.misses.values()) > sum(fit.tested.values()) / 4


def test_a_fit_is_kept_per_game_owner_and_seat_and_only_moves_with_a_choice_wait_for_the_test():
    game, fit = watched_game("random", 4, until=40)
    assert fit_for(game, 0, owner=None, model=fit.model) is fit
    assert fit_for(game, 1, owner=None, model=fit.model) is not fit
    assert fit_for(Game.new("dead_last", 4, seed=4), 0, owner=None, model=fit.model) is not fit
    assert all(then.current != 0 and then.phase != "swap" and len(then.legal_actions()) > 1
               for then, _ in fit.pending)


def test_the_test_reads_only_what_the_watching_seat_knows():
    """The same moves on a game whose other hidden cards are dealt otherwise (the seat's view unchanged) are
    judged alike: the test asks the seat's knowledge, never the real hands."""
    _, fit = watched_game("random", 5, until=60)
    rng = np.random.default_rng(0)
    redealt = ModelFit(None, fit.model, 0, 4)
    for then, action in fit.pending:
        knowledge = Knowledge.from_game(then, 0)
        other = Determinizer(knowledge).sample(rng)
        assert Knowledge.from_game(other, 0) == knowledge
        redealt.pending.append((other, action))
    assert fit.pending and fit.modelled() == redealt.modelled()
    assert fit.evidence == redealt.evidence and fit.tested == redealt.tested


def test_two_thoughts_in_one_game_test_each_move_once():
    """The server's late thought may still run while the same seat thinks its next move: both ask the one fit."""
    _, fit = watched_game("random", 5, until=200)
    alone = ModelFit(None, fit.model, 0, 4)
    alone.pending = list(fit.pending)
    threads = [threading.Thread(target=fit.modelled) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    alone.modelled()
    assert fit.tested == alone.tested and fit.evidence == alone.evidence and not fit.pending


def played_to_a_choice(field: str, bot, seed: int) -> Game:
    """A game of ``bot`` in seat 0 against ``field``, on to seat 0's turn with a choice after 80 decisions."""
    game, other, rng = Game.new("dead_last", 4, seed=seed), make_bot(field), np.random.default_rng(seed)
    while game.decisions < 80 or game.current != 0 or len(game.legal_actions()) < 2:
        game.step(bot.act_game(game, 0, rng) if game.current == 0 else other.act_game(game, game.current, rng))
    return game


@pytest.mark.parametrize(("field", "asked"), [("heuristic", True), ("random", False)])
def test_with_watch_the_search_models_only_the_seats_that_fit(field, asked):
    bot = make_bot("ismcts:opponents=heuristic,watch=true,sims=30")
    calls = []
    model_act = bot.opponent_model.act_game
    bot.opponent_model.act_game = lambda game, seat, rng: calls.append(seat) or model_act(game, seat, rng)
    game, rng = played_to_a_choice(field, bot, 6), np.random.default_rng(6)
    fit_for(game, 0, bot, bot.opponent_model).modelled()  # the moves since its last turn tested (the model asked)
    calls.clear()
    bot.act_game(game, 0, rng)
    assert bool(calls) == asked


def test_a_search_models_its_own_games_seats_while_another_runs_on_the_same_bot():
    """The server runs one served bot's moves of several games at once: a search that begins and ends inside
    another (here, from the other's leaf scoring) must not change which seats the other's tree models."""
    bot = make_bot("ismcts:opponents=heuristic,watch=true,sims=30")
    searched, modelled = played_to_a_choice("random", bot, 6), played_to_a_choice("heuristic", bot, 6)
    assert fit_for(searched, 0, bot, bot.opponent_model).modelled() == frozenset()
    calls, nested = [], []
    model_act, score_leaves = bot.opponent_model.act_game, bot._score_leaves
    bot.opponent_model.act_game = lambda game, seat, rng: calls.append(seat) or model_act(game, seat, rng)

    def score_and_search_once(games, rng, root):
        if not nested:
            nested.append(modelled)
            bot.act_game(modelled, 0, np.random.default_rng(1))
            assert calls, "the inner search's model played no seat"
            calls.clear()
        return score_leaves(games, rng, root)

    bot._score_leaves = score_and_search_once
    bot.act_game(searched, 0, np.random.default_rng(2))
    assert nested and calls == []  # the outer search went on modelling none of its seats


def test_watch_needs_a_model():
    with pytest.raises(ValueError, match="option 'watch' needs a model to test the other seats' moves against"):
        make_bot("ismcts:watch=true")
    assert "watch" not in make_bot("guided:opponents=heuristic").card  # named only when set
    assert make_bot("guided:opponents=heuristic,watch=true").card["watch"] is True


def test_once_its_seat_is_out_the_fit_keeps_no_more_moves():
    game, fit = watched_game("random", 7)
    out = game.finish_order.index(0) if 0 in game.finish_order else None
    assert out is not None, "seat 0 (heuristic) went out against random seats"
    assert all(then.active[0] for then, _ in fit.pending)
