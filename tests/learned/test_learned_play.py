"""The "learned" strategy family: its pass features against a plain twin, its
pass and betting decisions (R7, R11, R13-R17) and its parameters.

The engine-vs-simulator agreement over the family is in tests/sim/test_agreement.py.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from naive_learned import naive_features

from anaconda_sim.cards import parse_cards
from anaconda_sim.game import views as V
from anaconda_sim.learned.params import (
    LEARNED_DEFAULTS,
    N_PASS,
    PARAM_NAMES,
    PASS_FEATURES,
    shipped_params,
)
from anaconda_sim.learned.play import pass_features_of
from anaconda_sim.strategies import KIND_LEARNED, get_strategy, parse_strategies


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
    from anaconda_sim.analysis.driver import pub_at_pass

    return pub_at_pass(players)


def test_R7_the_learned_pass_is_the_best_scored_pass():
    rng = np.random.default_rng(5)
    weights = rng.normal(size=N_PASS)
    strategy = get_strategy("learned", **dict(zip([f"w_{f}" for f in PASS_FEATURES], weights,
                                                  strict=True)))  # fmt: skip
    features = np.empty((35, N_PASS))
    for _ in range(200):
        hand = rng.choice(52, 7, replace=False).astype(np.int64)
        packet = strategy.decide_pass(_pub_at_pass(4), _own(hand.tolist()), np.zeros(1, np.uint64))
        pass_features_of(hand, features)
        best = int(np.argmax(features @ weights))
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
    return get_strategy("learned", **{**LEARNED_DEFAULTS, **params})


def test_R11_a_board_showing_four_to_a_flush_is_respected_when_told_to():
    # trips (category 3) facing a bet from a seat showing four spades
    pub = _pub_facing_bet(3, {1: "9♠ 8♠ 3♠ 2♠", 2: "2♦ 5♥ 9♣ J♦"}, 4)
    own = _own(parse_cards("Q♥ Q♦ Q♣ 7♥ 4♦"))
    rng = np.zeros(1, np.uint64)
    reads = _learned(continue_r4=1.0, respect_draws=1.0)
    blind = _learned(continue_r4=1.0, respect_draws=0.0)
    assert reads.decide_bet(pub, own, rng) == V.INTENT_FOLD
    assert blind.decide_bet(pub, own, rng) == V.INTENT_PASSIVE
    # a flush of its own beats the draw: it calls
    flush = _own(parse_cards("A♥ J♥ 8♥ 6♥ 2♥"))
    assert reads.decide_bet(pub, flush, rng) == V.INTENT_PASSIVE


def test_R11_an_exposed_pair_over_a_pair_folds_and_thresholds_are_per_round():
    pub = _pub_facing_bet(3, {1: "K♠ K♥ 3♦ 2♣", 2: "2♦ 5♥ 9♣ J♦"}, 4)
    pair = _own(parse_cards("Q♥ Q♦ 7♣ 5♥ 4♦"))
    rng = np.zeros(1, np.uint64)
    loose = _learned(continue_r4=1.0, respect_exposed=0.0)
    assert loose.decide_bet(pub, pair, rng) == V.INTENT_PASSIVE
    assert _learned(continue_r4=1.0).decide_bet(pub, pair, rng) == V.INTENT_PASSIVE
    assert _learned(continue_r4=2.0).decide_bet(pub, pair, rng) == V.INTENT_FOLD
    bold = _learned(aggressive_r4=1.0)
    assert bold.decide_bet(pub, pair, rng) == V.INTENT_AGGRESSIVE


def test_learned_parameters_by_table_size_and_by_name():
    strategy = get_strategy("learned")
    assert strategy.kind == KIND_LEARNED and strategy.spec() == "learned"
    for players in range(2, 8):
        shipped = shipped_params(players)
        assert strategy.param_array(players)[: len(PARAM_NAMES)].tolist() == [
            shipped[n] for n in PARAM_NAMES
        ]
    custom = parse_strategies("learned:bluff=0.1,w_flush4=2")[0]
    assert custom.spec() == "learned:w_flush4=2,bluff=0.1"
    array = custom.param_array(5)
    assert array[PARAM_NAMES.index("bluff")] == 0.1
    assert array[PARAM_NAMES.index("w_flush4")] == 2.0
    with pytest.raises(ValueError, match="give players="):
        custom.param_array()
    complete = get_strategy("learned", **LEARNED_DEFAULTS)
    assert complete.param_array()[: len(PARAM_NAMES)].tolist() == list(LEARNED_DEFAULTS.values())
    with pytest.raises(ValueError, match="strategy 'learned' has no parameter 'colour'"):
        get_strategy("learned", colour=1)
    with pytest.raises(ValueError, match="no learned parameters for players=9"):
        shipped_params(9)
