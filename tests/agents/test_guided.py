"""The guided search bot and its value network: legal, reproducible, honest about its tables and its tree."""

from __future__ import annotations

import json
import shutil
import time

import numpy as np
import pytest

from agents import make_bot
from agents.guided import GuidedBot
from agents.ismcts import ISMCTSBot, most_visited
from agents.value_net import (
    FEATURE_SIZE,
    ShippedValues,
    ValueNet,
    load_values,
    resolve_value_dir,
    value_features,
)
from shithead_env import NUM_ACTIONS, Action, Game, Knowledge
from shithead_env.actions import MAX_SEATS
from tests.helpers import played_games, position

FAST = "guided:sims=24,batch=4"
DEAD_LAST_VALUE = "value_dead_last_4p"


def decision_points(rules: str = "dead_last", players: int = 4, games: int = 2):
    """Play-phase positions with a real choice, from heuristic games."""
    heuristic = make_bot("heuristic")
    rng = np.random.default_rng(0)
    for seed in range(games):
        game = Game.new(rules, players, seed=seed)
        while not game.is_over:
            if len(game.legal_actions()) > 1:
                yield game.copy()
            game.step(heuristic.act_game(game, game.current, rng))


@pytest.mark.parametrize(
    "spec",
    [FAST, FAST + ",root=ucb,prior=auto,c_puct=0.5", FAST + ",opponents=search", FAST + ",precision=int8",
     FAST + ",root=ucb"],
)
def test_guided_plays_legal_moves_and_reports_its_visits(spec):
    bot = make_bot(spec)
    rng = np.random.default_rng(1)
    for count, game in enumerate(decision_points()):
        knowledge = Knowledge.from_game(game, game.current)
        action, probs = bot.policy(knowledge, rng)
        assert game.is_legal(action)
        legal = [a.index for a in knowledge.legal]
        assert probs.shape == (NUM_ACTIONS,)
        assert probs.sum() == pytest.approx(1.0)
        assert probs[legal].sum() == pytest.approx(1.0)  # nothing on illegal actions
        assert probs[action.index] == probs.max()
        if count == 20:
            break


def test_every_shipped_value_network_has_an_int8_copy_and_the_bots_card_names_the_copies():
    """``precision=int8`` plays every table the networks cover, and its card tells it apart from the default's."""
    int8 = make_bot(FAST + ",precision=int8")
    assert int8.card["precision"] == "int8" and "precision" not in make_bot(FAST).card
    shipped = ShippedValues()
    assert set(int8.card["networks"]) == {f"{net.name}:int8" for net in shipped.nets}
    for net in shipped.nets:
        copy = net.card["model"]["int8"]
        assert abs(copy["r2_int8"] - copy["r2_fp32"]) < 0.01, net.name  # the card's own measure of the copy
    assert int8.networks_at("dead_last", 4) == {"value_dead_last_4p:int8": ValueNet(
        resolve_value_dir(DEAD_LAST_VALUE)).card["model"]["int8"]["sha256"]}
    with pytest.raises(ValueError, match="precision is the value network's"):
        make_bot("lookahead:rollout=heuristic,precision=int8")


@pytest.mark.parametrize("root", ["ucb", "halving"])
def test_the_tree_keeps_no_virtual_loss_after_the_search(root):
    """Every walk's virtual loss comes off: visits add up to the walks (all the simulations with ``ucb``; halving's
    phases may leave fewer than one a move unspent) and means stay inside [-1, 1]."""
    bot = GuidedBot(sims=40, batch=8, root=root)
    game = next(g for g in decision_points() if len(g.legal_actions()) >= 3)
    stats = bot.search(Knowledge.from_game(game, game.current), np.random.default_rng(2))
    unspent = 0 if root == "ucb" else len(game.legal_actions()) - 1
    assert 40 - unspent <= sum(visits for visits, _ in stats.values()) <= 40
    assert all(-1.0 <= mean <= 1.0 for _, mean in stats.values())


def test_guided_is_reproducible_for_a_seed():
    game = next(g for g in decision_points() if len(g.legal_actions()) >= 3)
    seat = game.current
    answers = {make_bot(FAST).act_game(game, seat, np.random.default_rng(5)) for _ in range(3)}
    assert len(answers) == 1
    assert make_bot(FAST).act(game.view(seat), np.random.default_rng(5)) in answers


def test_guided_refuses_a_table_its_value_network_was_not_trained_for():
    from agents.base import table_mismatch
    from shithead_env import load_rules

    bot = make_bot(FAST)
    assert bot.covers("dead_last", 4)
    assert not bot.covers("pub", 5)
    assert "value network" in table_mismatch(bot, load_rules("pub"), 5)
    # A prior whose card does not cover the table is refused up front too, not dropped mid-game.
    harrogate_prior = GuidedBot(sims=4, prior="agents/pretrained/harrogate", root="ucb")
    assert not harrogate_prior.covers("dead_last", 4)
    assert "where its prior covers harrogate" in table_mismatch(harrogate_prior, load_rules("dead_last"), 4)


class TreeKeeping(GuidedBot):
    """``guided`` that keeps its last search's tree (``self.tree``) for a test to walk."""

    def _walk(self, root, game, rng, priors, first=None):
        self.tree = root
        return super()._walk(root, game, rng, priors, first)


def test_an_opponent_model_plays_every_other_seat_in_the_tree_and_only_them():
    """With ``opponents`` a bot, the other seats' edges are that bot's moves on the sampled deals, asked of it
    from their own seats; the searching seat's edges are searched (several tried where it had a choice)."""
    from agents.heuristic import HeuristicBot

    class Spy(HeuristicBot):
        def __init__(self) -> None:
            super().__init__()
            self.asked: list[tuple[int, Action]] = []

        def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
            action = super().act_game(game, seat, rng)
            self.asked.append((seat, action))
            return action

    bot = TreeKeeping(sims=60, batch=4, opponents="heuristic")
    bot.opponent_model = spy = Spy()
    game = next(g for g in decision_points() if len(g.legal_actions()) >= 3)
    me = game.current
    bot.search(Knowledge.from_game(game, me), np.random.default_rng(3))
    assert spy.asked and all(seat != me for seat, _ in spy.asked)
    answers = {action for _, action in spy.asked}
    searched = 0
    stack = [bot.tree]
    while stack:
        node = stack.pop()
        for action, child in node.children.items():
            if child.seat != me and len(node.children) > 1:
                assert action in answers  # another seat's edge: a move the model made
            searched += child.seat == me
            stack.append(child)
    assert len(bot.tree.children) >= 3 and searched > len(bot.tree.children)


def recorded_halving(bot_class, **options):
    """A halving search by ``bot_class(**options)`` from a position with three or more moves, checked to be
    halving's (the same moves on every deal of a phase, each phase the better half of the one before, a fresh deal
    for every round of walks): the root's knowledge, the walks, the phases (each the order of the moves walked on
    every one of its deals, with the number of its deals), the bot's ``batch``, the search's seconds and its waves
    of deals (each one's start, in seconds after the first one's, and how many moves it walks)."""
    walks: list[tuple[Action, str]] = []
    waves: list[tuple[float, int]] = []

    class Recording(bot_class):
        def _walk(self, root, game, rng, priors, first=None):
            walks.append((first, json.dumps(game.to_dict(), sort_keys=True)))
            return super()._walk(root, game, rng, priors, first)

        def _walk_deals(self, root, moves, count, determinizer, rng):
            waves.append((time.perf_counter(), len(moves)))
            return super()._walk_deals(root, moves, count, determinizer, rng)

    bot = Recording(root="halving", **options)
    game = next(g for g in decision_points() if len(g.legal_actions()) >= 3)
    knowledge = Knowledge.from_game(game, game.current)
    start = time.perf_counter()
    stats = bot.search(knowledge, np.random.default_rng(5))
    seconds = time.perf_counter() - start
    assert sum(visits for visits, _ in stats.values()) == len(walks)
    chunks = []  # the walks on one deal, in order
    for first, deal in walks:
        if not chunks or chunks[-1][0] != deal:
            chunks.append((deal, []))
        chunks[-1][1].append(first)
    phases, deals = [chunks[0][1]], [1]
    for _, order in chunks[1:]:
        if order == phases[-1]:
            deals[-1] += 1
            continue
        assert set(order) < set(phases[-1]) and len(order) == -(-len(phases[-1]) // 2)
        phases.append(order)
        deals.append(1)
    assert phases[0] == knowledge.legal and len(phases) == int(np.ceil(np.log2(len(knowledge.legal))))
    assert len({deal for deal, _ in chunks}) == len(chunks)  # a fresh deal for each
    last = phases[-1]
    assert most_visited(stats) in last
    assert stats[most_visited(stats)][1] == max(stats[move][1] for move in last)
    waves = [(started - waves[0][0], moves) for started, moves in waves]
    return knowledge, len(walks), list(zip(phases, deals, strict=True)), bot.batch, seconds, waves


@pytest.mark.parametrize("bot_class", [GuidedBot, ISMCTSBot])
def test_halving_compares_the_roots_moves_on_the_same_deals_and_plays_the_last_one_standing(bot_class):
    """``root=halving``: each phase gives every move still in one walk on each of the same fresh deals, half of them
    go on, the budget is spent, and the move played is the best by mean of the last ones standing."""
    knowledge, walks, _, _, _, _ = recorded_halving(bot_class, sims=100)
    assert 100 - len(knowledge.legal) < walks <= 100


@pytest.mark.parametrize("bot_class", [GuidedBot, ISMCTSBot])
def test_halving_on_a_time_budget_shares_the_seconds_among_its_phases(bot_class):
    """With ``time`` the phases are halving's too, each walking waves of new deals until its share of the
    seconds has passed: a longer budget walks more deals in every phase. The timings hold on any machine, loaded or
    not: the search spends its budget, and in phase k of n it starts a wave after its first only before k/n of it
    has passed (each wave's start measured from the first's, which is after the search's own start)."""
    budget = 0.6
    _, short_walks, short, batch, _, _ = recorded_halving(bot_class, time=1e-6)
    _, long_walks, long, _, seconds, waves = recorded_halving(bot_class, time=budget)
    assert [len(moves) for moves, _ in short] == [len(moves) for moves, _ in long]
    assert [deals for _, deals in short] == [-(-batch // len(moves)) for moves, _ in short]  # one wave a phase
    assert all(more > fewer for (_, more), (_, fewer) in zip(long, short, strict=True)) and long_walks > 4 * short_walks
    assert seconds >= budget
    sizes = [len(moves) for moves, _ in long]
    assert [moves for _, moves in waves] == sorted((moves for _, moves in waves), reverse=True)  # phase by phase
    for phase, size in enumerate(sizes):
        starts = [started for started, moves in waves if moves == size]
        assert len(starts) > 1  # more than the one wave a phase always walks
        assert all(started < budget * (phase + 1) / len(sizes) for started in starts[1:]), (phase, starts)


def test_the_default_watches_the_heuristic_model_and_its_card_is_the_spelt_out_specs():
    """``opponents=auto`` (the default) is ``heuristic`` watched: the same bot, card and play as the spec that spells
    it out; ``opponents=search`` models no seat and ``opponents=heuristic`` models every seat unwatched."""
    from agents.heuristic import HeuristicBot

    default, spelt = make_bot("guided"), make_bot("guided:opponents=heuristic,watch=true")
    plain, modelled = make_bot("guided:opponents=search"), make_bot("guided:opponents=heuristic")
    assert isinstance(default.opponent_model, HeuristicBot) and default.watch and default.sims == 600
    assert default.card == spelt.card and default.card["opponents"] == "heuristic" and default.card["watch"]
    assert plain.opponent_model is None and plain.card["opponents"] == "search" and not plain.watch
    assert modelled.card["opponents"] == "heuristic" and not modelled.watch and "watch" not in modelled.card
    game = Game.new("dead_last", 4, seed=3)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    fast, fast_spelt = make_bot(FAST), make_bot(FAST + ",opponents=heuristic,watch=true")
    for _ in range(40):
        if game.is_over:
            break
        seat = game.current
        move = fast.act_game(game, seat, rng_a)
        assert move == fast_spelt.act_game(game, seat, rng_b)
        game.step(move)


def seats_left(seats: int) -> Game:
    """A 4-player position of a heuristic game where only ``seats`` seats hold cards and the one to act has a
    choice."""
    heuristic, rng = make_bot("heuristic"), np.random.default_rng(0)
    for seed in range(20):
        game = Game.new("dead_last", 4, seed=seed)
        while not game.is_over:
            if sum(game.active) == seats and len(game.legal_actions()) >= 2 and sum(map(len, game.hands)) >= 10:
                return game
            game.step(heuristic.act_game(game, game.current, rng))
    raise AssertionError(f"no position with {seats} seats left and a choice in 20 heuristic games")


@pytest.mark.parametrize(("seats", "search_all_at"), [(2, 0), (2, 2), (2, 3), (3, 2), (3, 3)])
def test_search_all_at_n_drops_the_opponent_model_once_n_seats_or_fewer_hold_cards(seats, search_all_at):
    """``search_all_at=N``: with N seats or fewer holding cards the tree searches the other seats' choices (several
    edges tried where one has a choice) and never asks the model; with more (or N = 0) it asks the model only."""
    from agents.ismcts import _Node

    bot = TreeKeeping(sims=120, batch=4, search_all_at=search_all_at, opponents="heuristic")
    asked = []
    model_act = bot.opponent_model.act_game
    bot.opponent_model.act_game = lambda game, seat, rng: asked.append(seat) or model_act(game, seat, rng)
    game = seats_left(seats)
    me = game.current
    bot.search(Knowledge.from_game(game, me), np.random.default_rng(3))
    stack: list[_Node] = [bot.tree]
    other_choices = 0
    while stack:
        node = stack.pop()
        other_choices += sum(child.seat != me for child in node.children.values()) > 1
        stack.extend(node.children.values())
    if seats <= search_all_at:
        assert other_choices and not asked
    else:
        assert asked and not other_choices
    assert ("search_all_at" in bot.card) == bool(search_all_at)  # the card names the option only when it is set


def test_the_default_root_is_halving_and_its_card_says_so():
    """``guided`` compares its root's moves on shared deals (docs/bots.md, "Sequential halving at the root");
    ``ismcts`` keeps ISUCB at the root."""
    guided, ucb = make_bot("guided"), make_bot("guided:root=ucb")
    assert guided.root_rule == "halving" and guided.card["root"] == "halving"
    assert ucb.root_rule == "ucb" and ucb.card["root"] == "ucb"
    assert make_bot("ismcts").root_rule == "ucb"


class _Winning:
    """A value network that has seat 0 win from every position: the search can tell its moves apart only by how
    soon they finish."""

    def scores(self, games):
        return [[0.8, -0.8] for _ in games]


def won_position() -> Game:
    """power_deck, 2 players, 300 decisions in: seat 0 can shed its hand (2 resets, then A A) or pick the pile up
    voluntarily."""
    return position(
        "power_deck",
        [{"hand": "2 A A", "face_up": "5 5 A", "face_down": "4 4 4"},
         {"hand": "3 3 6 6 7", "face_up": "T J Q", "face_down": "9 9 9"}],
        pile="K K",
        decisions=300,
    )


def test_lead_discount_makes_a_search_that_wins_whatever_it_does_finish_sooner_once_the_game_has_run_long():
    """Without ``lead_discount`` every move of a won position scores the same, so nothing makes the search finish
    (the loops of 2-player power_deck); with it, from ``lead_discount_after`` decisions on, each card still held
    costs a share of the lead and picking up the pile scores worst. Seats behind keep their values."""
    game = won_position()
    assert Action.pickup() in game.legal_actions()
    knowledge = Knowledge.from_game(game, 0)
    means = {}
    for options in ("lead_discount=0", "lead_discount_after=301", ""):  # the default: 0.05 from decision 300
        bot = make_bot(f"guided:sims=64,{options}")
        bot.value = _Winning()
        stats = bot.search(knowledge, np.random.default_rng(0))
        means[options] = {action: mean for action, (_, mean) in stats.items()}
    for undiscounted in ("lead_discount=0", "lead_discount_after=301"):
        assert list(means[undiscounted].values()) == pytest.approx([0.8] * len(means[undiscounted]))
    discounted = means[""]
    assert min(discounted, key=discounted.__getitem__) == Action.pickup()
    assert max(discounted.values()) < 0.8
    assert bot._discount_leads(game, [0.8, -0.8]) == [pytest.approx(0.8 * 0.95**9), -0.8]  # 9 cards: hand, up, down


def test_before_lead_discount_after_the_search_is_exactly_the_undiscounted_ones():
    """The discount reads the root's decision count, so every search before ``lead_discount_after`` decisions is
    ``lead_discount=0``'s, to the root's means."""
    discounted = make_bot("guided:sims=16,batch=4,lead_discount=0.5,lead_discount_after=60")
    plain = make_bot("guided:sims=16,batch=4,lead_discount=0")
    searched = 0
    for game in decision_points(games=1):
        if game.decisions >= 60:
            break
        knowledge = Knowledge.from_game(game, game.current)
        rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
        assert discounted.search(knowledge, rng_a) == plain.search(knowledge, rng_b)
        searched += 1
    assert searched > 10


# spec -> (decisions in two seeded 2-player power_deck games, sha256 prefix of their action indices), recorded with
# the discount on from the start, with the value networks as trained: the games the leaves' discount shortens
DISCOUNTED_GAMES = {
    "guided:precision=fp32,sims=16,batch=4,lead_discount_after=0": (490, "de56663de676b3a4"),
    "guided:precision=fp32,sims=16,batch=4,lead_discount=0.2,lead_discount_after=20": (538, "8913a1f8e0d42815"),
}


@pytest.mark.parametrize("spec", list(DISCOUNTED_GAMES))
def test_the_lead_discount_plays_the_recorded_games(spec):
    """Two seeded games, the bot in every seat (through the fast path and the JSON view): move for move the
    recorded ones."""
    bot = make_bot(spec)
    assert played_games(bot, "power_deck", 2, range(2)) == DISCOUNTED_GAMES[spec]
    assert bot.card["lead_discount_after"] == int(spec.rpartition("=")[2])


@pytest.mark.parametrize(
    ("spec", "named"),
    [("guided:c_puct=-1", "c_puct >= 0"), ("guided:batch=0", "batch >= 1"), ("guided:prior_temp=0", "prior_temp > 0"),
     ("guided:value=nowhere", "not a value network directory"),
     ("guided:opponents=nobot", "option 'opponents' must be 'search', 'auto' or a bot spec: unknown bot 'nobot'"),
     ("guided:root=best", "guided option 'root' must be one of ucb, halving, got 'best'"),
     ("guided:search_all_at=-1", "guided needs sims >= 1, time >= 0, c >= 0, horizon >= 0 and search_all_at >= 0"),
     ("guided:sims=0", "guided needs sims >= 1"),
     ("guided:time=-1", "guided needs sims >= 1, time >= 0"),
     ("guided:lead_discount=1", "guided needs 0 <= lead_discount < 1 and lead_discount_after >= 0, got 1.0, 300"),
     ("guided:lead_discount_after=-1", "lead_discount_after >= 0, got 0.05, -1"),
     ("guided:prior=auto", "guided option 'prior' needs 'root=ucb': it guides the root's ucb choice")],
)
def test_bad_options_are_refused_by_name(spec, named):
    with pytest.raises((ValueError, FileNotFoundError), match=named):
        make_bot(spec)


def test_value_features_read_the_full_state_from_the_seat_to_act():
    game = next(decision_points())
    features = value_features(game)
    assert features.shape == (FEATURE_SIZE,) and features.dtype == np.float32
    same = game.copy()
    same.face_down[(game.current + 1) % 4].reverse()  # the same cards in another order: the same features
    assert np.array_equal(value_features(same), features)
    left, right = (game.current + 1) % 4, (game.current + 2) % 4
    other = game.copy()  # one hidden card of another rank traded between two opponents' face-down cards
    i, j = next((i, j) for i, a in enumerate(other.face_down[left]) for j, b in enumerate(other.face_down[right])
                if a >> 2 != b >> 2)
    other.face_down[left][i], other.face_down[right][j] = other.face_down[right][j], other.face_down[left][i]
    assert not np.array_equal(value_features(other), features)
    finished = Game.new("dead_last", 4, seed=0)
    while not finished.is_over:
        finished.step(finished.legal_actions()[0])
    with pytest.raises(ValueError, match="live game"):
        value_features(finished)


def test_value_network_scores_are_per_seat_in_seat_order():
    net = ValueNet(DEAD_LAST_VALUE)
    game = next(decision_points())
    slots = net.run(value_features(game)[None])[0]
    assert slots.shape == (MAX_SEATS,)
    (scores,) = net.scores([game])
    assert scores == [pytest.approx(float(slots[(s - game.current) % 4])) for s in range(4)]


def test_a_value_card_without_a_name_is_named_by_its_directory(tmp_path):
    directory = tmp_path / "my_value"
    shutil.copytree(resolve_value_dir("value_pub_2p"), directory)
    card = json.loads((directory / "value.json").read_text(encoding="utf-8"))
    del card["name"]
    (directory / "value.json").write_text(json.dumps(card), encoding="utf-8")
    net = ValueNet(directory)  # the shipped form, named with its precision
    assert net.name == "my_value" and net.networks == {"my_value:fp16w": card["model"]["shipped"]["sha256"]}
    assert ValueNet(directory, precision="fp32").networks == {"my_value": card["model"]["sha256"]}


def test_value_network_scores_stay_in_the_score_range():
    net = ValueNet(DEAD_LAST_VALUE)
    features = np.stack([value_features(game) for game in decision_points(games=1)]) * 50.0  # far off its inputs
    raw = net.session.run(None, {net.session.get_inputs()[0].name: features.astype(np.float32)})[0]
    assert np.abs(raw).max() > 1.0  # the linear head strays past the range here
    assert np.array_equal(net.run(features), np.clip(raw, -1.0, 1.0))


def test_value_auto_scores_each_table_with_its_own_network():
    values = load_values("auto")
    assert isinstance(values, ShippedValues)
    assert values.covers("dead_last", 4) and values.covers("harrogate", 4) and not values.covers("pub", 5)
    dead_last, harrogate = next(decision_points()), next(decision_points("harrogate"))
    own = {"dead_last": ValueNet(DEAD_LAST_VALUE), "harrogate": ValueNet("value_harrogate_4p")}
    expected = [own[g.rules.name].scores([g])[0] for g in (dead_last, harrogate, dead_last)]
    assert own["dead_last"].scores([harrogate]) != own["harrogate"].scores([harrogate])
    assert values.scores([dead_last, harrogate, dead_last]) == [pytest.approx(row, abs=1e-5) for row in expected]
    with pytest.raises(ValueError, match="no shipped value network covers pub with 5 players"):
        values.net_for("pub", 5)


def test_a_value_card_for_other_features_is_refused(tmp_path):
    source = resolve_value_dir(DEAD_LAST_VALUE)
    card = json.loads((source / "value.json").read_text())
    card["feature_size"] = FEATURE_SIZE + 1
    (tmp_path / "value.json").write_text(json.dumps(card))
    (tmp_path / "value.onnx").write_bytes((source / "value.onnx").read_bytes())
    with pytest.raises(ValueError, match="retrain it"):
        ValueNet(tmp_path)
