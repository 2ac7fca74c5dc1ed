"""What the agents write as JSON reads back whole, every field with its type: tournament summaries and their game
records (with a custom two-deck rule set), bench match files, and game sessions (their state, view and events)."""

from __future__ import annotations

import json
from dataclasses import asdict

from agents.bench.run import play_bench
from agents.served import spec_bot
from agents.sessions import Sessions
from agents.tournament import GameRecord, TournamentConfig, run_tournament
from shithead_env import Knowledge, load_rules
from tests.agents.test_bench import tiny_suite
from tests.helpers import typed


def through_json(value: object) -> object:
    return json.loads(json.dumps(value))


def test_a_tournament_summary_and_its_game_records_read_back_whole(tmp_path):
    rules = tmp_path / "two_decks.yaml"
    rules.write_text("extends: harrogate\nname: two_decks\ndecks_from_players: {4: 2}\n", encoding="utf-8")
    config = TournamentConfig(str(rules), ("heuristic", "greedy", "random", "random"), 8, seed=1, guarded=(2,))
    summary, records = run_tournament(config)
    written = summary.to_json(records)
    read = through_json(written)
    summary_only = [{key: value for key, value in doc.items() if key != "game_records"} for doc in (read, written)]
    assert typed(summary_only[0]) == typed(summary_only[1])  # JSON's own types: the rules' keys strings, no tuples
    assert load_rules(read["rules"]) == load_rules(str(rules)) and load_rules(str(rules)).decks_for(4) == 2
    back = [GameRecord.from_json(record) for record in read["game_records"]]
    # the records' guarded slots are int keys, strings in JSON, ints again in from_json
    assert typed([asdict(r) for r in back]) == typed([asdict(r) for r in records])
    assert all(record.faults.keys() == {2} for record in back)


def test_a_bench_match_file_reads_back_every_record_with_its_types(tmp_path):
    suite = tiny_suite()
    played = play_bench(suite, "greedy", out=tmp_path)
    read = play_bench(suite, "greedy", out=tmp_path)  # every match from its file
    assert played.keys() == read.keys()
    for match, records in played.items():
        assert typed([asdict(r) for r in read[match]]) == typed([asdict(r) for r in records]), match


def play_session(seed: int) -> dict:
    """A whole harrogate game of six (two decks) in a session, the human seat playing its first legal action; the
    session's state with every event from the first."""
    sessions = Sessions({"heuristic": spec_bot("heuristic", "heuristic")})
    key = sessions.create({"rules": "harrogate", "players": 6, "seat": 2, "bots": "heuristic", "seed": seed}).id
    state = sessions.state(key)
    while state["result"] is None:
        view = state["view"]
        state = sessions.act(key, {"action": view["legal_actions"][0], "decisions": view["decisions"]})
        assert typed(through_json(state)) == typed(state)
        assert Knowledge.from_view(through_json(view)).to_dict() == view
    return sessions.state(key, since=0)


def test_a_session_replays_exactly_from_its_seed_and_its_state_reads_back_whole():
    first, again = play_session(4), play_session(4)
    assert first.pop("game") != again.pop("game")  # a new id each time, and the rest the same
    assert typed(again) == typed(first)
    assert typed(through_json(first)) == typed(first)
    assert first["events"][-1]["kind"] == "game_over" and [e["n"] for e in first["events"]] == list(
        range(first["next_event"])
    )
