"""Public events (shithead_env.events): what each step did, and that no seat learns a hidden card from them."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shithead_env import Action, Game, determinize
from shithead_env import events as ev
from shithead_env.cards import RANKS, card_names
from tests.helpers import PLAYER_RANGE, PRESETS, position, random_action, random_positions

SETTINGS = settings(max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = st.sampled_from(PRESETS).flatmap(
    lambda p: st.tuples(st.just(p), st.integers(*PLAYER_RANGE[p]), st.integers(0, 2**32 - 1))
)


def kinds(events: list[ev.Event]) -> list[str]:
    return [e.kind for e in events]


def shown(events: list[ev.Event], viewer: int | None = None) -> list[dict[str, Any]]:
    return [e.for_seat(viewer) for e in events]


def visible(game: Game, seat: int) -> Counter:
    """Every card ``seat`` may see in ``game``: its hand, all face-up and known cards, the pile, the burned."""
    cards = Counter(card_names(game.hands[seat] + game.pile + game.burned))
    for s in range(game.num_players):
        cards.update(card_names(game.face_up[s] + game.known[s]))
    return cards


def named_cards(event: dict[str, Any]) -> list[str]:
    return list(event.get("cards", [])) + list(event.get("jokers", [])) + ([event["card"]] if "card" in event else [])


# ------------------------------------------------------------ one kind at a time
def test_play_and_draw_hide_the_drawn_cards_from_the_others():
    game = position("dead_last", [{"hand": "5 5 K"}, {"hand": "9"}], pile="4", draw_pile="QH JH AS")
    events = ev.step(game, Action.play("5", 2))
    assert kinds(events) == ["play", "draw"]
    play, draw = events
    assert play.for_seat(1) == {"kind": "play", "seat": 0, "cards": play.data["cards"], "zone": "hand",
                                "out_of_turn": None}  # fmt: skip
    assert [c[0] for c in play.data["cards"]] == ["5", "5"]
    assert draw.for_seat(0) == {"kind": "draw", "seat": 0, "count": 2, "cards": ["QH", "JH"]}
    assert draw.for_seat(1) == {"kind": "draw", "seat": 0, "count": 2}
    assert ev.describe(draw.for_seat(1)) == "P0 draws 2 cards"
    assert ev.describe(draw.for_seat(0), you=0) == "you draw QH JH"


def test_burn_card_and_four_of_a_kind_say_why():
    game = position("dead_last", [{"hand": "T 4"}, {"hand": "9"}], pile="5 6")
    burn = ev.step(game, Action.play("T"))[-1]
    assert burn.for_seat(1) == {"kind": "burn", "seat": 0, "count": 3, "reason": "card", "rank": "T", "run": None,
                                "again": True}
    assert ev.describe(burn.for_seat(1)) == "a 10 burns the pile (3 cards); P0 plays again"
    assert ev.describe(burn.for_seat(0), you=0) == "a 10 burns the pile (3 cards); you play again"
    assert game.current == 0
    game = position("dead_last", [{"hand": "Q 4"}, {"hand": "9"}], pile="5 Q Q Q")
    burn = ev.step(game, Action.play("Q"))[-1]
    assert burn.data == {"count": 5, "reason": "run", "rank": "Q", "run": 4, "again": True}
    assert ev.describe(burn.for_seat(None)) == "four Qs in a row burn the pile (5 cards); P0 plays again"
    game = position("dead_last", [{"hand": "T"}, {"hand": "9"}, {"hand": "8"}], pile="5 6")  # its last card
    burn, safe = ev.step(game, Action.play("T"))[1:]
    assert burn.data["again"] is False and ev.describe(burn.for_seat(None)) == "a 10 burns the pile (3 cards)"
    assert ev.describe(safe.for_seat(None)) == "P0 is safe (1st out)"
    assert game.finish_order == [0] and game.current == 1


def test_skip_reverse_and_nominate():
    game = position("dead_last", [{"hand": "8 8 K"}, {"hand": "9"}, {"hand": "9"}, {"hand": "9"}], pile="4")
    skip = ev.step(game, Action.play("8", 2))[-1]
    assert skip.data == {"skipped": [1, 2]} and game.current == 3
    assert ev.describe(skip.for_seat(1), you=1) == "you and P2 are skipped"
    round_the_table = {"kind": "skip", "seat": 0, "skipped": [2, 1, 2, 1, 2]}  # five skips round three seats
    assert ev.describe(round_the_table) == "P2 (three times) and P1 (twice) are skipped"
    assert ev.describe({"kind": "skip", "seat": 0, "skipped": [1, 2, 3]}) == "P1, P2 and P3 are skipped"
    game = position("power_deck", [{"hand": "Q 4"}, {"hand": "9"}, {"hand": "9"}], pile="4")
    assert kinds(ev.step(game, Action.play("Q"))) == ["play", "reverse"]
    assert game.events[-1].data == {"direction": -1} and game.current == 2
    game = position("power_deck", [{"hand": "A 4"}, {"hand": "9"}, {"hand": "9"}], pile="4")
    ev.step(game, Action.play("A"))
    nominate = ev.step(game, Action.nominate(2))
    assert shown(nominate) == [{"kind": "nominate", "seat": 0, "nominee": 2}]
    assert ev.describe(nominate[0].for_seat(2), you=2) == "P0 names you to play next"


def test_flip_reveals_the_card_and_whether_it_played():
    game = position("dead_last", [{"face_down": "5 9"}, {"hand": "9"}], pile="K")
    events = ev.step(game, Action.flip())
    assert kinds(events) == ["flip", "pickup"]
    flip, pickup = events
    assert flip.data["played"] is False and flip.data["card"][0] == "5"
    assert pickup.data["count"] == 2 and flip.data["card"] in pickup.data["cards"]
    game = position("dead_last", [{"face_down": "A 9"}, {"hand": "9"}], pile="K")
    flip = ev.step(game, Action.flip())[0]
    assert flip.data["played"] is True
    assert ev.describe(flip.for_seat(1)).startswith("P0 flips a face-down card: A")


def test_pickup_counts_and_jokers_leave_the_game():
    game = position("power_deck", [{"hand": "4"}, {"hand": "9"}], pile="6 X")
    pickup = ev.step(game, Action.pickup())[0]
    assert pickup.data["count"] == 1 and [c[0] for c in pickup.data["jokers"]] == ["X"]
    assert "leaves the game" in ev.describe(pickup.for_seat(1))


def test_snatch_dump_and_pass_are_told():
    game = position("pub", [{"hand": "K 5"}, {"hand": "9 4"}, {"hand": "K 6"}], pile="K K")
    assert kinds(ev.step(game, Action.play("K"))) == ["play"]
    assert game.phase == "interrupt" and game.current == 2
    snatch = ev.step(game, Action.play("K"))
    assert snatch[0].data["out_of_turn"] == "snatch" and "burn" in kinds(snatch)
    assert ev.describe(snatch[0].for_seat(0)).startswith("P2 snatches out of turn with K")
    game = position("power_deck", [{"hand": "8 5"}, {"hand": "9 4"}, {"hand": "8 6"}], pile="4")
    ev.step(game, Action.play("8"))
    assert game.phase == "interrupt"
    asked = game.current
    if Action.play("8") in game.legal_actions():
        dump = ev.step(game, Action.play("8"))[0]
        assert dump.data["out_of_turn"] == "dump" and dump.seat == asked
    else:
        assert shown(ev.step(game, Action.pass_())) == [{"kind": "pass", "seat": asked}]


def test_safe_and_game_over():
    game = position("dead_last", [{"hand": "K"}, {"hand": "9"}, {"hand": "9 4"}], pile="4")
    events = ev.step(game, Action.play("K"))
    assert kinds(events) == ["play", "safe"] and events[1].data == {"place": 1}
    assert ev.describe(events[1].for_seat(0), you=0) == "you are safe (1st out)"
    game = position("dead_last", [{"hand": "K"}, {"hand": "9"}], pile="4")
    events = ev.step(game, Action.play("K"))
    assert kinds(events) == ["play", "safe", "game_over"]
    assert events[-1].for_seat(1) == {"kind": "game_over", "seat": None, "finish_order": [0, 1], "loser": 1,
                                      "truncated": False}  # fmt: skip
    assert ev.describe(events[-1].for_seat(1), you=1) == "game over: P0 > you; you are the shithead"


def test_swap_open_and_take_up():
    game = Game.new("power_deck", 3, seed=1)
    events = ev.record(game)
    while game.phase == "swap":
        game.step(game.legal_actions()[0])
    assert kinds(events) == ["face_up"] * 9 + ["opens"]
    assert events[-1].seat == game.current and events[-1].data["forced_rank"] == RANKS[game.forced_rank]
    assert all(e.data["card"] in game.view(e.seat)["players"][e.seat]["face_up"] for e in events[:9])
    game = position("harrogate", [{"hand": "4 6"}, {"face_up": "9 J", "face_down": "5"}], pile="3")
    events = ev.step(game, Action.play("4"))
    assert kinds(events) == ["play", "take_up"] and sorted(c[0] for c in events[1].data["cards"]) == ["9", "J"]


def test_recording_is_off_by_default_and_copies_do_not_record():
    game = Game.new("dead_last", 3, seed=2)
    game.step(game.legal_actions()[0])
    assert game.events is None
    ev.record(game)
    twin = game.copy()
    twin.step(twin.legal_actions()[0])
    assert twin.events is None and game.events == []


def test_describe_every_kind_of_a_whole_game():
    """Every event of random games words without error, and the words name no card the dict does not."""
    for preset in PRESETS:
        positions = random_positions(preset, 4, seed=3)
        events = ev.record(next(positions))  # recording on from the deal
        for _ in positions:  # random play to the end
            pass
        for event in events:
            for viewer in range(4):
                text = ev.describe(event.for_seat(viewer), you=viewer)
                assert text and "None" not in text
        assert events[-1].kind == "game_over"


# ------------------------------------------------------------ leaks


@SETTINGS
@given(GAMES)
def test_events_name_only_cards_the_seat_can_see(case):
    """Every card an event shows a seat is in that seat's view just before or just after the step."""
    preset, n, seed = case
    rng = np.random.default_rng(seed)
    for game in random_positions(preset, n, seed, rng=rng):
        if game.is_over:
            break
        before = [visible(game, s) for s in range(n)]
        events = ev.step(game, random_action(game, rng))
        after = [visible(game, s) for s in range(n)]
        for seat in range(n):
            for event in events:
                seen = event.for_seat(seat)
                for card in named_cards(seen):
                    assert before[seat][card] or after[seat][card], (seat, seen)
                if seen["kind"] == "draw" and seat != event.seat:
                    assert set(seen) == {"kind", "seat", "count"}


@SETTINGS
@given(GAMES, st.integers(0, 2**32 - 1))
def test_a_hidden_redeal_changes_no_event_a_seat_sees(case, redeal_seed):
    """Re-deal every card hidden from a seat, step the same action in both games: where the seat's
    views after the step agree, the events it is shown agree too (events say no more than views)."""
    preset, n, seed = case
    rng = np.random.default_rng(seed)
    redeal_rng = np.random.default_rng(redeal_seed)
    compared = 0
    for game in random_positions(preset, n, seed, rng=rng):
        if game.is_over:
            break
        action = random_action(game, rng)
        observer = int(redeal_rng.integers(n))
        twin = determinize(game.view(observer), redeal_rng) if redeal_rng.random() < 0.25 else None
        if twin is not None and twin.is_legal(action):
            first, second = ev.step(game.copy(), action), ev.step(twin, action)
            view = game.copy()
            view.step(action)
            if view.view(observer) == twin.view(observer):
                assert shown(first, observer) == shown(second, observer)
                compared += 1
        game.step(action)
    assert compared > 0


def test_unknown_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown event kind 'boom'"):
        ev.describe({"kind": "boom", "seat": 0})


def test_every_event_kind_has_its_line():
    assert set(ev._LINES) == set(ev.EVENT_KINDS)
