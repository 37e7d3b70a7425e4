"""Sorting networks and the best five of seven sorted cards: branch-free
primitives the strategies' kernels share (no allocation, no subsets tried)."""

from __future__ import annotations

from .._numba import jit
from .evaluator import best_five_of_sorted7


@jit(inline="always")
def sorted4(a, b, c, d):
    """Four numbers in ascending order (a sorting network)."""
    a, b = min(a, b), max(a, b)
    c, d = min(c, d), max(c, d)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    return a, b, c, d


@jit(inline="always")
def sorted5(x0, x1, x2, x3, x4):
    """Five numbers in ascending order (a sorting network: branch-free min/max)."""
    x0, x1 = min(x0, x1), max(x0, x1)
    x3, x4 = min(x3, x4), max(x3, x4)
    x2, x4 = min(x2, x4), max(x2, x4)
    x2, x3 = min(x2, x3), max(x2, x3)
    x0, x3 = min(x0, x3), max(x0, x3)
    x0, x2 = min(x0, x2), max(x0, x2)
    x1, x4 = min(x1, x4), max(x1, x4)
    x1, x3 = min(x1, x3), max(x1, x3)
    x1, x2 = min(x1, x2), max(x1, x2)
    return x0, x1, x2, x3, x4


@jit(inline="always")
def sorted7(x0, x1, x2, x3, x4, x5, x6):
    """Seven numbers in ascending order (a sorting network: branch-free min/max)."""
    x0, x6 = min(x0, x6), max(x0, x6)
    x2, x3 = min(x2, x3), max(x2, x3)
    x4, x5 = min(x4, x5), max(x4, x5)
    x0, x2 = min(x0, x2), max(x0, x2)
    x1, x4 = min(x1, x4), max(x1, x4)
    x3, x6 = min(x3, x6), max(x3, x6)
    x0, x1 = min(x0, x1), max(x0, x1)
    x2, x5 = min(x2, x5), max(x2, x5)
    x3, x4 = min(x3, x4), max(x3, x4)
    x1, x2 = min(x1, x2), max(x1, x2)
    x4, x6 = min(x4, x6), max(x4, x6)
    x2, x3 = min(x2, x3), max(x2, x3)
    x4, x5 = min(x4, x5), max(x4, x5)
    x1, x2 = min(x1, x2), max(x1, x2)
    x3, x4 = min(x3, x4), max(x3, x4)
    x5, x6 = min(x5, x6), max(x5, x6)
    return x0, x1, x2, x3, x4, x5, x6


@jit(inline="always")
def best_five7_in_place(out):
    """:func:`best_five7_into` on the seven cards already in ``out[0:7]``;
    returns their value (that of the best five)."""
    x0, x1, x2, x3, x4, x5, x6 = sorted7(out[0], out[1], out[2], out[3], out[4], out[5], out[6])
    # descending
    out[0] = x6
    out[1] = x5
    out[2] = x4
    out[3] = x3
    out[4] = x2
    out[5] = x1
    out[6] = x0
    return best_five_of_sorted7(out)


@jit
def best_five7_into(cards, out):
    """:func:`~anaconda_sim.hands.evaluator.best_five_into` for seven cards, same
    choice (among the best fives, the lexicographically largest in
    descending card order), without allocating or trying subsets
    (:func:`~anaconda_sim.hands.evaluator.best_five_of_sorted7`)."""
    for i in range(7):
        out[i] = cards[i]
    best_five7_in_place(out)
