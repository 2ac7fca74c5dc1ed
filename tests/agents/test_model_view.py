"""The model bot encodes a seat's view (one forward pass a move) and never deals out hidden cards to do it."""

from __future__ import annotations

import cProfile
import pstats

import numpy as np
import pytest

from agents.base import make_bot
from agents.protocol import handle_request
from shithead_env import Game


def _files_called(run) -> set[str]:
    profile = cProfile.Profile()
    profile.enable()
    try:
        run()
    finally:
        profile.disable()
    return {filename for filename, _, _ in pstats.Stats(profile).stats}


@pytest.mark.parametrize("spec", ["model:agents/pretrained/dead_last_4p", "model:auto"])
def test_the_model_bot_plays_views_without_the_determinizer(spec: str) -> None:
    bot = make_bot(spec)
    rng = np.random.default_rng(0)
    game = Game.new("dead_last", 4, seed=11)
    replies = []

    def play() -> None:
        while not game.is_over:
            seat = game.current
            view = game.view(seat)
            action = bot.act(view, rng)
            assert action == bot.act_game(game, seat, rng)
            if game.decisions % 25 == 0:
                replies.append(handle_request(bot, view))
            game.step(action)

    called = _files_called(play)
    assert any(name.endswith("onnx_bot.py") for name in called)  # the profile sees the bot's own calls
    assert not any(name.endswith("determinize.py") for name in called)
    assert replies and all(reply.status == 200 for reply in replies)


def test_the_profile_would_see_a_determinizer_call() -> None:
    """The check above can fail: a search bot's move does call into the determinizer."""
    bot = make_bot("ismcts:sims=4")
    game = Game.new("dead_last", 4, seed=11)
    while len(game.legal_actions()) < 2:
        game.step(game.legal_actions()[0])
    called = _files_called(lambda: bot.act(game.view(game.current), np.random.default_rng(0)))
    assert any(name.endswith("determinize.py") for name in called)
