"""The "learned" strategy family: its pass features against a plain twin, its
pass and betting decisions (R7, R11, R13-R17) and its parameters.

The engine-vs-simulator agreement over the family is in tests/sim/test_agreement.py.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from naive_learned import naive_features, naive_own_bucket, naive_win_probability

from anaconda_sim.cards import parse_cards
from anaconda_sim.strategies import KIND_LEARNED, get_strategy, parse_strategies
from anaconda_sim.strategies.learned.params import (
    LEARNED_DEFAULTS,
    N_PASS,
    PARAM_NAMES,
    PASS_FEATURES,
    TABLE0,
    WIN_TABLE_SHAPE,
    WIN_TABLE_SIZE,
    shipped_params,
    shipped_win_table,
)
from anaconda_sim.strategies.learned.play import pass_features_of
from anaconda_sim.strategies.learned.winprob import win_probability
from anaconda_sim.table import views as V


def test_pass_features_match_the_plain_twin_on_random_hands():
    rng = np.random.default_rng(11)
    out = np.empty((35, N_PASS))
    for _ in range(400):
        hand = rng.choice(52, 7, replace=False).astype(np.int64)
        pass_features_of(hand, out)
        for k, passed_at in enumerate(itertools.combinations(range(7), 3)):
            passed = [int(hand[i]) for i in passed_at]
            kept = [int(c) for i, c in enumerate(hand) if i not in passed_at]
            assert out[k].tolist() == pytest.approx(naive_features(kept, passed)), (hand, k)


@pytest.mark.parametrize(
    ("kept", "feature"),
    [
        ("9♠ 8♥ 7♦ 6♣", "open_straight"),
        ("J♠ Q♥ K♦ A♣", "gutshot"),  # one-ended
        ("A♠ 2♥ 3♦ 4♣", "gutshot"),
        ("9♠ 8♥ 6♦ 5♣", "gutshot"),
        ("9♠ 8♠ 3♠ 2♠", "flush4"),
    ],
)
def test_draws_are_recognised(kept, feature):
    assert naive_features(parse_cards(kept), parse_cards("2♦ 7♥ K♣"))[
        PASS_FEATURES.index(feature)
    ] == 1.0


def _own(cards: list[int], seat: int = 0) -> np.ndarray:
    own = V.new_own(seat)
    own[V.O_NCARDS] = len(cards)
    own[V.O_CARDS : V.O_CARDS + len(cards)] = cards
    return own


def _pub_at_pass(players: int) -> np.ndarray:
    from anaconda_sim.sim.models import pub_at_pass

    return pub_at_pass(players)


def test_R7_the_learned_pass_is_the_best_scored_pass():
    rng = np.random.default_rng(5)
    weights = rng.normal(size=N_PASS)
    strategy = get_strategy("learned", **dict(zip([f"w_{f}" for f in PASS_FEATURES], weights,
                                                  strict=True)))  # fmt: skip
    features = np.empty((35, N_PASS))
    for i in range(3000):
        if i % 2:  # five ranks or fewer: groups, and straights among connected ranks
            low = int(rng.integers(0, 9))
            pool = [4 * r + s for r in range(low, low + 5) for s in range(4)]
            hand = rng.choice(pool, 7, replace=False).astype(np.int64)
        else:
            hand = rng.choice(52, 7, replace=False).astype(np.int64)
        packet = strategy.decide_pass(_pub_at_pass(4), _own(hand.tolist()), np.zeros(1, np.uint64))
        pass_features_of(hand, features)
        # scores summed feature by feature, as the kernel does (so exact ties,
        # frequent among hands of few ranks, break the same way: first best)
        scores = np.zeros(35)
        for f in range(N_PASS):
            scores += weights[f] * features[:, f]
        best = int(np.argmax(scores))
        expected = [int(hand[i]) for i in list(itertools.combinations(range(7), 3))[best]]
        assert sorted(packet.tolist()) == sorted(expected)


def test_a_learned_pass_keeps_a_four_flush_when_told_to():
    hand = parse_cards("9♠ 8♠ 3♠ 2♠ K♥ Q♦ 4♣")
    flushy = get_strategy("learned", w_flush4=5.0)
    packet = flushy.decide_pass(_pub_at_pass(4), _own(hand), np.zeros(1, np.uint64))
    assert sorted(packet.tolist()) == sorted(parse_cards("K♥ Q♦ 4♣"))


def _pub_facing_bet(players: int, exposed: dict[int, str], revealed: int) -> np.ndarray:
    pub = _pub_at_pass(players)
    pub[V.P_STAGE] = V.STAGE_REVEAL + revealed
    pub[V.P_REVEALED] = revealed
    pub[V.P_LEVEL] = 1
    pub[V.P_BET_SIZE] = 1
    pub[V.P_IN_ROUND + 1] = 1
    for seat, cards in exposed.items():
        for j, c in enumerate(parse_cards(cards)):
            pub[V.P_EXPOSED + 4 * seat + j] = c
    return pub


def _learned(**params: float):
    """The family at its starting vector with ``params`` changed (independent
    of the shipped, learned values)."""
    return get_strategy("learned-v1", **{**LEARNED_DEFAULTS, **params})


def _with_table(strategy, fill: float, **entries: float):
    """``strategy`` with a win table of ``fill`` everywhere but ``entries``
    (``"s{stage}_b{bucket}_e{exposure}"``: probability)."""
    table = np.full(WIN_TABLE_SHAPE, fill)
    for key, value in entries.items():
        stage, bucket, exposure = (int(part[1:]) for part in key.split("_"))
        table[stage, bucket, exposure] = value
    return dataclasses.replace(strategy, win_table=tuple(table.reshape(-1)))


def test_R11_the_win_table_reads_four_suited_or_connected_cards_on_the_board():
    # the last reveal round (stage 5): a seat showing four spades, another
    # showing four to a straight, a third nothing
    pub = _pub_facing_bet(4, {1: "9♠ 8♠ 3♠ 2♠", 2: "9♦ 8♥ 7♣ 5♦", 3: "2♦ 5♥ 9♣ K♦"}, 4)
    trips = _own(parse_cards("Q♥ Q♦ Q♣ 7♥ 4♦"))  # own bucket 5
    base = get_strategy("learned-v1", **LEARNED_DEFAULTS)
    strategy = _with_table(base, 0.9, s5_b5_e2=0.2, s5_b5_e1=0.5, s5_b5_e0=0.8)
    params = strategy.param_array(4)
    assert win_probability(pub, trips, params, 5) == pytest.approx(0.2 * 0.5 * 0.8)
    assert naive_win_probability(pub, trips, params) == pytest.approx(0.2 * 0.5 * 0.8)
    # a folded rival does not count
    pub[V.P_FOLDED + 1] = 1
    assert win_probability(pub, trips, params, 5) == pytest.approx(0.5 * 0.8)


def test_R11_the_shipped_table_fears_a_four_flush_and_an_exposed_higher_pair():
    for players in (3, 6):
        table = shipped_win_table(players).reshape(WIN_TABLE_SHAPE)
        trips, flush_high, pair_high = 5, 8, 2
        # at the last reveal round: trips against four suited cards shown vs nothing shown
        assert table[5, trips, 2] < table[5, trips, 0]
        # a high flush fears a four-flush much less than trips do
        assert table[5, flush_high, 2] > table[5, trips, 2]
        # a pair of tens or better against an exposed two pair: almost never ahead
        assert table[5, pair_high, 5] < 0.05


def test_R13_bet_raise_call_and_fold_thresholds_per_round_and_the_pot_odds():
    pub = _pub_facing_bet(2, {1: "2♦ 5♥ 9♣ J♦"}, 4)  # heads-up, facing one bet
    pub[V.P_POT] = 9  # calling 1 to win 10: break-even probability 0.1
    own = _own(parse_cards("Q♥ Q♦ 7♣ 5♥ 4♦"))  # a pair of queens: bucket 2
    rng = np.zeros(1, np.uint64)
    base = get_strategy("learned-v1", **LEARNED_DEFAULTS)
    strategy = _with_table(base, 0.5, s5_b2_e0=0.3)
    assert naive_own_bucket(parse_cards("Q♥ Q♦ 7♣ 5♥ 4♦")) == 2

    def decide(**params: float) -> int:
        s = dataclasses.replace(get_strategy("learned-v1", **{**LEARNED_DEFAULTS, **params}),
                                win_table=strategy.win_table)  # fmt: skip
        return s.decide_bet(pub, own, rng)

    assert decide(raise_r4=0.3) == V.INTENT_AGGRESSIVE
    assert decide(raise_r4=0.31, call_r4=3.0) == V.INTENT_PASSIVE  # 0.3 >= 3 x 0.1
    assert decide(raise_r4=0.31, call_r4=3.01) == V.INTENT_FOLD
    assert decide(raise_r4=0.31, call_r4=3.01, raise_r3=0.0) == V.INTENT_FOLD  # other round
    # with nothing to call: bet at bet_r4, otherwise check
    pub[V.P_LEVEL] = 0
    assert decide(bet_r4=0.3) == V.INTENT_AGGRESSIVE
    assert decide(bet_r4=0.31) == V.INTENT_PASSIVE


def test_learned_parameters_by_table_size_and_by_name():
    strategy = get_strategy("learned-v1")
    assert strategy.kind == KIND_LEARNED and strategy.spec() == "learned-v1"
    for players in range(2, 8):
        shipped = shipped_params(players)
        assert strategy.param_array(players)[: len(PARAM_NAMES)].tolist() == [
            shipped[n] for n in PARAM_NAMES
        ]
    custom = parse_strategies("learned-v1:bluff=0.1,w_flush4=2")[0]
    assert custom.spec() == "learned-v1:w_flush4=2,bluff=0.1"
    array = custom.param_array(5)
    assert array[PARAM_NAMES.index("bluff")] == 0.1
    assert array[PARAM_NAMES.index("w_flush4")] == 2.0
    with pytest.raises(ValueError, match="give players="):
        custom.param_array()
    complete = get_strategy("learned-v1", **LEARNED_DEFAULTS)
    assert complete.param_array(3)[: len(PARAM_NAMES)].tolist() == list(LEARNED_DEFAULTS.values())
    assert complete.param_array(3)[TABLE0:].tolist()[:WIN_TABLE_SIZE] == (
        shipped_win_table(3).tolist()
    )
    own_table = dataclasses.replace(complete, win_table=tuple(np.full(WIN_TABLE_SIZE, 0.25)))
    assert own_table.param_array()[TABLE0 : TABLE0 + WIN_TABLE_SIZE].tolist() == (
        [0.25] * WIN_TABLE_SIZE
    )
    assert own_table.spec().startswith(complete.spec() + ",win_table=")
    assert own_table.spec() != dataclasses.replace(
        complete, win_table=tuple(np.full(WIN_TABLE_SIZE, 0.5))
    ).spec()
    with pytest.raises(ValueError, match="strategy 'learned' has no parameter 'colour'"):
        get_strategy("learned", colour=1)
    with pytest.raises(ValueError, match="strategy 'learned' has no parameter 'bet_r1'"):
        get_strategy("learned", bet_r1=0.5)
    with pytest.raises(ValueError, match="no learned parameters for players=9"):
        shipped_params(9)
