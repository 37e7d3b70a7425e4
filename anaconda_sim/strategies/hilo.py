"""Card play and betting strength under the hi-lo rules (R21-R26).

Low cards win half the pot, so "sensible" card play (also "call-down"'s, and
"random-pass"'s discard) plans for the half its cards are better at. A plan's
strength is on the high categories' scale (0 high card .. 8 straight flush):
the high plan's is the high category, the low plan's is :func:`low_strength`;
the low plan is taken only when it is strictly stronger (ties keep the high
plan).
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ..hands.evaluator import value_category
from ..hands.low import LOW_CLASS_INFO, low5, low7, low_value_of
from ..hands.sorting import sorted5, sorted7
from ..limits import HAND_SIZE, KEPT_SIZE
from ..table import views as V
from .common import hand_category, hand_value
from .sensible import discard_best_five, order_hiding_most_telling, pass_lowest_keys, pass_sensible


def low_value_named(ranks: tuple[int, ...]) -> int:
    """Low value of five distinct ace-low ranks (0 = ace .. 12 = king), highest first."""
    return next(v for v, (cat, groups) in enumerate(LOW_CLASS_INFO) if cat == 5 and groups == ranks)


#: the worst six-, seven-, eight-, nine- and ten-low, then the worst unpaired
#: low (K-Q-J-10-8): :func:`low_strength` 6, 5, 4, 3, 2, 1
LOW_STRENGTH_AT = np.array(
    [low_value_named(r) for r in ((5, 4, 3, 2, 1), (6, 5, 4, 3, 2), (7, 6, 5, 4, 3),
                                    (8, 7, 6, 5, 4), (9, 8, 7, 6, 5), (12, 11, 10, 9, 7))],
    dtype=np.int64,
)  # fmt: skip


@jit(inline="always")
def low_hand_value(own):
    """Low value (R23) of the cards a seat holds (best low five of seven, or the kept five)."""
    n = own[V.O_NCARDS]
    b = V.O_CARDS
    if n == HAND_SIZE:
        return low7(
            np.int64(own[b]), np.int64(own[b + 1]), np.int64(own[b + 2]), np.int64(own[b + 3]),
            np.int64(own[b + 4]), np.int64(own[b + 5]), np.int64(own[b + 6]),
        )  # fmt: skip
    if n == KEPT_SIZE:
        return low5(
            np.int64(own[b]), np.int64(own[b + 1]), np.int64(own[b + 2]), np.int64(own[b + 3]),
            np.int64(own[b + 4]),
        )  # fmt: skip
    return low_value_of(own[b : b + n], n)


@jit(inline="always")
def low_strength(low):
    """Strength of low value ``low`` on the high categories' scale:
    6 for a six-low or better, 5 seven-low, 4 eight-low, 3 nine-low, 2
    ten-low, 1 any other unpaired low, 0 a paired low
    (thresholds :data:`LOW_STRENGTH_AT`)."""
    # the thresholds descend, so the strength is the number reached
    # (six comparisons and no branch to mispredict)
    v = np.int64(low)
    strength = np.int64(0)
    for k in range(LOW_STRENGTH_AT.shape[0]):
        strength += np.int64(v >= LOW_STRENGTH_AT[k])
    return strength


@jit(inline="always")
def _plans_low(own):
    low = low_strength(low_hand_value(own))
    if low == 0:  # a paired low is never the stronger plan
        return False
    return low > value_category(hand_value(own))


@jit
def plans_low(own):
    """True when the held cards' low plan is stronger than their high plan:
    ``low_strength(low) > high category``."""
    return _plans_low(own)


@jit
def sensible_strength(pub, own):
    """The strength ``"sensible"`` bets on: the high category of the held
    cards (0..8); under the hi-lo rules (``pub[P_HILO]``) the larger of it and
    the low strength (:func:`low_strength`), since either half can win."""
    high = hand_category(own)
    if pub[V.P_HILO] == 0:
        return high
    return max(high, low_strength(low_hand_value(own)))


@jit
def pass_sensible_hilo(pub, own, out):
    """The hi-lo pass: with the high plan (:func:`plans_low` false), the
    high pass of :func:`pass_sensible`; with the low plan, pass the cards
    worst for a low: a card's score is ``64 + (12 - its ace-low rank)``
    (ace 0 .. king 12), less 16 for every card of its rank with a lower
    index held (so one card of each rank is kept, the others go first);
    ``score * 64 + card`` orders the cards strictly, and the lowest are
    passed in ascending order of that key.
    """
    if not _plans_low(own):
        pass_sensible(pub, own, out)
        return
    n = own[V.O_NCARDS]
    held = np.int64(0)  # bit c: card c held (the cards of rank r are bits 4r..4r+3)
    for i in range(n):
        held |= np.int64(1) << np.int64(own[V.O_CARDS + i])
    for i in range(n):
        c = np.int64(own[V.O_CARDS + i])
        r = c >> 2
        low_rank = r + 1 if r < 12 else 0
        below = (held >> (4 * r)) & ((np.int64(1) << (c & 3)) - 1)  # its rank, lower index
        lower = (below & 1) + ((below >> 1) & 1) + ((below >> 2) & 1)
        out[i] = (64 + 12 - low_rank - 16 * lower) * 64 + c
    if n == HAND_SIZE:
        keys = sorted7(out[0], out[1], out[2], out[3], out[4], out[5], out[6])
        for k in range(pub[V.P_PASS_COUNT]):
            out[k] = keys[k] & 63
        return
    pass_lowest_keys(pub, n, out)


@jit
def best_low_five_into(cards, n, out):
    """The best low five of ``n`` (5..7) cards into ``out[0:5]`` (in hand
    order), the others into ``out[5:n]`` (in hand order).

    Of the fives with the highest :func:`~anaconda_sim.hands.low.low5`
    value, the one whose kept positions come first in lexicographic order.
    With five or more ranks held that is the first held card of each of the
    five lowest ranks (ace low), found from a mask of the ranks held;
    otherwise every five is tried in that order.
    """
    seen = np.int64(0)  # bit r: ace-low rank r held
    for p in range(n):
        c = np.int64(cards[p])
        seen |= np.int64(1) << ((c >> 2) + 1 if (c >> 2) < 12 else 0)
    want = np.int64(0)  # the (up to) five lowest ranks held
    distinct = 0
    while seen != 0 and distinct < 5:
        lowest = seen & -seen
        want |= lowest
        seen ^= lowest
        distinct += 1
    keep = np.int64(0)  # bit p: position p kept
    for p in range(n):
        c = np.int64(cards[p])
        bit = np.int64(1) << ((c >> 2) + 1 if (c >> 2) < 12 else 0)
        if want & bit:  # the first held card of a wanted rank
            keep |= np.int64(1) << p
            want ^= bit
    if distinct < 5:
        best = np.int64(-1)
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    for d in range(c + 1, n):
                        for e in range(d + 1, n):
                            v = np.int64(low5(cards[a], cards[b], cards[c], cards[d], cards[e]))
                            if v > best:
                                best = v
                                keep = (np.int64(1) << a) | (np.int64(1) << b) | (
                                    np.int64(1) << c) | (np.int64(1) << d) | (np.int64(1) << e)
    k = 0
    rest = 5
    for p in range(n):
        if (keep >> p) & 1:
            out[k] = cards[p]
            k += 1
        else:
            out[rest] = cards[p]
            rest += 1


@jit
def discard_hilo(own, out, hide_telling):
    """The hi-lo discard: keep the best high five (:func:`discard_best_five`)
    unless the low plan is stronger (:func:`plans_low`), then the best low
    five (:func:`best_low_five_into`), discarding the two others; reveal
    order as for the high five."""
    if not _plans_low(own):
        discard_best_five(own, out, hide_telling)
        return
    n = own[V.O_NCARDS]
    best_low_five_into(own[V.O_CARDS : V.O_CARDS + n], n, out)
    f0, f1, f2, f3, f4 = out[0], out[1], out[2], out[3], out[4]
    out[0] = out[5]
    out[1] = out[6]
    if hide_telling:
        order_hiding_most_telling(f0, f1, f2, f3, f4, out)
    else:
        f0, f1, f2, f3, f4 = sorted5(f0, f1, f2, f3, f4)
        out[2] = f4
        out[3] = f3
        out[4] = f2
        out[5] = f1
        out[6] = f0
