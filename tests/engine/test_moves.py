"""``moves.refusal`` against ``moves.legal_moves``: one judge of every move, and the words a human reads."""

from __future__ import annotations

from collections import Counter

from shithead_env import NUM_ACTIONS, Action, Knowledge
from shithead_env.moves import REASONS
from shithead_env.render import _REFUSALS, why_illegal
from tests.helpers import PRESETS, random_positions

ACTIONS = [Action.from_index(i) for i in range(NUM_ACTIONS)]


def test_refusal_allows_exactly_the_legal_moves_and_names_every_rule() -> None:
    """Every action judged at every third position of random games of every preset: ``refusal`` allows exactly
    ``legal_moves``; each refusal has words, and random play meets every rule a seat's own turn can break."""
    assert set(_REFUSALS) == set(REASONS)
    seen: Counter = Counter()
    for preset in PRESETS:
        for game in random_positions(preset, seed=11, games=6, every=3):
            k = Knowledge.from_game(game, 0 if game.is_over else game.current)
            legal = set(game.legal_actions())
            for action in ACTIONS:
                why = k.refusal(action)
                assert (why is None) == (action in legal), (preset, action, why, game.to_dict())
                if why is not None:
                    seen[why.reason] += 1
                    assert why_illegal(k, action) != f"{action} is legal"
    assert set(seen) == set(REASONS) - {"not_your_turn"}, sorted(seen)


def test_another_seats_turn_is_refused_before_any_rule() -> None:
    game = next(random_positions("dead_last", 4, seed=3, depth=10))
    other = (game.current + 1) % 4
    k = Knowledge.from_game(game, other)
    assert {k.refusal(action) for action in ACTIONS} == {("not_your_turn", 0, 0, 0)}
    assert why_illegal(k, Action.pickup()) == f"it is P{game.current}'s decision, not yours"
