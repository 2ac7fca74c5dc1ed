"""train.quantize: an int8 copy of a value network, listed and measured on its card, loaded by precision="int8"."""

from __future__ import annotations

import hashlib
import json
import shutil

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

from agents.value_net import PRETRAINED_DIR, VALUE_CARD, VALUE_MODEL, VALUE_MODEL_INT8, ValueNet, load_values
from train.quantize import main
from train.value import play_games


@pytest.fixture
def network(tmp_path):
    """A shipped value network's directory, copied without its int8 copy."""
    directory = tmp_path / "value_pub_2p"
    directory.mkdir()
    shutil.copy(PRETRAINED_DIR / "value_pub_2p" / VALUE_MODEL, directory)
    card = json.loads((PRETRAINED_DIR / "value_pub_2p" / VALUE_CARD).read_text(encoding="utf-8"))
    card["model"].pop("int8", None)
    (directory / VALUE_CARD).write_text(json.dumps(card), encoding="utf-8")
    return directory


def test_the_copy_is_listed_with_its_sha256_and_both_measurements(network, capsys):
    original = (network / VALUE_MODEL).read_bytes()
    assert main([str(network), "--games", "12", "--positions", "4"]) == 0
    entry = json.loads((network / VALUE_CARD).read_text(encoding="utf-8"))["model"]["int8"]
    assert entry["file"] == VALUE_MODEL_INT8
    assert entry["sha256"] == hashlib.sha256((network / VALUE_MODEL_INT8).read_bytes()).hexdigest()
    assert entry["measured_on"] == {"bot": "heuristic", "games_per_table": 12, "positions": 48}
    assert abs(entry["r2_int8"] - entry["r2_fp32"]) < 0.05
    assert (network / VALUE_MODEL).read_bytes() == original  # the network as trained is kept as it was
    assert (network / VALUE_MODEL_INT8).stat().st_size < len(original) / 3
    assert "int8 copy R^2" in capsys.readouterr().out


def test_the_copy_scores_positions_as_the_network_does_to_within_its_rounding(network):
    main([str(network), "--games", "12", "--positions", "4"])
    rows = play_games("pub", 2, "heuristic", [5, 6, 7, 8], positions=10)["features"].astype(np.float32)
    fp32, int8 = ValueNet(network, precision="fp32"), ValueNet(network, precision="int8")
    gap = np.abs(fp32.run(rows) - int8.run(rows))[:, :2]
    assert gap.max() < 0.15 and gap.mean() < 0.03
    assert fp32.networks == {"value_pub_2p": fp32.card["model"]["sha256"]}  # the name alone: as trained
    assert int8.networks == {"value_pub_2p:int8": int8.card["model"]["int8"]["sha256"]}  # a card tells them apart


def test_a_network_without_a_copy_names_the_command_that_makes_one(network):
    with pytest.raises(ValueError, match=r"python -m train\.quantize"):
        ValueNet(network, precision="int8")


def test_a_copy_other_than_the_card_says_is_refused(network):
    main([str(network), "--games", "12", "--positions", "4"])
    (network / VALUE_MODEL_INT8).write_bytes((network / VALUE_MODEL_INT8).read_bytes() + b"\0")
    with pytest.raises(ValueError, match="sha256"):
        ValueNet(network, precision="int8")


def test_an_unknown_precision_is_refused_in_one_line():
    with pytest.raises(ValueError, match="precision must be one of shipped, fp32, int8, got 'fp16'"):
        load_values(precision="fp16")


def test_bad_arguments_are_refused_by_name(network, capsys):
    with pytest.raises(SystemExit):
        main([str(network), "--games", "0"])
    assert "--games and --positions must be at least 1" in capsys.readouterr().err


def test_a_copy_that_explains_less_of_the_outcome_is_not_kept(network, monkeypatch):
    import train.value

    card = (network / VALUE_CARD).read_text(encoding="utf-8")
    monkeypatch.setattr(train.value, "INT8_MAX_R2_LOSS", -1.0)  # every copy falls short of this
    with pytest.raises(ValueError, match=r"the int8 copy explains R\^2 .* not kept"):
        main([str(network), "--games", "12", "--positions", "4"])
    assert not (network / VALUE_MODEL_INT8).exists()
    assert json.loads((network / VALUE_CARD).read_text(encoding="utf-8")) == json.loads(card)
