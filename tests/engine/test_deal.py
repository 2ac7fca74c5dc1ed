"""Game.deal: the deal from a given card order, what Game.new does after its shuffle."""

from __future__ import annotations

import numpy as np
import pytest

from shithead_env import Game
from shithead_env.cards import make_deck
from shithead_env.state import game_to_dict


@pytest.mark.parametrize("preset, players", [("dead_last", 4), ("online_classic", 7), ("pub", 2)])
def test_new_is_a_shuffle_then_deal(preset, players):
    game = Game.new(preset, players, seed=11)
    rng = np.random.default_rng(11)
    deck = make_deck(game.rules.decks_for(players), game.rules.jokers_per_deck)
    deck = [deck[i] for i in rng.permutation(len(deck))]
    dealer, opener = int(rng.integers(players)), int(rng.integers(players))
    assert game_to_dict(Game.deal(preset, players, deck, dealer, opener)) == game_to_dict(game)


def test_deal_refuses_a_wrong_deck_or_seat():
    deck = make_deck(1, 0)
    with pytest.raises(ValueError, match="deck must hold exactly the 52 cards"):
        Game.deal("dead_last", 2, deck[:-1], 0)
    with pytest.raises(ValueError, match="deck must hold exactly the 52 cards"):
        Game.deal("dead_last", 2, deck[:-1] + deck[:1], 0)
    with pytest.raises(ValueError, match=r"dealer must be a seat 0\.\.1, got 2"):
        Game.deal("dead_last", 2, deck, 2)
    with pytest.raises(ValueError, match=r"random_opener must be a seat 0\.\.1, got -1"):
        Game.deal("dead_last", 2, deck, 0, -1)
    with pytest.raises(ValueError, match="open with a random seat: give random_opener"):
        Game.deal("pub", 2, deck, 0)  # pub: a random seat opens
