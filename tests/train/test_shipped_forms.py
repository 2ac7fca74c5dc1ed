"""The shipped forms (train.shipped_forms): made from the network as trained, agreeing with it, listed on its card."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from agents.registry import PRETRAINED_DIR
from train.value import play_games

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")


@pytest.mark.parametrize(("form", "largest_share", "largest_difference"), [("int8w", 1 / 3, 0.05),
                                                                          ("fp16w", 1 / 1.9, 0.005)])
def test_a_value_networks_shipped_form_scores_as_the_network_does(
    tmp_path: Path, form: str, largest_share: float, largest_difference: float
):
    from agents.value_net import SHIPPED_FILES, VALUE_CARD, VALUE_MODEL, ValueNet
    from train.shipped_forms import add_shipped_value, value_cells

    directory = tmp_path / "value_pub_2p"
    shutil.copytree(PRETRAINED_DIR / "value_pub_2p", directory)
    card = json.loads((directory / VALUE_CARD).read_text(encoding="utf-8"))
    entry = add_shipped_value(directory, form)
    target = directory / SHIPPED_FILES[form]
    assert entry["sha256"] == hashlib.sha256(target.read_bytes()).hexdigest() and entry["precision"] == form
    written = json.loads((directory / VALUE_CARD).read_text(encoding="utf-8"))
    assert written["model"]["shipped"] == entry and written["model"]["sha256"] == card["model"]["sha256"]
    assert [path.name for path in directory.glob("value_*w.onnx")] == [target.name]  # the form it replaced is gone
    assert target.stat().st_size < (directory / VALUE_MODEL).stat().st_size * largest_share
    rows = play_games("pub", 2, "heuristic", [11, 12, 13, 14], positions=20)["features"].astype(np.float32)
    shipped, original = ValueNet(directory), ValueNet(directory, precision="fp32")
    assert shipped.precision == form and shipped.networks == {f"value_pub_2p:{form}": entry["sha256"]}
    a, b = original.run(rows)[:, :2], shipped.run(rows)[:, :2]
    assert 1 - ((a - b) ** 2).sum() / ((a - a.mean()) ** 2).sum() > 0.999 and np.abs(a - b).max() < largest_difference
    absent, _ = value_cells(2)
    noisy = rows.copy()
    noisy[:, absent] = 1.0  # inputs that are zero at this table: the shipped form does not read them
    assert np.array_equal(shipped.run(noisy), shipped.run(rows))


def test_an_unknown_form_is_refused_naming_the_forms():
    from train.shipped_forms import add_shipped_value

    with pytest.raises(ValueError, match="form must be one of int8w, fp16w, got 'int4'"):
        add_shipped_value(PRETRAINED_DIR / "value_pub_2p", "int4")


def test_a_policys_shipped_form_chooses_the_exports_actions(tmp_path: Path):
    from agents.onnx_bot import CARD_FILE, MODEL_FILE, OnnxBot, load_card, onnx_session
    from shithead_env import Game, Knowledge, legal_mask
    from train.shipped_forms import MODEL_EXPORT, add_shipped_policy

    directory = tmp_path / "four_players"
    directory.mkdir()
    shutil.copy(PRETRAINED_DIR / "four_players" / MODEL_EXPORT, directory / MODEL_FILE)
    card = load_card(PRETRAINED_DIR / "four_players")
    card["model"]["sha256"] = card["model"].pop("export")["sha256"]  # the card as the export wrote it
    del card["model"]["precision"]
    (directory / CARD_FILE).write_text(json.dumps(card), encoding="utf-8")
    entry = add_shipped_policy(directory)
    assert entry["export"]["sha256"] == card["model"]["sha256"] != entry["sha256"] and entry["precision"] == "int8w"
    assert (directory / MODEL_FILE).stat().st_size < (directory / MODEL_EXPORT).stat().st_size / 3
    bot = OnnxBot(str(directory))
    export = onnx_session(directory / MODEL_EXPORT, 1, entry["export"]["sha256"])
    seen = []
    for rules, seed in (("pub", 1), ("harrogate", 2), ("power_deck", 3)):
        game, rng = Game.new(rules, 4, seed=seed), np.random.default_rng(seed)
        while not game.is_over and len(seen) < 60 * seed:
            seen.append(Knowledge.from_game(game, game.current))
            game.step(bot.act_game(game, game.current, rng))
    observations = np.stack([bot.encoding.encode(k) for k in seen]).astype(np.float32)
    masks = np.stack([legal_mask(k) for k in seen]).astype(bool)
    (got, _), (want, _) = bot.session.run(None, {"observation": observations, "action_mask": masks}), export.run(
        None, {"observation": observations, "action_mask": masks})
    assert np.mean(got.argmax(axis=1) == want.argmax(axis=1)) >= 0.99 and np.abs(got - want)[masks].max() < 0.5
    unread = bot.encoding.offsets["seat_present"] + np.arange(4, 10)  # seat slots past the card's 4 seats
    noisy = observations.copy()
    noisy[:, unread] = 1.0
    assert np.array_equal(bot.session.run(None, {"observation": noisy, "action_mask": masks})[0], got)


def test_the_recorded_agreement_prints_as_the_results_pages_tables(tmp_path: Path):
    """``--table`` reads the results file only; a form short of either measure is marked **no**."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "check_shipped_forms.py"
    policy = {"form": "int8w",
              "actions": {"positions": 20000, "same_action": 19990, "max_abs_logit_difference": 0.5, "passes": True},
              "paired": {"deals": 2000, "tables": ["pub:2", "pub:3"], "score_difference": 0.01, "low": -0.02,
                         "high": 0.04, "passes": True}}
    value = {"form": "int8w",
             "outputs": {"positions": 20000, "max_abs_difference": 0.0159, "r2": 0.999977, "passes": True},
             "guided": {"positions": 1000, "same_move": 958, "passes": False}}
    results = tmp_path / "forms.json"
    results.write_text(json.dumps({"networks": {"a_policy": policy, "value_x_2p": value}}), encoding="utf-8")
    run = subprocess.run([sys.executable, str(script), "--table", "--out", str(results)], capture_output=True,
                         text=True, check=True)
    lines = run.stdout.splitlines()
    assert "| `a_policy` | int8w | 2 | 19,990 / 20,000 | 0.5 | 2,000 | +0.010 [-0.020, +0.040] | yes |" in lines
    assert "| `value_x_2p` | int8w | 20,000 | 0.0159 | 0.999977 | 958 / 1,000 | **no** |" in lines
