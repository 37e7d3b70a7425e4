"""Every seven-card hand, for the exhaustive tests of what is read off a
hand's bit patterns (its category, its learned bucket) against the evaluator."""

from __future__ import annotations

import numba
import numpy as np

from anaconda_sim._numba import jit_parallel
from anaconda_sim.rng import card_bit


@jit_parallel(cache=False)
def seven_card_mismatches(differs):
    """How many of the 133,784,560 seven-card hands ``differs(mask, a, b, c,
    d, e, f, g)`` (a jitted test of the hand's mask and cards ``a < ... <
    g``) is true of, and how many hands it was asked of (prange over the
    first card; each first card's counts kept in registers)."""
    bad = np.zeros(52, np.int64)
    hands = np.zeros(52, np.int64)
    for a in numba.prange(52):
        ma = card_bit(a)
        bad_a = hands_a = 0
        for b in range(a + 1, 52):
            mb = ma | card_bit(b)
            for c in range(b + 1, 52):
                mc = mb | card_bit(c)
                for d in range(c + 1, 52):
                    md = mc | card_bit(d)
                    for e in range(d + 1, 52):
                        me = md | card_bit(e)
                        for f in range(e + 1, 52):
                            mf = me | card_bit(f)
                            for g in range(f + 1, 52):
                                bad_a += differs(mf | card_bit(g), a, b, c, d, e, f, g)
                                hands_a += 1
        bad[a] = bad_a
        hands[a] = hands_a
    return bad.sum(), hands.sum()
