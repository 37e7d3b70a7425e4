"""The category of a hand from its bit patterns (``mask_category``) against
the evaluator's value: every five- and seven-card hand, and random six-card
hands."""

from __future__ import annotations

import numpy as np
import pytest
from every_seven import seven_card_mismatches

from anaconda_sim._numba import jit
from anaconda_sim.hands.evaluator import eval7, eval_cards, mask_category, value_category
from anaconda_sim.rng import card_bit


@jit(cache=False)
def _mismatches_five():
    """Five-card hands whose mask category differs from the value's (all 2,598,960)."""
    cards = np.empty(5, np.int64)
    bad = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        cards[0] = a
                        cards[1] = b
                        cards[2] = c
                        cards[3] = d
                        cards[4] = e
                        mask = card_bit(a) | card_bit(b) | card_bit(c) | card_bit(d) | card_bit(e)
                        if mask_category(mask) != value_category(eval_cards(cards, 5)):
                            bad += 1
    return bad


@jit(cache=False)
def _category_differs(mask, a, b, c, d, e, f, g):
    return mask_category(mask) != value_category(eval7(a, b, c, d, e, f, g))


@jit(cache=False)
def _mismatches_rows(hands):
    """Rows of ``hands`` (5 to 7 distinct cards) whose categories differ, and
    the number of rows of each category (so the test sees every category)."""
    n = hands.shape[1]
    bad = 0
    seen = np.zeros(9, np.int64)
    for i in range(hands.shape[0]):
        mask = np.uint64(0)
        for j in range(n):
            mask |= card_bit(hands[i, j])
        expected = value_category(eval_cards(hands[i], n))
        seen[expected] += 1
        if mask_category(mask) != expected:
            bad += 1
    return bad, seen


def _random_hands(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    return np.argsort(rng.random((rows, 52)), axis=1)[:, :n].astype(np.int64)


def test_every_five_card_hand() -> None:
    assert _mismatches_five() == 0


@pytest.mark.slow
def test_every_seven_card_hand() -> None:
    bad, hands = seven_card_mismatches(_category_differs)
    assert bad == 0
    assert hands == 133_784_560


def test_random_six_card_hands() -> None:
    bad, seen = _mismatches_rows(_random_hands(np.random.default_rng(12), 400_000, 6))
    assert bad == 0
    assert (seen > 0).all()  # straight flushes included


def test_chosen_seven_card_hands() -> None:
    """Hands where the categories meet: a straight and a flush that are no
    straight flush, two trips, quads with trips, a wheel straight flush."""
    hands = np.array([
        [48, 45, 42, 39, 32, 4, 0],  # A K Q J (mixed) + clubs flush, no straight flush
        [0, 4, 8, 12, 48, 1, 2],  # 5-4-3-2-A of clubs: the wheel straight flush
        [0, 1, 2, 4, 5, 6, 8],  # two trips: a full house
        [0, 1, 2, 3, 4, 5, 6],  # quads with trips
        [0, 5, 10, 15, 16, 21, 30],  # a straight, suits mixed
        [0, 4, 8, 12, 17, 20, 24],  # straight 2-8 with four clubs below
    ], dtype=np.int64)  # fmt: skip
    bad, _ = _mismatches_rows(hands)
    assert bad == 0
