"""The one-ply lookahead bot: its move values are the value network's over the deals it samples, exact at a game's
end, the same from the view as from the game, and its options and tables are checked."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_bot
from agents.lookahead import LookaheadBot
from agents.value_net import ValueNet
from shithead_env import NUM_ACTIONS, Game, Knowledge
from shithead_env.determinize import Determinizer
from shithead_env.scoring import final_scores
from tests.agents.test_guided import DEAD_LAST_VALUE, decision_points


def test_each_move_is_valued_by_the_network_on_the_same_sampled_deals():
    """Recomputed by hand: the same determinizations (same rng), each move played, the mover's network score."""
    game = next(g for g in decision_points() if len(g.legal_actions()) >= 3)
    seat, knowledge = game.current, Knowledge.from_game(game, game.current)
    stats = LookaheadBot(samples=3).search(knowledge, np.random.default_rng(4))
    net, determinizer, rng = ValueNet(DEAD_LAST_VALUE), Determinizer(knowledge), np.random.default_rng(4)
    expected = {action: 0.0 for action in knowledge.legal}
    for _ in range(3):
        deal = determinizer.sample(rng)
        for action in knowledge.legal:
            child = deal.copy()
            child.step(action)
            expected[action] += (final_scores(child) if child.is_over else net.scores([child])[0])[seat] / 3
    assert set(stats) == set(knowledge.legal)
    for action, (samples, mean) in stats.items():
        assert samples == 3
        assert mean == pytest.approx(expected[action], abs=1e-5)


def test_a_move_that_ends_the_game_is_scored_exactly():
    """Two seats left, the mover one card from going out: the move that empties its hand scores the game's end."""
    heuristic, rng = make_bot("heuristic"), np.random.default_rng(0)
    bot = LookaheadBot(samples=2)
    for seed in range(40):
        game = Game.new("dead_last", 4, seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            ending = [a for a in legal if _ends(game, a)]
            if ending and len(legal) > 1:
                stats = bot.search(Knowledge.from_game(game, game.current), rng)
                for action in ending:
                    child = game.copy()
                    child.step(action)
                    assert stats[action][1] == pytest.approx(final_scores(child)[game.current])
                return
            game.step(heuristic.act_game(game, game.current, rng))
    pytest.fail("no position with a game-ending move among several in 40 heuristic games")


def _ends(game: Game, action) -> bool:
    """Whether ``action`` ends the game whatever the hidden cards (it plays no face-down card)."""
    child = game.copy()
    child.step(action)
    return child.is_over and action.kind == "play"


def test_policy_is_a_softmax_of_the_values_over_the_legal_moves_and_plays_the_best():
    bot = make_bot("lookahead:samples=4")
    rng = np.random.default_rng(1)
    for count, game in enumerate(decision_points()):
        knowledge = Knowledge.from_game(game, game.current)
        action, probs = bot.policy(knowledge, rng)
        assert game.is_legal(action)
        assert probs.shape == (NUM_ACTIONS,)
        assert probs[[a.index for a in knowledge.legal]].sum() == pytest.approx(1.0)
        assert probs[action.index] == probs.max()
        if count == 10:
            break


def test_temperature_draws_the_move_and_a_seed_replays_it():
    game = next(g for g in decision_points() if len(g.legal_actions()) >= 3)
    seat = game.current
    bot = make_bot("lookahead:samples=4,temperature=10")
    drawn = {bot.act_game(game, seat, np.random.default_rng(s)) for s in range(20)}
    assert len(drawn) > 1  # a flat softmax over three or more moves
    assert bot.act(game.view(seat), np.random.default_rng(3)) == bot.act_game(game, seat, np.random.default_rng(3))


@pytest.mark.parametrize(
    ("spec", "named"),
    [("lookahead:samples=0", "samples >= 1"), ("lookahead:policy_temp=0", "policy_temp > 0"),
     ("lookahead:temperature=-1", "temperature >= 0"), ("lookahead:value=nowhere", "not a value network directory"),
     ("lookahead:rollout=model:auto,value=agents/pretrained/value_dead_last_4p", "value or rollout, not both"),
     ("lookahead:opponents=greedy", "need rollout=SPEC"), ("lookahead:horizon=50", "need rollout=SPEC"),
     ("lookahead:rollout=nobot", "unknown bot 'nobot'")],
)
def test_bad_options_are_refused_by_name(spec, named):
    with pytest.raises((ValueError, FileNotFoundError), match=named):
        make_bot(spec)


def test_lookahead_refuses_a_table_its_value_network_was_not_trained_for():
    from agents.base import table_mismatch
    from shithead_env import load_rules

    bot = make_bot("lookahead:samples=2")
    assert bot.covers("dead_last", 4) and not bot.covers("pub", 5)
    assert "value network" in table_mismatch(bot, load_rules("pub"), 5)


def test_rollout_leaves_replay_the_games_out_with_the_rollout_bots():
    """Recomputed by hand: the same samples, each move played, then the seat by the network and the others by
    ``heuristic`` to the end; the mean of the seat's final scores."""
    from agents.rollouts import play_out

    game = next(g for g in decision_points() if len(g.legal_actions()) >= 3)
    seat, knowledge = game.current, Knowledge.from_game(game, game.current)
    stats = make_bot("lookahead:samples=3,rollout=model:auto").search(knowledge, np.random.default_rng(4))
    network, heuristic = make_bot("model:auto"), make_bot("heuristic")
    determinizer, rng = Determinizer(knowledge), np.random.default_rng(4)
    children = {action: [] for action in knowledge.legal}
    for _ in range(3):
        deal = determinizer.sample(rng)
        for action in knowledge.legal:
            child = deal.copy()
            child.step(action)
            children[action].append(child)
    for action, games in children.items():
        by_hand = []
        for child in games:
            child.max_decisions = child.decisions + 300  # the default horizon
            while not child.is_over:
                mover = network if child.current == seat else heuristic
                child.step(mover.act_game(child, child.current, rng))
            by_hand.append(final_scores(child)[seat])
        assert stats[action] == (3, pytest.approx(np.mean(by_hand)))
    assert play_out([], seat, network, heuristic, rng, 10).shape == (0,)


def test_play_out_stops_at_the_horizon_with_the_places_left_split():
    from agents.rollouts import play_out

    games = [Game.new("dead_last", 4, seed=s) for s in range(6)]
    scores = play_out(games, 1, make_bot("model:auto"), make_bot("heuristic"), np.random.default_rng(0), 12)
    for game, score in zip(games, scores, strict=True):
        assert game.is_over and game.decisions <= 12 and game.truncated
        assert score == pytest.approx(final_scores(game)[1])


def test_a_network_answers_a_batch_of_games_as_it_answers_each_alone():
    games = [g.copy() for _, g in zip(range(40), decision_points(), strict=False)]
    bot, rng = make_bot("model:auto"), np.random.default_rng(0)
    for seat in range(4):
        asked = [g for g in games if g.current == seat]
        assert bot.act_games(asked, seat, rng) == [bot.act_game(g, seat, rng) for g in asked]
    assert bot.act_games([], 0, rng) == []


def test_rollout_lookahead_covers_its_rollout_bots_tables_and_refuses_a_bad_horizon():
    bot = make_bot("lookahead:rollout=model:auto")
    assert bot.covers("dead_last", 4) and bot.card["rollout"] == "model:auto" and bot.value is None
    assert not bot.covers("dead_last", 9)
    with pytest.raises(ValueError, match="horizon >= 1"):
        make_bot("lookahead:rollout=model:auto,horizon=0")
