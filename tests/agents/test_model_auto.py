"""Model cards cover exact tables; ``model:auto`` seats the shipped model made for each table; every entry point
(the harness, the protocol, the server's listing) refuses a model at a table its card does not cover."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("onnxruntime")

from agents.base import make_bot
from agents.onnx_bot import CARD_FILE, MODEL_FILE, ShippedBot, card_tables, describe_tables
from agents.protocol import handle_request
from agents.tournament import TournamentConfig, run_tournament
from shithead_env import PRESETS, Game, load_rules

SOURCE = Path(__file__).resolve().parents[2] / "agents" / "pretrained" / "dead_last_4p"


def ship(root: Path, name: str, tables: Any, card_name: str | None = None, scores: Any = None) -> Path:
    """A model directory ``root/name``: the dead_last_4p network with a card naming ``tables``."""
    directory = root / name
    directory.mkdir(parents=True)
    shutil.copy(SOURCE / MODEL_FILE, directory / MODEL_FILE)
    content = json.loads((SOURCE / CARD_FILE).read_text(encoding="utf-8"))
    content.update(name=card_name or name, tables=tables)
    content["evaluation"] = {"results": [{"rules": r, "players": n, "opponent": "heuristic", "score": v}
                                         for (r, n), v in (scores or {}).items()]}
    if all(isinstance(counts, list) for counts in tables.values()):
        content.update(rules=list(tables), players=sorted({n for ns in tables.values() for n in ns}))
    (directory / CARD_FILE).write_text(json.dumps(content), encoding="utf-8")
    return directory


@pytest.fixture
def shelf(tmp_path: Path) -> Path:
    ship(tmp_path, "wide", {"dead_last": [2, 3, 4, 5], "pub": [2, 3, 4]})
    ship(tmp_path, "pub_three", {"pub": [3]})
    return tmp_path


def test_auto_prefers_the_card_that_measured_best_at_the_table(tmp_path: Path) -> None:
    ship(tmp_path, "wide", {"pub": [2, 3, 4]}, scores={("pub", 3): 0.2, ("pub", 2): 0.1})
    ship(tmp_path, "pub_three", {"pub": [3]}, scores={("pub", 3): 0.1})
    ship(tmp_path, "pub_two", {"pub": [2]})  # no figure at pub/2: the measured wide card plays there
    auto = ShippedBot(root=tmp_path)
    assert auto.model_for("pub", 3).name == "wide" and auto.model_for("pub", 2).name == "wide"
    assert auto.model_for("pub", 4).name == "wide"


def view_of(rules: str, players: int, seed: int = 1) -> dict[str, Any]:
    game = Game.new(rules, players, seed=seed)
    return game.view(game.current)


def test_auto_seats_the_narrowest_card_that_covers_the_table(shelf: Path) -> None:
    auto = ShippedBot(root=shelf)
    assert auto.model_for("pub", 3).name == "pub_three"  # the specialist before the generalist
    assert auto.model_for("pub", 2).name == "wide"
    assert auto.covers("dead_last", 5) and not auto.covers("harrogate", 2) and not auto.covers("pub", 5)
    assert auto.coverage() == "dead_last 2-5, pub 2-4 (the shipped cards together)"
    with pytest.raises(ValueError, match=r"^model:auto: no shipped model covers harrogate with 2 players"):
        auto.model_for("harrogate", 2)
    game = Game.new("pub", 3, seed=4)
    rng = np.random.default_rng(0)
    for _ in range(12):
        action = auto.act_game(game, game.current, rng)
        assert game.is_legal(action)
        game.step(action)


def test_a_card_without_tables_covers_each_listed_preset_with_each_count() -> None:
    old = {"rules": ["dead_last", "pub"], "players": [2, 4]}
    assert card_tables(old) == {"dead_last": (2, 4), "pub": (2, 4)}
    assert describe_tables(card_tables(old)) == "dead_last 2/4, pub 2/4"
    bot = make_bot(f"model:{SOURCE}")
    assert bot.covers("dead_last", 4) and not bot.covers("dead_last", 3) and not bot.covers("pub", 4)


def test_a_card_with_malformed_tables_is_refused_by_name(tmp_path: Path) -> None:
    directory = ship(tmp_path, "broken", {"pub": 3})
    with pytest.raises(ValueError, match="'tables' must map each preset to a list of player counts"):
        make_bot(f"model:{directory}")


@pytest.mark.parametrize(("shipped", "network", "spec"), [
    ("dead_last_4p", MODEL_FILE, "model:{}"),
    ("value_pub_2p", "value_fp16w.onnx", "guided:value={}"),  # the form the wheel ships, loaded by default
    ("value_pub_3p", "value_int8w.onnx", "guided:value={}"),
    ("value_pub_2p", "value.onnx", "guided:value={},precision=fp32"),
    ("value_pub_2p", "value_int8.onnx", "guided:value={},precision=int8"),
])
def test_a_card_vouches_only_for_the_network_file_it_was_written_for(
    tmp_path: Path, shipped: str, network: str, spec: str
) -> None:
    directory = tmp_path / shipped
    shutil.copytree(SOURCE.parent / shipped, directory)
    assert make_bot(spec.format(directory)).card["networks" if "value" in spec else "model"]
    (directory / network).write_bytes((directory / network).read_bytes() + b"\0")  # another file, same card
    with pytest.raises(ValueError, match=rf"{network}: its sha256 is [0-9a-f]{{64}}, but its card says"):
        make_bot(spec.format(directory))


def test_model_auto_reads_the_shipped_cards() -> None:
    auto = make_bot("model:auto")
    assert isinstance(auto, ShippedBot) and auto.models
    for model in auto.models:
        for rules, counts in model.tables.items():
            for n in counts:
                assert auto.covers(rules, n)
                assert auto.model_for(rules, n).covers(rules, n)


def test_model_auto_covers_every_table_the_presets_allow() -> None:
    """The shipped cards together seat a model at every preset's every player count."""
    auto = make_bot("model:auto")
    missing = [f"{preset}/{n}" for preset in PRESETS
               for n in range(load_rules(preset).min_players, load_rules(preset).max_players + 1)
               if not auto.covers(preset, n)]
    assert not missing, f"no shipped card covers {', '.join(missing)}"


def test_the_results_page_table_of_shipped_models_is_current() -> None:
    """The results page's table is what the model registry says (``python -m agents.shipped_table`` regenerates it)."""
    from agents.shipped_table import shipped_table

    page = (Path(__file__).resolve().parents[2] / "docs" / "results.md").read_text(encoding="utf-8")
    assert shipped_table() in page, "docs/results.md's table of shipped models is stale: paste " \
        "python -m agents.shipped_table's output"


def test_the_table_of_shipped_models_names_the_tables_no_card_covers(tmp_path: Path) -> None:
    from agents.registry_build import write_registry
    from agents.shipped_table import shipped_table

    shutil.copytree(SOURCE.parent / "many_seats", tmp_path / "many_seats")
    write_registry(tmp_path)  # the table is read off the registry
    rows = shipped_table(tmp_path).splitlines()
    assert len(rows) == 2 + 29  # the header, then every table the presets allow
    assert "| dead_last | 4 | none | | | | | - |" in rows
    assert any(row.startswith("| harrogate | 10 | `many_seats` | 2,000 | +0.064 [+0.042, +0.086] |") for row in rows)


def test_the_harness_refuses_a_model_made_for_another_table() -> None:
    config = TournamentConfig("pub", (f"model:{SOURCE}", "heuristic", "heuristic", "heuristic"), games=4)
    with pytest.raises(ValueError) as refused:
        run_tournament(config)
    assert str(refused.value) == f"bot 'model:{SOURCE}' is not made for pub with 4 players; its card covers dead_last 4"


def test_the_protocol_refuses_a_player_count_outside_the_card(shelf: Path) -> None:
    reply = handle_request(make_bot(f"model:{SOURCE}"), view_of("dead_last", 3))
    assert reply.status == 422 and reply.body["error"]["code"] == "unsupported_rules"
    assert "not made for dead_last with 3 players; its card covers dead_last 4" in reply.body["error"]["message"]
    auto = ShippedBot(root=shelf)
    assert handle_request(auto, view_of("pub", 3)).status == 200
    refused = handle_request(auto, view_of("harrogate", 3))
    assert refused.status == 422 and refused.body["error"]["code"] == "unsupported_rules"


def test_the_server_serves_auto_beside_each_model(shelf: Path) -> None:
    pytest.importorskip("fastapi")
    from agents.served import model_bots

    served = model_bots(shelf)
    assert set(served) == {"wide", "pub_three", "auto"}
    assert served["auto"].card["tables"] == {"dead_last": (2, 3, 4, 5), "pub": (2, 3, 4)}
    assert served["auto"].card["policy"] is True
    ship(shelf, "auto_clash", {"pub": [2]}, card_name="auto")
    with pytest.raises(ValueError, match="two models are named 'auto'"):
        model_bots(shelf)


def test_every_shipped_card_covers_only_tables_it_measured_above_heuristic() -> None:
    """The shipped cards' claim: at each covered table, 2,000+ duplicate games with the whole interval above 0."""
    from agents.onnx_bot import PRETRAINED_DIR, load_card, shipped_model_dirs

    for directory in shipped_model_dirs(PRETRAINED_DIR):
        card = load_card(directory)
        results = card["evaluation"]["results"]
        for rules, counts in card_tables(card).items():
            for n in counts:
                measured = [r for r in results if r["opponent"] == "heuristic"
                            and (r.get("rules"), r.get("players")) in ((rules, n), (None, None))]
                assert measured, f"{directory.name}: no figure against heuristic at {rules}/{n}"
                assert measured[0]["games"] >= 2000 and measured[0]["score_low"] > 0, (directory.name, rules, n)
