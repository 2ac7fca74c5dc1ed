"""The model registry: generated from the cards and files, what the bots load, and the refusals around it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from agents.cli_models import format_models, list_models
from agents.registry import CHECKPOINTS, MAIN, PRETRAINED_DIR, REGISTRY_FILE, load_registry, verified
from agents.registry_build import build_registry


def test_the_registry_is_what_the_cards_and_files_make_today():
    """Regenerate it after a network, a card or a shipped form changes: python -m agents.registry_build."""
    assert load_registry() == build_registry()


def test_every_registered_file_is_in_the_repository_with_its_sha256():
    from agents.registry import sha256_of

    for net in load_registry()["networks"]:
        for entry in net["files"]:
            path = PRETRAINED_DIR / entry["file"]
            assert path.stat().st_size == entry["size"] and sha256_of(path) == entry["sha256"], entry["file"]


def test_the_default_bots_load_the_main_distributions_files():
    from agents import make_bot

    registry = load_registry()
    main = {net["name"] + ("" if net["kind"] == "policy" else f":{e['precision']}"): e["sha256"]
            for net in registry["networks"] for e in net["files"] if e["package"] == MAIN}
    auto, guided = make_bot("model:auto"), make_bot("guided")
    assert {m.name for m in auto.models} == {net["name"] for net in registry["networks"]
                                             if net["kind"] == "policy" and net["auto"]}
    for networks in (auto.card["networks"], guided.card["networks"]):
        assert networks and all(main[name] == sha for name, sha in networks.items())


def shelf_with(tmp_path: Path, directory: str) -> Path:
    """A copy of agents/pretrained holding only the registry and ``directory``."""
    root = tmp_path / "pretrained"
    shutil.copytree(PRETRAINED_DIR / directory, root / directory)
    shutil.copy(PRETRAINED_DIR / REGISTRY_FILE, root / REGISTRY_FILE)
    return root


def test_a_changed_checkpoint_is_refused_naming_the_file(tmp_path: Path):
    checkpoint = shelf_with(tmp_path, "dead_last_4p_v2") / "dead_last_4p_v2" / "policy.zip"
    assert verified(checkpoint) == checkpoint
    checkpoint.write_bytes(checkpoint.read_bytes() + b"\0")
    refusal = (rf"^{checkpoint}: its sha256 is [0-9a-f]{{64}}, but the model registry records [0-9a-f]{{64}}; "
               r"restore the file \(reinstall shithead-env-checkpoints\)$")
    with pytest.raises(ValueError, match=refusal):
        verified(checkpoint)


def test_a_file_that_is_not_installed_names_the_extra(tmp_path: Path):
    from agents import make_bot

    root = shelf_with(tmp_path, "dead_last_4p")
    (root / "dead_last_4p" / "model.onnx").unlink()
    (root / "dead_last_4p" / "policy.zip").unlink()
    hint = re.escape(f'not installed; it is in {CHECKPOINTS}: pip install "shithead-env[checkpoints]"')
    with pytest.raises(FileNotFoundError, match=rf"policy.zip: {hint}"):
        verified(root / "dead_last_4p" / "policy.zip")
    with pytest.raises(FileNotFoundError, match=rf"model.onnx: {hint}"):
        make_bot(f"model:{root / 'dead_last_4p'}")


def test_a_value_network_without_its_original_names_the_extra(tmp_path: Path):
    from agents.value_net import ValueNet

    root = shelf_with(tmp_path, "value_pub_2p")
    (root / "value_pub_2p" / "value.onnx").unlink()
    assert ValueNet(root / "value_pub_2p").precision == "fp16w"  # the shipped form needs no original
    with pytest.raises(FileNotFoundError, match=r'value.onnx: not installed; it is in shithead-env-originals: '
                                                r'pip install "shithead-env\[originals\]"'):
        ValueNet(root / "value_pub_2p", precision="fp32")


def test_models_lists_every_file_and_whether_it_is_here(tmp_path: Path):
    root = shelf_with(tmp_path, "value_pub_2p")
    rows = list_models(root)
    assert len(rows) == sum(len(net["files"]) for net in load_registry()["networks"])
    here = {row["file"] for row in rows if row["installed"]}
    assert here == {f"value_pub_2p/{name}" for name in ("value_fp16w.onnx", "value.onnx", "value_int8.onnx")}
    table = format_models(rows)
    assert "value_pub_2p" in table and "no: [checkpoints]" in table and "no: [originals]" in table
    json.dumps(rows)  # plain JSON for `shithead models --json`


def test_shithead_models_prints_the_registry(capsys):
    from shithead_env.cli import main

    assert main(["models", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == list_models()


def test_models_lists_a_folder_of_exports_from_their_cards(tmp_path: Path, capsys):
    """A folder without a registry (what ``shithead serve --models`` takes): its exported models, from the cards."""
    from shithead_env.cli import main

    shutil.copytree(PRETRAINED_DIR / "harrogate", tmp_path / "mine" / "harrogate")
    (tmp_path / "mine" / "harrogate" / "policy.zip").unlink()
    assert main(["models", "--models", str(tmp_path / "mine"), "--json"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["name"] == "harrogate" and row["file"] == "harrogate/model.onnx" and row["installed"]
    assert row["tables"] == {"harrogate": [2, 3, 4, 5]} and row["package"] is None
    assert main(["models", "--models", str(tmp_path / "mine"), "--kind", "value"]) == 2
    assert "no value network under it" in capsys.readouterr().err


def test_a_shipped_checkpoint_played_as_a_policy_bot_is_checked_first(tmp_path: Path):
    pytest.importorskip("sb3_contrib")
    from agents import make_bot

    root = shelf_with(tmp_path, "harrogate")
    checkpoint = root / "harrogate" / "policy.zip"
    assert make_bot(f"policy:{checkpoint}").act  # installed and unchanged: it plays
    checkpoint.write_bytes(checkpoint.read_bytes() + b"\0")
    with pytest.raises(ValueError, match=r"policy.zip: its sha256 is [0-9a-f]{64}, but the model registry records"):
        make_bot(f"policy:{checkpoint}")
    checkpoint.unlink()
    with pytest.raises(ValueError, match=r'policy.zip: not installed; it is in shithead-env-checkpoints: '
                                         r'pip install "shithead-env\[checkpoints\]"'):
        make_bot(f"policy:{checkpoint}")
