"""The fast "learned" decisions choose exactly what scoring every candidate
chooses (R7 pass of three, R8-R9 the reveal order of the kept five).

The pass scores its 35 candidates with features read without loops; the
reveal order skips hidden cards whose floating-point bound is below the best
score found. Neither may change a choice, ties included (the first best in
the documented order). Each is checked here on 200,000 random hands for each
of 14 parameter vectors: the vectors shipped for 2-7 players, vectors drawn
at random inside the family's stated ranges, and vectors of small whole
numbers, which make exact ties between candidates common.
"""

from __future__ import annotations

import numpy as np
import pytest
from decision_samples import parameter_vectors, passes_of, random_hands
from learned_reference import reference_order, reference_pass
from numba import njit

from anaconda_sim.hands.sorting import best_five7_in_place
from anaconda_sim.strategies.learned.params import (
    N_PASS,
    TABLE0,
    WIN_TABLE_SIZE,
)
from anaconda_sim.strategies.learned.play import (
    _shown_features,
    _sorted_shown_features,
    order_learned,
    pass_features_of,
    pass_learned,
)
from anaconda_sim.table import views as V

pytestmark = pytest.mark.slow  # 5.6 million decisions against their twins


VECTORS = parameter_vectors(TABLE0 + WIN_TABLE_SIZE)
_hands = random_hands
_passes = passes_of


@njit(cache=False)
def _orders(kernel, hands, params):
    chosen = np.empty((hands.shape[0], 5), dtype=np.int32)
    out = np.zeros(8, dtype=np.int64)  # int64, as the deal kernels pass it
    for i in range(hands.shape[0]):
        for j in range(5):
            out[V.OUT_FIVE + j] = hands[i, j]
        kernel(params, out)
        for j in range(5):
            chosen[i, j] = out[V.OUT_FIVE + j]
    return chosen


@pytest.mark.parametrize(("name", "params"), VECTORS, ids=[name for name, _ in VECTORS])
def test_the_pass_is_the_first_best_of_all_35(name: str, params: np.ndarray) -> None:
    hands = _hands(1)
    fast = _passes(pass_learned, hands, params)
    full = _passes(reference_pass, hands, params)
    differ = np.flatnonzero((fast != full).any(axis=1))
    assert differ.size == 0, (name, hands[differ[:3]].tolist())


@pytest.mark.parametrize(("name", "params"), VECTORS, ids=[name for name, _ in VECTORS])
def test_the_reveal_order_is_the_first_best_of_all_120(name: str, params: np.ndarray) -> None:
    hands = _hands(2)
    fast = _orders(order_learned, hands, params)
    full = _orders(reference_order, hands, params)
    differ = np.flatnonzero((fast != full).any(axis=1))
    assert differ.size == 0, (name, hands[differ[:3]].tolist())


def test_the_vectors_make_ties_and_skip_hidden_cards() -> None:
    """The cases above are hard ones: with whole-number weights many hands
    have two best passes (so the tie rule is exercised), and with every order
    weight zero all 120 orders tie and the first is kept: the lowest card
    (by index) hidden, the others shown in increasing order."""
    hands = _hands(1)[:2000]
    features = np.empty((len(hands), 35, N_PASS))
    for i, hand in enumerate(hands):
        pass_features_of(hand.astype(np.int64), features[i])
    weights = dict(VECTORS)["whole 0"][:N_PASS]
    scores = features[:, :, 0] * weights[0]
    for f in range(1, N_PASS):
        scores = scores + features[:, :, f] * weights[f]  # the kernels' order of sums
    top_two = np.sort(scores, axis=1)[:, -2:]
    assert (top_two[:, 0] == top_two[:, 1]).mean() > 0.03  # about 6%
    params = dict(VECTORS)["whole 3"]
    orders = _orders(order_learned, hands, params)
    ordered = np.sort(hands[:, :5], axis=1)
    assert (orders == np.concatenate([ordered[:, 1:], ordered[:, :1]], axis=1)).all()


@njit(cache=False)
def _best_fives(hands):
    """The best five of each seven (what the learned discard keeps)."""
    out = np.zeros((hands.shape[0], 7), dtype=np.int64)
    for i in range(hands.shape[0]):
        for j in range(7):
            out[i, j] = hands[i, j]
        best_five7_in_place(out[i])
    return out[:, :5].astype(np.int32)


@pytest.mark.parametrize(("name", "params"), VECTORS, ids=[name for name, _ in VECTORS])
def test_the_reveal_order_of_a_best_five_is_the_first_best_of_all_120(
    name: str, params: np.ndarray
) -> None:
    """The fives the discard keeps hold groups far more often than five
    random cards, so the orders scored only once per class of equal scores
    (``play._order_candidates``) are exercised on every pattern of groups."""
    fives = _best_fives(_hands(3, 100_000))
    fast = _orders(order_learned, fives, params)
    full = _orders(reference_order, fives, params)
    differ = np.flatnonzero((fast != full).any(axis=1))
    assert differ.size == 0, (name, fives[differ[:3]].tolist())


@njit(cache=False)
def _shown_features_differ():
    """Hidden cards of every sorted five whose set features read off the
    sorted ranks differ from those of the exposure bucket."""
    bad = 0
    five = np.zeros(5, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        five[0], five[1], five[2], five[3], five[4] = a, b, c, d, e
                        for h in range(5):
                            if _sorted_shown_features(five, 0, h) != _shown_features(five, 0, h):
                                bad += 1
    return bad


def test_the_shown_set_features_of_every_five() -> None:
    """Every one of the 2,598,960 fives, sorted by card, with each of its
    cards hidden: the features of the set shown read off the sorted ranks
    are the exposure bucket's, number for number."""
    assert _shown_features_differ() == 0
