"""learn(): iterated best response for the "learned" family (fictitious play)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from anaconda_sim.learning import learn
from anaconda_sim.learning.tables import (
    argmax_regret,
    fit_weights,
    pass_betting_table,
    pass_table,
    stratified_hands,
)
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.learned.params import N_PASS

TINY = dict(situations=6, deals=60, bet_deals=300, table_deals=400, eval_hands=4, eval_deals=60,
            order_situations=3, order_deals=40, pass_bet_situations=3, pass_bet_deals=40)


def test_the_fit_recovers_a_planted_pass_rule():
    """Values made by a known weight vector: the fitted argmax policy picks
    the same passes (no regret), from a start that picks others."""
    rng = np.random.default_rng(4)
    features = rng.random((300, 35, N_PASS))
    planted = rng.normal(size=N_PASS)
    values = features @ planted
    start = np.zeros(N_PASS)
    start[0] = 1.0
    before = argmax_regret(features, values, start)
    fitted = fit_weights(features, values, start, steps=600)
    after = argmax_regret(features, values, fitted)
    assert before > 0.1 and after < 0.02 * before


def test_pass_table_values_are_pass_values():
    from anaconda_sim.analysis import pass_values

    hands = stratified_hands(2, seed=9)
    features, values = pass_table(hands, 3, get_strategy("sensible"), 200, seed=1)
    assert features.shape == (2, 35, N_PASS) and values.shape == (2, 35)
    assert np.all((values >= 0) & (values <= 1))
    # a hand's values are pass_values' on the same deals (root seed, same model)
    from anaconda_sim.learning.family import child_seed

    table = pass_values(hands[0], 3, opponents="sensible", deals=200, seed=child_seed(1, 0),
                        progress=False, unicode=False)  # fmt: skip
    assert sorted(table["value"]) == pytest.approx(sorted(values[0]), abs=1e-12)


def test_pass_betting_table_rows_are_the_situations_passes():
    """The betting block of the pass fit: row k of a situation is the k-th
    pass of its dealt seven (itertools.combinations order), with the
    features of that pass and its value from the exploitability model."""
    import itertools

    from anaconda_sim.learning.exploit import situation_values
    from anaconda_sim.strategies.learned.play import pass_features_of

    sensible = get_strategy("sensible")
    features, values = pass_betting_table(3, sensible, 2, 60, seed=7)
    assert features.shape == (2, 35, N_PASS) and values.shape == (2, 35)
    for i in range(2):
        choices, expected = situation_values(sensible, 3, "pass", 7, i, 60, betting=True)
        dealt = sorted(set(choices.reshape(-1).tolist()))
        assert len(dealt) == 7
        # the dealt seven in their dealt order: the order that gives these rows
        order = next(p for p in itertools.permutations(dealt)
                     if [list(c) for c in itertools.combinations(p, 3)] == choices.tolist())
        own = np.empty((35, N_PASS))
        pass_features_of(np.array(order, dtype=np.int64), own)
        assert np.array_equal(features[i], own)
        assert np.array_equal(values[i], expected)


def test_the_population_field_seats_each_stranger_in_every_other_seat_in_turn():
    """population_nets: the self-play block, then per stranger one block per
    other seat (equal shares), each the simulator's seat-0 nets of that
    table on its own seed."""
    from anaconda_sim.learning.betting import population_nets, seat_nets
    from anaconda_sim.learning.family import child_seed
    from anaconda_sim.sim.simulator import simulate

    sensible, call_down = get_strategy("sensible"), get_strategy("call-down")
    nets = population_nets(3, sensible, call_down, 50, seed=2, strangers=["sensible:bluff=0.3"])
    assert nets.shape == (100,)
    assert np.array_equal(nets[:50], seat_nets(3, sensible, call_down, 50, 2))
    stranger = get_strategy("sensible", bluff=0.3)
    blocks = []
    for seat, seats in ((1, [sensible, stranger, call_down]), (2, [sensible, call_down, stranger])):
        result = simulate(3, seats, 25, seed=child_seed(2, 1, seat), records=True, progress=False)
        records = result.records
        blocks.append(records.loc[records["seat"] == 0, "net"].to_numpy(dtype=np.float64))
    assert np.array_equal(nets[50:], np.concatenate(blocks))
    assert np.array_equal(population_nets(3, sensible, call_down, 50, seed=2),
                          seat_nets(3, sensible, call_down, 50, 2))  # fmt: skip


def test_stratified_hands_follow_the_class_probabilities():
    from anaconda_sim.hands.classes import classify, hand_classes

    hands = stratified_hands(400, seed=3)
    assert len({tuple(h) for h in hands}) > 350
    families = hand_classes().set_index("name")["family"]
    drawn = [families[classify(h)] for h in hands]
    # a pair is the most common family of seven cards (about 44% of hands)
    share = drawn.count("pair") / len(drawn)
    assert abs(share - 0.44) < 0.06


@pytest.mark.slow
def test_learning_is_seeded_and_resumes_from_its_checkpoint(tmp_path):
    one = learn(2, iterations=2, patience=5, seed=5, progress=False, **TINY)
    again = learn(2, iterations=2, patience=5, seed=5, progress=False, **TINY)
    assert one.params == again.params
    history = one.history.drop(columns="seconds")
    assert history.equals(again.history.drop(columns="seconds"))
    # interrupted after one iteration, then resumed: the same strategy
    path = tmp_path / "run.json"
    learn(2, iterations=1, patience=5, seed=5, checkpoint=path, progress=False, **TINY)
    assert len(json.loads(path.read_text())["history"]) == 1
    resumed = learn(2, iterations=2, patience=5, seed=5, checkpoint=path, progress=False, **TINY)
    assert resumed.params == one.params
    assert list(resumed.history["iteration"]) == [0, 1]
    with pytest.raises(ValueError, match=r"checkpoint .* is of players=2, seed=5"):
        learn(3, iterations=1, seed=5, checkpoint=path, progress=False, **TINY)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 8}, "is played by 2 to 7 players"),
        ({"iterations": 0}, "iterations=0 is too small; give iterations >= 1"),
        ({"seed": None}, "seed=None must be an int"),
        ({"start": {"colour": 1.0}}, "unknown learned parameter 'colour'"),
        ({"strangers": ["nobody"]}, "unknown strategy 'nobody'"),
        ({"strangers": "sensible"}, r"sequence of strategy specs, for example \('sensible',\)"),
        ({"pass_bet_situations": -1}, "pass_bet_situations=-1 is too small; give pass_bet_situations >= 0"),  # noqa: E501
    ],
)
def test_learn_bad_input(kwargs, message):
    args = {"players": 2, **kwargs}
    with pytest.raises((ValueError, TypeError), match=message):
        learn(args.pop("players"), progress=False, **{**TINY, **args})


def test_a_planted_weak_pass_is_exploitable_and_the_learned_one_nearly_not():
    """The shipped learned pass is (nearly) a best response to its own field;
    the same family with its pair weights reversed (it breaks pairs) is far
    from one."""
    from anaconda_sim import exploitability

    players, hands, deals = 3, 120, 300
    breaker = get_strategy("learned", w_pairs=-3.0, w_trips=-3.0, w_pair_rank=-1.0)
    weak = exploitability(breaker, players, "pass", hands=hands, deals=deals, seed=4)
    good = exploitability("learned", players, "pass", hands=hands, deals=deals, seed=4)
    weak_gain, good_gain = float(weak["value"].iloc[0]), float(good["value"].iloc[0])
    spread = float(np.hypot(weak["se"].iloc[0], good["se"].iloc[0]))
    assert weak_gain - good_gain > 4 * spread
    assert weak_gain > 0.05  # a planted weakness: over 5% of the pot
    # the learned pass: within four standard errors of 1% of the pot
    assert good_gain < 0.01 + 4 * float(good["se"].iloc[0])
