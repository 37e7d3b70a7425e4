"""Tests of the ace-to-five low evaluator (R23): order, descriptions, batch API, errors."""

from __future__ import annotations

from itertools import combinations, pairwise

import numpy as np
import pytest
from naive import naive_best_low

import anaconda_sim
from anaconda_sim.cards import CardError, parse_cards
from anaconda_sim.hands import low as low_module
from anaconda_sim.hands.low import (
    LOW_CATEGORY_NAMES,
    describe_low,
    evaluate_low,
    low_category,
    low_category_name,
    low_key,
    low_rows,
    low_rows_parallel,
)

# From the best low to the worst (R23): each hand is a strictly worse low than the previous.
LADDER = [
    "5s 4d 3c 2h Ah",  # the wheel: straight ignored
    "6s 4d 3c 2h Ah",
    "6s 5d 3c 2h Ah",
    "6s 5d 4c 3h 2h",  # 6-5-4-3-2 is worse than 6-5-3-2-A
    "7s 4d 3c 2h Ah",
    "8s 7d 6c 5h 4h",
    "8s 7d 6c 5h 4s",  # a tie with the previous (suits never count): skipped below
    "Ks Qd Jc Th 9h",  # worst no-pair hand
    "As Ad 2c 3h 4h",  # the best pair: aces with 4-3-2
    "As Ad 2c 3h 5h",
    "2s 2d Ac 3h 4h",
    "Ks Kd Qc Jh Th",  # worst pair
    "2s 2d Ac Ah 3h",  # best two pair: twos and aces, three kicker
    "2s 2d Ac Ah Kh",
    "3s 3d Ac Ah 2h",
    "Ks Kd Qc Qh Jh",  # worst two pair
    "As Ad Ac 2h 3h",  # best trips
    "Ks Kd Kc Qh Jh",
    "As Ad Ac 2h 2d",  # best full house
    "Ks Kd Kc Qh Qd",
    "As Ad Ac Ah 2d",  # best quads
    "Ks Kd Kc Kh Qd",  # the worst low of all
]


def test_ladder_strictly_worse_r23():
    """A ladder of hands from the wheel down to four kings (R23)."""
    values = [evaluate_low(h) for h in LADDER]
    tie = LADDER.index("8s 7d 6c 5h 4s")
    assert values[tie] == values[tie - 1]
    del values[tie]
    assert all(a > b for a, b in pairwise(values))
    assert values[0] == 6175
    assert values[-1] == 1


def test_aces_low_straights_and_flushes_ignored_r23():
    """Aces are low; a straight or a flush is just its ranks; no qualifier."""
    assert evaluate_low("Ah 2h 3h 4h 5h") == evaluate_low("As 2d 3c 4h 5s") == 6175
    assert evaluate_low("Ts 9s 8s 7s 6s") == evaluate_low("Td 9s 8c 7h 6s")
    assert evaluate_low("Ks 2d 3c 4h 5s") < evaluate_low("Qs Jd Tc 9h 8s")  # K high is worst
    assert evaluate_low("Ks Qd Jc Th 9s") > evaluate_low("As Ad 2c 3h 4s")  # any unpaired wins
    assert low_category_name(evaluate_low("Ks Qd Jc Th 9s")) == "No pair"  # no qualifier


def test_paired_hands_compare_as_in_high_poker_lower_better_r23():
    """Fewer and lower groups win; two pair compares the higher pair first, then kickers."""
    # 5-5-2-2-A (higher pair five) beats 6-6-A-A-2 (higher pair six)
    assert evaluate_low("5s 5d 2c 2h Ah") > evaluate_low("6s 6d Ac Ah 2h")
    # same pairs, kicker decides
    assert evaluate_low("5s 5d 2c 2h Ah") > evaluate_low("5c 5h 2s 2d 3h")
    # pair of threes: kickers from the highest down
    assert evaluate_low("3s 3d 7c 5h 2h") > evaluate_low("3c 3h 7s 6d Ah")
    # full house compares the trips first
    assert evaluate_low("2s 2d 2c Kh Kd") > evaluate_low("3s 3d 3c Ah Ad")


@pytest.mark.parametrize(
    "hand",
    [
        "Kc 9d 7s 5h 3c 3d 2s",
        "As Ad Ac Ah 2s 2d 2c",
        "Ks Kd Kc Kh Qs Qd Qc",
        "As Ad 2c 2h 3s 3d 4c",
        "9s 9d 9c 8h 8s 8d 7c",
        "Qs Jd Tc 9h 8s 7d",
        "4s 4d 4c 4h 3s 3d",
    ],
)
def test_best_low_of_six_and_seven_matches_twin_r23(hand):
    """The best low five of 6 or 7 cards, on hands with many repeated ranks."""
    cards = parse_cards(hand)
    ranked = sorted(
        {tuple(parse_cards(h)) for h in _all_fives(cards)},
        key=lambda five: evaluate_low(list(five)),
    )
    best = ranked[-1]
    assert evaluate_low(hand) == evaluate_low(list(best))
    assert naive_best_low(cards) == naive_best_low(list(best))


def _all_fives(cards):
    return [list(c) for c in combinations(cards, 5)]


def test_describe_low():
    assert describe_low("5s 4d 3c 2h Ah") == "5-4-3-2-A low"
    assert describe_low("Kc Td 9s 8h 7c") == "K-10-9-8-7 low"
    assert describe_low("7s 5d 4c 2h Ah 7d Kc") == "7-5-4-2-A low"  # best five of seven
    assert describe_low("3s 3d 7c 5h Ah") == "Pair of threes, 7-5-A"
    assert describe_low("As Ad 4c 3h 2h") == "Pair of aces, 4-3-2"
    assert describe_low("4s 4d 3c 3h Ah") == "Two pair, fours and threes, ace kicker"
    assert describe_low("3s 3d 3c 7h Ah") == "Three of a kind, threes, 7-A"
    assert describe_low("3s 3d 3c Ah Ad") == "Full house, threes over aces"
    assert describe_low("Ks Kd Kc Kh Qs") == "Four of a kind, kings, queen kicker"
    assert describe_low(np.array([0, 4, 8, 12, 48])) == "5-4-3-2-A low"
    # every value has a description naming its category's kind of hand
    for value in range(1, 6176, 37):
        text = describe_low(value)
        name = LOW_CATEGORY_NAMES[low_category(value)]
        assert text.startswith(name) or (name == "No pair" and text.endswith(" low"))


def test_low_key_order_matches_values():
    """The public R23 key sorts the ladder as the values do (smaller key = better low)."""
    keys = [low_key([c >> 2 for c in parse_cards(h)]) for h in LADDER]
    values = [evaluate_low(h) for h in LADDER]
    for i in range(len(LADDER)):
        for j in range(len(LADDER)):
            assert (keys[i] < keys[j]) == (values[i] > values[j])


def test_batch_shapes_dtypes_and_kernels_agree():
    rng = np.random.default_rng(0)
    hands = np.array([rng.permutation(52)[:7] for _ in range(300)])
    one = evaluate_low(hands)
    assert one.shape == (300,)
    assert one.dtype == np.int32
    assert one.tolist() == [evaluate_low(list(h)) for h in hands.tolist()]
    assert np.array_equal(evaluate_low(hands.reshape(3, 100, 7)), one.reshape(3, 100))
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.uint64):
        assert np.array_equal(evaluate_low(hands.astype(dtype)), one)
    out = np.empty(300, np.int64)
    low_rows_parallel(hands, out)
    serial = np.empty(300, np.int64)
    low_rows(hands, serial)
    assert np.array_equal(out, serial)
    assert np.array_equal(serial, one)
    six = evaluate_low(hands[:, :6])
    assert six.tolist() == [evaluate_low(list(h)) for h in hands[:, :6].tolist()]


def test_errors_name_the_bad_value():
    with pytest.raises(CardError, match=r"duplicate card As in hand 'As 2s 3s 4s As'"):
        evaluate_low("As 2s 3s 4s As")
    with pytest.raises(CardError, match=r"'As 2s 3s 4s' has 4 cards; it needs 5 or 6 or 7"):
        evaluate_low("As 2s 3s 4s")
    with pytest.raises(CardError, match=r"unknown rank 'X'"):
        evaluate_low("Xs 2s 3s 4s 5s")
    with pytest.raises(CardError, match=r"card index 52 is out of range .* indices are 0..51"):
        evaluate_low(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(CardError, match=r"duplicate card 2c in hand '2c 2d 2h 2s 2c'"):
        evaluate_low(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 0]]))
    with pytest.raises(ValueError, match=r"shape \(2, 4\); the last axis must hold 5 or 6 or 7"):
        evaluate_low(np.zeros((2, 4), np.int64))
    with pytest.raises(ValueError, match=r"dtype float64; give integer card indices"):
        evaluate_low(np.zeros((2, 5)))
    with pytest.raises(ValueError, match=r"low value 6176 is not in 1..6175"):
        low_category(np.array([1, 6176]))
    with pytest.raises(ValueError, match=r"low values have dtype float64"):
        low_category(np.array([1.5]))
    with pytest.raises(ValueError, match=r"low value 0 is not in 1..6175"):
        describe_low(0)
    with pytest.raises(ValueError, match=r"describe_low takes one hand; got an array of shape"):
        describe_low(np.zeros((2, 5), np.int64))


def test_public_exports():
    assert anaconda_sim.evaluate_low is evaluate_low
    assert anaconda_sim.describe_low is describe_low
    assert anaconda_sim.LOW_CATEGORY_NAMES is LOW_CATEGORY_NAMES
    from anaconda_sim import hands

    assert hands.low_category is low_category
    assert set(low_module.__all__) >= {"low5", "low7", "low_value_of", "low_mask"}
