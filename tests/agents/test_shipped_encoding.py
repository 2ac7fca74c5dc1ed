"""Each shipped model is fed the encoding version its card names, and plays three seeded games move for move as
recorded, whatever the current encoding version."""

from __future__ import annotations

import pytest

from agents.base import make_bot
from agents.onnx_bot import PRETRAINED_DIR, load_card, shipped_model_dirs
from shithead_env import ENCODINGS
from tests.helpers import played_games

# spec -> (rules, players, decisions in the three games, sha256 prefix of their action indices). A training
# checkpoint plays as its export; the shipped model.onnx, made from the export (agents/pretrained/*/bot.json's
# model.precision), chooses the same action at 99.8% of positions or more, so in these games it may differ once.
RECORDED = {
    "model:agents/pretrained/dead_last_4p": ("dead_last", 4, 332, "695854df6fb9ab8f"),
    "policy:agents/pretrained/dead_last_4p/policy.zip": ("dead_last", 4, 332, "695854df6fb9ab8f"),
    "model:agents/pretrained/harrogate": ("harrogate", 4, 300, "2e05251c6cf35027"),
    "model:agents/pretrained/generalist": ("dead_last", 4, 296, "2fd0fa5ed30ffe18"),
    "model:agents/pretrained/dead_last_4p_v2": ("dead_last", 4, 299, "415a0ef155409ef9"),
    "policy:agents/pretrained/dead_last_4p_v2/policy.zip": ("dead_last", 4, 299, "415a0ef155409ef9"),
    "model:agents/pretrained/dead_last_4p_expert": ("dead_last", 4, 293, "638cc0126fe0a613"),
    "policy:agents/pretrained/dead_last_4p_expert/policy.zip": ("dead_last", 4, 293, "638cc0126fe0a613"),
    "model:agents/pretrained/many_seats": ("online_classic", 7, 638, "506bc4fef52c1f25"),
    "policy:agents/pretrained/many_seats/policy.zip": ("online_classic", 7, 638, "506bc4fef52c1f25"),
    "model:agents/pretrained/generalist_v2": ("pub", 4, 303, "7204ac146572bc85"),
    "policy:agents/pretrained/generalist_v2/policy.zip": ("pub", 4, 302, "082e3b0a8a6f4f60"),
    "model:agents/pretrained/four_players": ("power_deck", 4, 444, "072ddea9e4d5a8b3"),
    "policy:agents/pretrained/four_players/policy.zip": ("power_deck", 4, 444, "072ddea9e4d5a8b3"),
    "model:agents/pretrained/harrogate_4p": ("harrogate", 4, 348, "f5e1db93e7a304d1"),
    "policy:agents/pretrained/harrogate_4p/policy.zip": ("harrogate", 4, 348, "f5e1db93e7a304d1"),
}


VERSIONS = {"dead_last_4p": 1, "generalist": 1, "harrogate": 1, "dead_last_4p_v2": 2, "dead_last_4p_expert": 2,
            "many_seats": 2, "generalist_v2": 2, "four_players": 2, "harrogate_4p": 2}


def test_every_shipped_card_is_fed_the_version_it_names() -> None:
    dirs = shipped_model_dirs(PRETRAINED_DIR)
    assert sorted(d.name for d in dirs) == sorted(VERSIONS)
    for directory in dirs:
        card = load_card(directory)
        version = VERSIONS[directory.name]
        assert (card["encoding_version"], card["observation_size"]) == (version, ENCODINGS[version].size)
        assert make_bot(f"model:{directory}").encoding is ENCODINGS[version]


@pytest.mark.parametrize("spec", list(RECORDED))
def test_a_shipped_model_plays_the_recorded_games(spec: str) -> None:
    """Three seeded games, the bot in every seat, through the game fast path and the JSON view."""
    if spec.startswith("policy:"):
        pytest.importorskip("sb3_contrib")
    rules, players, decisions, digest = RECORDED[spec]
    bot = make_bot(spec)
    assert played_games(bot, rules, players, range(3)) == (decisions, digest)
    encoding = bot.actor.encoding if spec.startswith("policy:") else bot.encoding
    assert encoding is ENCODINGS[VERSIONS[spec.split("/")[2]]]
