"""Shithead-Bench: suites pinned to their cards, guarded bots, resumable and transport-independent results."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents.base import Bot, make_bot
from agents.bench.leaderboard import build_leaderboard, load_leaderboard, refresh_cards
from agents.bench.results import RESULTS_SCHEMA, bench_results, field_ratings, fit_rating, match_result
from agents.bench.run import MATCH_DIR, Match, bot_identity, play_bench
from agents.bench.suite import Suite, Table, cards_digest, check_deals, load_suite, suite_from_dict, suite_names
from agents.guard import GuardedBot
from agents.levels import TOP, FallbackBot
from agents.onnx_bot import PRETRAINED_DIR, table_networks
from agents.remote import RemoteBot
from agents.simple import GreedyBot
from agents.tournament import ELO_SCALE, TournamentConfig, play_games
from shithead_env import Action, Game
from shithead_env.cli import main

TIMING = {"ms_per_decision"}  # machine-dependent: every other figure is a function of the seeds


def tiny_suite(opponents: tuple[str, ...] = ("random", "heuristic"), deals: int = 3) -> Suite:
    table = Table("dead_last", 2, deals, 5, opponents, "")
    table = replace(table, cards_sha256=cards_digest(table))
    return Suite("tiny", 1, "two deals of dead_last/2", "heuristic", (table,))


def without_timing(value: object) -> object:
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING and k != "card"}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def strip_seconds(records_by_match: dict) -> dict:
    return {m: [replace(r, seconds=[]) for r in recs] for m, recs in records_by_match.items()}


# ---------------------------------------------------------------- suites


@pytest.mark.parametrize("name", ["quick", "full"])
def test_shipped_suites_deal_the_cards_they_were_made_with(name):
    suite = load_suite(name)
    check_deals(suite)  # a changed deal raises: the suite needs a new version
    assert suite.anchor in suite.field
    assert {"random", "greedy", "heuristic", "model:auto"} <= set(suite.field)


def test_full_suite_covers_every_preset_at_2_3_4_and_its_largest_table():
    from shithead_env import PRESETS, load_rules

    tables = {(t.rules, t.players) for t in load_suite("full").tables}
    for preset in PRESETS:
        largest = min(load_rules(preset).max_players, 10)
        assert {(preset, n) for n in (2, 3, 4, largest)} <= tables
    assert all("ismcts" in t.opponents for t in load_suite("full").tables)


def test_suite_names_and_errors():
    assert {"quick", "full"} <= set(suite_names())
    with pytest.raises(ValueError, match="unknown suite 'nope'"):
        load_suite("nope")
    good = {"name": "s", "version": 1, "description": "", "anchor": "heuristic",
            "tables": [{"rules": "dead_last", "players": 2, "deals": 1, "seed": 0, "opponents": ["heuristic"],
                        "cards_sha256": ""}]}  # fmt: skip
    suite_from_dict(good, "x")
    with pytest.raises(ValueError, match="needs exactly the keys"):
        suite_from_dict({**good, "extra": 1}, "x")
    with pytest.raises(ValueError, match="players must be an integer >= 1"):
        suite_from_dict({**good, "tables": [{**good["tables"][0], "players": "2"}]}, "x")
    with pytest.raises(ValueError, match="anchor 'greedy' is none of the reference bots"):
        suite_from_dict({**good, "anchor": "greedy"}, "x")
    with pytest.raises(ValueError, match="listed twice"):
        suite_from_dict({**good, "tables": [{**good["tables"][0], "opponents": ["random", "random"]}]}, "x")


def test_a_suite_whose_cards_changed_is_refused():
    suite = tiny_suite()
    moved = replace(suite, tables=(replace(suite.tables[0], seed=6),))
    with pytest.raises(ValueError, match="deals other cards than the suite was made with"):
        play_bench(moved, "greedy")


# ---------------------------------------------------------------- results


def test_results_are_the_same_for_any_worker_count_and_match_the_schema():
    fastjsonschema = pytest.importorskip("fastjsonschema")
    suite = tiny_suite()
    one = play_bench(suite, "greedy")
    two = play_bench(suite, "greedy", workers=2)
    assert strip_seconds(one) == strip_seconds(two)
    results = bench_results(suite, "greedy", one, {"random": -300.0, "heuristic": 0.0})
    fastjsonschema.compile(RESULTS_SCHEMA)(results)
    assert results["rating"]["low"] <= results["rating"]["mean"] <= results["rating"]["high"]
    assert results["faults"] == {"timeouts": 0, "errors": 0, "illegal": 0}
    assert [m["games"] for m in results["tables"][0]["matches"]] == [6, 6]


def test_a_bot_against_itself_scores_zero_and_is_left_out_of_the_rating():
    suite = tiny_suite(("greedy", "heuristic"))
    records = play_bench(suite, "heuristic")
    self_match = match_result(suite, Match(0, 1), records[Match(0, 1)])
    assert self_match["score"]["mean"] == 0.0
    assert self_match["ahead"]["bot"] == self_match["ahead"]["opponent"] > 0  # symmetric: it carries no rating
    assert bench_results(suite, "heuristic", records, {"greedy": -100.0})["rating"] is not None  # itself unrated


def test_fit_rating_and_field_ratings():
    assert fit_rating([(0.0, 10, 10)]) == pytest.approx(0.0, abs=1e-6)
    # one opponent: the Elo of the odds, with half a pseudo-win each way
    assert fit_rating([(50.0, 20, 10)]) == pytest.approx(50.0 + ELO_SCALE * math.log(20.5 / 10.5), abs=1e-6)
    assert fit_rating([(100.0, 10, 10), (-100.0, 10, 10)]) == pytest.approx(0.0, abs=1e-6)

    def entry(bot: str, rows: list[tuple[str, int, int]]) -> dict:
        matches = [{"opponent": o, "ahead": {"bot": a, "opponent": b}} for o, a, b in rows]
        return {"bot": bot, "tables": [{"matches": matches}]}

    ratings = field_ratings([entry("a", [("b", 30, 10), ("a", 0, 0)]), entry("b", [("a", 10, 30)])], "b")
    assert ratings["a"] > 0
    assert fit_rating([(ratings["a"], 10, 30)]) == pytest.approx(0.0, abs=1e-6)  # the anchor's own fit is 0


# ---------------------------------------------------------------- resuming


def test_a_rerun_resumes_from_the_matches_on_disk(tmp_path):
    suite = tiny_suite()
    first = play_bench(suite, "greedy", out=tmp_path)
    files = sorted((tmp_path / MATCH_DIR).glob("*.json"))
    assert [f.name for f in files] == ["0-0.json", "0-1.json"]
    files[1].unlink()
    stamp = files[0].stat().st_mtime_ns
    again = play_bench(suite, "greedy", out=tmp_path)
    assert files[0].stat().st_mtime_ns == stamp  # read back, not replayed
    assert strip_seconds(again) == strip_seconds(first)
    with pytest.raises(ValueError, match="holds another bench"):
        play_bench(suite, "random", out=tmp_path)


def test_a_rerun_refuses_a_match_played_with_other_network_files(tmp_path):
    suite = tiny_suite(opponents=("model:auto",), deals=1)
    play_bench(suite, "heuristic", out=tmp_path)
    path = tmp_path / MATCH_DIR / "0-0.json"
    match = json.loads(path.read_text())
    assert match["networks"]["bot"] == {} and match["networks"]["opponent"]  # model:auto's networks, by sha256
    name = next(iter(match["networks"]["opponent"]))
    match["networks"]["opponent"][name] = "0" * 64  # as if the network had been retrained since
    path.write_text(json.dumps(match))
    with pytest.raises(ValueError, match="was not played with the network files heuristic and model:auto have now"):
        play_bench(suite, "heuristic", out=tmp_path)


# ---------------------------------------------------------------- guarded and remote bots


class IllegalBot(Bot):
    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        return Action.pickup() if game.phase == "play" else game.legal_actions()[0]


def test_an_illegal_answer_is_counted_and_replaced_by_greedys_move():
    game = Game.new("dead_last", 2, seed=1)
    guarded = GuardedBot(IllegalBot())
    while game.phase != "play":
        game.step(guarded.act_game(game, game.current, np.random.default_rng(0)))
    if Action.pickup() in game.legal_actions():
        pytest.skip("pick-up is legal in this deal")  # never for seed 1: the opener has a legal play
    expected = GreedyBot().act_game(game, game.current, np.random.default_rng(0))
    assert guarded.act_game(game, game.current, np.random.default_rng(0)) == expected
    assert guarded.pop_faults() == {"timeouts": 0, "errors": 0, "illegal": 1}
    assert guarded.pop_faults() == {"timeouts": 0, "errors": 0, "illegal": 0}


def test_a_failing_bot_never_stops_a_tournament():
    config = TournamentConfig("dead_last", ("remote:http://127.0.0.1:9/v1/bots/x", "random"), 4, guarded=(0,))
    records = play_games(config)
    assert all(r.faults[0]["errors"] == r.decisions[0] > 0 for r in records)  # port 9: nothing answers


def test_remote_spec_and_errors():
    assert isinstance(make_bot("http://127.0.0.1:1/v1/bots/heuristic"), RemoteBot)
    bot = make_bot("remote:http://127.0.0.1:1/v1/bots/heuristic,timeout=0.5")
    assert (bot.url, bot.timeout) == ("http://127.0.0.1:1/v1/bots/heuristic", 0.5)
    with pytest.raises(ValueError, match="must start with http"):
        make_bot("remote:ftp://x")
    with pytest.raises(ValueError, match="timeout must be > 0"):
        make_bot("remote:http://x,timeout=0")


def test_a_served_bot_gets_exactly_the_local_bots_results(server):
    suite = tiny_suite(("random", "greedy"), deals=4)
    local = bench_results(suite, "heuristic", play_bench(suite, "heuristic"), None, bot_identity("heuristic", suite))
    url = f"{server}/v1/bots/heuristic"
    remote = bench_results(suite, url, play_bench(suite, url), None, bot_identity(url, suite))
    assert remote["card"]["name"] == "heuristic"
    assert without_timing({**remote, "bot": "heuristic"}) == without_timing(local)


def test_a_served_bot_past_its_time_limit_plays_greedys_moves(server):
    suite = tiny_suite(("random",), deals=2)
    spec = f"remote:{server}/v1/bots/heuristic,timeout=0.000001"
    late = bench_results(suite, spec, play_bench(suite, spec), None)
    greedy = bench_results(suite, "greedy", play_bench(suite, "greedy"), None)
    assert late["faults"]["timeouts"] == late["tables"][0]["matches"][0]["decisions"] > 0
    for match in late["tables"][0]["matches"]:
        match["faults"]["timeouts"] = 0
    assert without_timing(late["tables"]) == without_timing(greedy["tables"])


def test_ray_gives_the_same_records():
    pytest.importorskip("ray")
    suite = tiny_suite()
    assert strip_seconds(play_bench(suite, "greedy", ray_address="local")) == strip_seconds(play_bench(suite, "greedy"))


# ---------------------------------------------------------------- the published leaderboard and the command


def test_the_published_leaderboard_is_reproduced_exactly():
    suite = load_suite("quick")
    board = load_leaderboard(suite)
    assert board is not None and board["anchor"] == "heuristic"
    assert set(suite.field) <= {e["bot"] for e in board["entries"]}
    entry = next(e for e in board["entries"] if e["bot"] == "greedy")
    published = entry["tables"][0]["matches"]
    part = replace(suite, tables=(replace(suite.tables[0], opponents=("random", "heuristic")),))
    again = bench_results(part, "greedy", play_bench(part, "greedy"), None)["tables"][0]["matches"]
    assert without_timing(again) == without_timing([m for m in published if m["opponent"] in ("random", "heuristic")])
    heuristic = next(e for e in board["entries"] if e["bot"] == "heuristic")
    assert heuristic["rating"]["mean"] == pytest.approx(0.0, abs=1e-6)
    ranked = sorted(board["entries"], key=lambda e: e["rating"]["mean"])
    assert [e["bot"] for e in ranked][:3] == ["random", "greedy", "heuristic"]


def test_each_published_entry_was_measured_with_the_bot_its_spec_makes_today():
    suite = load_suite("quick")
    board = load_leaderboard(suite)
    refreshed = refresh_cards(suite, board)  # raises for an entry that now plays other networks at a table
    for entry, today in zip(board["entries"], refreshed["entries"], strict=True):
        assert entry["card"] == today["card"], f"{entry['bot']}: shithead bench --refresh-cards (docs/bench.md)"
    searched = next(e for e in board["entries"] if e["card"] and e["card"].get("kind") == "search")
    assert [list(t["networks"]) for t in searched["tables"]] == [
        ["value_dead_last_2p:fp16w"], ["value_pub_3p:int8w"], ["value_dead_last_4p:fp16w"],
        ["value_online_classic_5p:fp16w"]
    ]


def test_every_published_entry_matches_the_results_schema():
    validate = pytest.importorskip("fastjsonschema").compile(RESULTS_SCHEMA)
    for entry in load_leaderboard(load_suite("quick"))["entries"]:
        validate(entry)


def test_a_bot_names_only_the_networks_it_plays_at_a_table():
    auto, guided = make_bot("model:auto"), make_bot("guided")
    value = guided.card["networks"]
    assert table_networks(guided, "dead_last", 4) == {"value_dead_last_4p:fp16w": value["value_dead_last_4p:fp16w"]}
    assert table_networks(guided, "pub", 3) == {"value_pub_3p:int8w": value["value_pub_3p:int8w"]}
    model = auto.model_for("dead_last", 4)
    assert table_networks(auto, "dead_last", 4) == {model.name: model.card["model"]["sha256"]}
    modelled = make_bot("guided:opponents=model:auto")  # the opponent model's network plays too
    assert table_networks(modelled, "dead_last", 4) == table_networks(guided, "dead_last", 4) | table_networks(
        auto, "dead_last", 4
    )
    level5 = make_bot("level:5")
    assert table_networks(level5, "harrogate", 5) == {"value_harrogate_5p:int8w": value["value_harrogate_5p:int8w"]}
    assert table_networks(level5, "pub", 3) == table_networks(make_bot(TOP), "pub", 3)
    narrow = FallbackBot(make_bot(f"{TOP},value={PRETRAINED_DIR / 'value_pub_3p'}"), make_bot("level:4"))
    assert table_networks(narrow, "harrogate", 5) == table_networks(auto, "harrogate", 5) != {}  # level 4 plays there
    assert table_networks(make_bot("heuristic"), "dead_last", 4) == {}


def test_refreshed_cards_keep_every_figure_and_refuse_other_networks(tmp_path, capsys):
    suite = tiny_suite(deals=1)
    specs = ("random", "heuristic", "model:auto")
    records = {spec: play_bench(suite, spec) for spec in specs}
    board = build_leaderboard(suite, records, {spec: bot_identity(spec, suite) for spec in specs})
    assert board["entries"][2]["tables"][0]["networks"] == table_networks(make_bot("model:auto"), "dead_last", 2)
    assert refresh_cards(suite, board) == board
    stale = json.loads(json.dumps(board))
    stale["entries"][2]["card"] = {"name": "auto", "networks": {}}  # a card written before a network was added
    assert refresh_cards(suite, stale) == board
    name = next(iter(stale["entries"][2]["tables"][0]["networks"]))
    stale["entries"][2]["tables"][0]["networks"][name] = "0" * 64  # as if the network had been retrained since
    with pytest.raises(ValueError, match=r"model:auto plays other network files at dead_last with 2 players .* re-"):
        refresh_cards(suite, stale)
    assert main(["bench", "--refresh-cards", "--out", str(tmp_path), "--no-progress"]) == 0  # the published one
    assert json.loads((tmp_path / "leaderboard.json").read_text()) == load_leaderboard(load_suite("quick"))
    assert main(["bench", "--refresh-cards"]) == 2
    assert "--refresh-cards needs --out DIR" in capsys.readouterr().err


def test_bench_command_writes_results(tmp_path, capsys, monkeypatch):
    suite_file = tmp_path / "tiny.yaml"
    table = tiny_suite().tables[0]
    suite_file.write_text(
        json.dumps(
            {
                "name": "tiny",
                "version": 1,
                "description": "",
                "anchor": "heuristic",
                "tables": [{**table.__dict__, "opponents": list(table.opponents)}],
            }
        )
    )
    out = tmp_path / "out"
    assert main(["bench", "greedy", "--suite", str(suite_file), "--out", str(out), "--no-progress"]) == 0
    assert "greedy on Shithead-Bench tiny v1" in capsys.readouterr().out
    results = json.loads((out / "results.json").read_text())
    assert results["bot"] == "greedy" and results["rating"] is None  # no leaderboard for this suite
    assert (out / "results.md").read_text().startswith("# greedy on Shithead-Bench tiny v1")
    assert main(["bench", "--leaderboard", "--suite", str(suite_file), "--out", str(out / "lb"), "--no-progress"]) == 0
    board = json.loads((out / "lb" / "leaderboard.json").read_text())
    assert {e["bot"] for e in board["entries"]} == {"random", "heuristic"}
    lb = str(out / "lb" / "leaderboard.json")
    argv = ["bench", "greedy", "--suite", str(suite_file), "--out", str(out / "rated"), "--rate-against", lb]
    assert main([*argv, "--no-progress"]) == 0  # a custom suite's bot rated against its own leaderboard
    assert json.loads((out / "rated" / "results.json").read_text())["rating"]["mean"] < 0  # below heuristic
    assert main(["bench", "greedy", "--suite", "quick", "--rate-against", lb, "--no-progress"]) == 2
    assert "is the leaderboard of another suite" in capsys.readouterr().err
    # An entry beside the field is benched and rated against the field, whose ratings it does not move.
    argv = ["bench", "--leaderboard", "--entry", "greedy", "--suite", str(suite_file), "--out", str(out / "lb2")]
    assert main([*argv, "--no-progress"]) == 0
    with_entry = json.loads((out / "lb2" / "leaderboard.json").read_text())
    assert with_entry["field_ratings"] == board["field_ratings"]
    rated = json.loads((out / "rated" / "results.json").read_text())
    greedy = next(e for e in with_entry["entries"] if e["bot"] == "greedy")
    assert greedy["rating"] == rated["rating"] and greedy["score"] == rated["score"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["bench"], "give a bot spec, or --leaderboard"),
        (["bench", "greedy", "--leaderboard", "--out", "x"], "give a bot spec, or --leaderboard"),
        (["bench", "--leaderboard"], "--leaderboard needs --out DIR"),
        (["bench", "greedy", "--entry", "heuristic"], "--entry adds a bot to --leaderboard"),
        (["bench", "greedy", "--move-seconds", "1"], "--move-seconds applies to a served bot, not 'greedy'"),
        (["bench", "greedy", "--move-seconds", "0"], "--move-seconds must be > 0"),
        (["bench", "greedy", "--suite", "nope"], "unknown suite 'nope'"),
        (["bench", "nobot"], "unknown bot 'nobot'"),
    ],
)
def test_bench_command_refuses_bad_arguments(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_the_results_page_shows_the_published_leaderboard():
    from agents.bench.report import format_leaderboard

    table = format_leaderboard(load_leaderboard(load_suite("quick"))).split("\n", 2)[2]
    assert table in Path("docs/results.md").read_text(encoding="utf-8"), "docs/results.md: rerun the leaderboard table"


# ---------------------------------------------------------------- difficulty levels

def test_each_level_scores_above_the_one_below_on_the_published_suite():
    from agents.levels import LEVELS

    board = load_leaderboard(load_suite("quick"))
    scores = {e["bot"]: e["score"] for e in board["entries"]}
    ladder = [scores[LEVELS[n]] for n in sorted(LEVELS)]
    for lower, upper in itertools.pairwise(ladder):
        assert lower["high"] < upper["low"], (lower, upper)  # intervals apart, not only means in order


def test_a_level_plays_exactly_as_its_bot():
    suite = tiny_suite(("random",))
    assert strip_seconds(play_bench(suite, "level:3")) == strip_seconds(play_bench(suite, "heuristic"))
    with pytest.raises(ValueError, match="level must be one of 1, 2, 3, 4, 5, got '9'"):
        make_bot("level:9")


def test_the_top_level_searches_where_it_can_and_plays_as_the_level_below_elsewhere():
    from shithead_env import Knowledge

    top = make_bot("level:5")
    assert top.first.tables == make_bot("level:4").tables  # a value network wherever the networks play
    assert top.tables == make_bot("level:4").tables  # offered wherever level 4 is
    narrow = FallbackBot(make_bot(f"{TOP},value={PRETRAINED_DIR / 'value_dead_last_4p'}"), make_bot("level:4"))
    assert not narrow.first.covers("online_classic", 6) and narrow.covers("online_classic", 6)
    for bot, rules, players, plays_as in (
        (top, "online_classic", 6, TOP),
        (narrow, "dead_last", 4, TOP),
        (narrow, "online_classic", 6, "model:auto"),
    ):
        game = Game.new(rules, players, seed=4)
        while len(game.legal_actions()) < 2:
            game.step(game.legal_actions()[0])
        k = Knowledge.from_game(game, game.current)
        action, probs = bot.policy(k, np.random.default_rng(0))
        expected, expected_probs = make_bot(plays_as).policy(k, np.random.default_rng(0))
        assert action == expected and np.array_equal(probs, expected_probs), (rules, players, plays_as)


def test_the_top_level_reads_the_live_game_through_its_fallback():
    top = make_bot("level:5")
    watching = top.first
    assert watching.watch  # level 5 watches which seats play like its model
    game = Game.new("dead_last", 4, seed=6)
    while game.current != 0 or len(game.legal_actions()) < 2:
        game.step(game.legal_actions()[0])
    rng = np.random.default_rng(0)
    assert top.act_game(game, 0, rng) in game.legal_actions()
    assert [(w.owner, w.seat) for w in game.watchers] == [(watching, 0)]  # the search's own test, on the game


def test_the_server_offers_the_levels(server):
    import httpx

    from agents.levels import LEVELS

    names = {card["name"]: card for card in httpx.get(f"{server}/v1/bots").json()["bots"]}
    assert {"level:1", "level:2", "level:3", "level:4", "level:5"} <= set(names)
    assert names["level:4"]["tables"]["dead_last"] == [2, 3, 4, 5]  # the shipped networks' tables only
    assert names["level:5"]["tables"] == names["level:4"]["tables"]  # the search, else level 4
    assert names["level:5"]["plays"]["first"]["spec"] == LEVELS[5] and names["level:5"]["policy"]


def test_the_docs_level_table_is_the_published_scores():
    from agents.bench.report import format_interval
    from agents.levels import LEVELS

    board = load_leaderboard(load_suite("quick"))
    scores = {e["bot"]: format_interval(e["score"]) for e in board["entries"]}
    text = Path("docs/results.md").read_text(encoding="utf-8")
    for level, spec in LEVELS.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `level:{level}` |"))
        assert row.endswith(f"| {scores[spec]} |"), row


def test_a_shipped_form_measured_equal_stands_for_its_original_and_nothing_else_does():
    from agents.bench.leaderboard import same_networks
    from agents.registry import equal_forms

    by_original = {original[0]: (form, original[1]) for form, original in equal_forms().items()}
    (_, policy), export = by_original["generalist"]
    assert same_networks({"generalist": export}, {"generalist": policy})  # benched with the export, played shipped
    (value_name, value), trained = by_original["value_pub_2p"]
    assert value_name == "value_pub_2p:fp16w"
    assert same_networks({"value_pub_2p": trained}, {value_name: value})
    assert same_networks({value_name: value, "generalist": policy}, {"value_pub_2p": trained, "generalist": export})
    assert not same_networks({"generalist": "0" * 64}, {"generalist": policy})
    assert not same_networks({"value_pub_3p": export}, {"value_pub_3p": policy})  # only the policy's own export
    assert not same_networks({"value_pub_2p": trained}, {"value_pub_2p:int8": value})  # only the form measured
    assert not same_networks(None, {"generalist": policy}) and same_networks(None, None)
