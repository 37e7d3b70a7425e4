"""Exhaustive golden tests of the hand evaluator (R18, R19).

Every five-card hand and every seven-card hand is enumerated in a numba
kernel; the category counts are public facts.
"""

from __future__ import annotations

from itertools import pairwise

import numba
import numpy as np
import pytest
from naive import all_five_card_hands, naive_key5

from anaconda_sim._numba import jit_parallel
from anaconda_sim.hands.evaluator import (
    KEY_BIAS,
    card_key,
    category,
    eval7,
    eval_cards,
    eval_mask,
    evaluate,
    value_category,
    value_of_key5,
)

N5 = 2_598_960
N7 = 133_784_560

COUNTS_5 = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
COUNTS_7 = [
    23_294_460,
    58_627_800,
    31_433_400,
    6_461_620,
    6_180_020,
    4_047_644,
    3_473_184,
    224_848,
    41_584,
]


@jit_parallel(cache=False)
def _count_seven():
    """Histogram of values over all seven-card hands (prange over the first card)."""
    counts = np.zeros((52, 7463), np.int64)
    for a in numba.prange(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        for f in range(e + 1, 52):
                            for g in range(f + 1, 52):
                                counts[a, eval7(a, b, c, d, e, f, g)] += 1
    return counts.sum(axis=0)


@numba.njit(cache=False)
def _values_of_key5(hands):
    """Each five's value from its key and rank-bit sum (value_of_key5), the
    key formed as a discard forms it: seven cards' sum less two."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for n in range(hands.shape[0]):
        key = np.int64(KEY_BIAS)
        bits = np.int64(0)
        for t in range(5):
            key += card_key(hands[n, t])
            bits += np.int64(1) << (np.int64(hands[n, t]) >> 2)
        extra = (hands[n, 0] + 13) % 52  # an eighth card added and taken away again
        out[n] = value_of_key5(key + card_key(extra) - card_key(extra), bits)
    return out


@pytest.fixture(scope="module")
def five_card_hands():
    """Every five-card hand and its value (the batch kernel on all 2,598,960)."""
    hands = all_five_card_hands()
    return hands, evaluate(hands).astype(np.int64)


def test_all_five_card_hands_r18(five_card_hands):
    """All 2,598,960 hands: 7,462 values 1..7462 and the known category counts (R18)."""
    _, values = five_card_hands
    assert len(np.unique(values)) == 7462
    assert values.min() == 1
    assert values.max() == 7462
    assert np.bincount(category(values), minlength=9).tolist() == COUNTS_5
    # The extremes named by the public convention.
    assert evaluate("7c 5d 4h 3s 2c") == 1
    assert evaluate("As Ks Qs Js Ts") == 7462


def test_a_five_s_value_from_its_key_is_eval5_s(five_card_hands):
    """All 2,598,960 hands: the value read off a five's additive key (and,
    for a flush, its rank bits) is the evaluator's (R18)."""
    hands, values = five_card_hands
    assert np.array_equal(_values_of_key5(hands.astype(np.int64)), values)


def test_five_card_order_equals_naive_twin_r18_r19(five_card_hands):
    """The value order over all hands equals the naive twin's tuple order.

    The naive key depends only on the ranks and on whether the five share a
    suit. So: (1) every hand of one (ranks, flush) class gets one value;
    (2) the 7,462 class values are ordered exactly as the naive keys of one
    representative each, strictly; (3) a random sample of hands checked one
    by one against the naive twin.
    """
    hands, values = five_card_hands
    ranks = hands.astype(np.int64) >> 2
    suits = hands.astype(np.int64) & 3
    flush = np.all(suits == suits[:, :1], axis=1)
    klass = (ranks * 13 ** np.arange(5)).sum(axis=1) + flush * 13**5
    classes, first = np.unique(klass, return_index=True)
    assert len(classes) == 7462
    assert len(np.unique(klass * 10_000 + values)) == 7462  # one value per class
    reps = hands[first].astype(int).tolist()
    keys = [naive_key5(hand) for hand in reps]
    rep_values = values[first]
    order = np.argsort(rep_values)
    sorted_keys = [keys[i] for i in order]
    assert all(a < b for a, b in pairwise(sorted_keys))
    assert np.array_equal(np.sort(rep_values), np.arange(1, 7463))

    key_of_value = {int(v): k for v, k in zip(rep_values, keys, strict=True)}
    rng = np.random.default_rng(5)
    for i in rng.choice(N5, 20_000, replace=False):
        assert naive_key5(hands[i].astype(int).tolist()) == key_of_value[int(values[i])]


def test_five_card_paths_agree(five_card_hands):
    """evaluate (batch, both kernels), eval_cards and eval_mask agree with eval5 on all hands."""
    hands, values = five_card_hands
    assert np.array_equal(evaluate(hands), values)
    sample = hands[::499].astype(np.int64)
    masks = (np.uint64(1) << ((sample & 3) * 16 + (sample >> 2)).astype(np.uint64)).sum(
        axis=1, dtype=np.uint64
    )
    for hand, mask, value in zip(sample, masks, values[::499], strict=True):
        assert eval_cards(hand, 5) == value
        assert eval_mask(mask) == value


@pytest.mark.slow
def test_all_seven_card_hands_r18():
    """All 133,784,560 seven-card hands: the known category counts of the best five (R18)."""
    histogram = _count_seven()
    assert histogram.sum() == N7
    assert histogram[0] == 0
    values = np.arange(1, 7463)
    counts = np.bincount(category(values), weights=histogram[1:], minlength=9)
    assert counts.astype(np.int64).tolist() == COUNTS_7
    # value_category (kernel) agrees with category (public) on every value
    assert [value_category(v) for v in values] == category(values).tolist()
