"""The pass tables of the ``"learned"`` family: its pass score's terms,
computed once per parameter vector so that the pass kernel
(:func:`~anaconda_sim.strategies.learned.play.pass_learned`) reads them
instead of computing them for each of the 35 passes of every hand.

A pass's score is ``w . features`` added term by term in
:data:`~.params.PASS_FEATURES` order. Terms 0..7 depend only on the kept
four's ranks and on whether three or four of them share a suit, so their
partial sum is one entry of the kept-score table (:func:`kept_score_table`:
by suit class and rank multiset, :func:`kept_index`); each of terms 8..10
depends only on which of the passed three's pairs are of one suit, of one
rank, or one or two ranks apart (:func:`gift_code`), and term 11 on their
rank sum (:func:`gift_term_table`). The pass adds the four gift terms to
the kept four's entry in the same order as before, so every score is the
same double, bit for bit.

The tables sit after the win table in a parameter array
(:data:`~.params.PASS_STAMP0` to :data:`~.params.PASS_TABLES_END`), with a
copy of the pass weights they were built from: the pass reads them only
while that copy equals the weights. They are derived when a strategy's array
is built (:meth:`~anaconda_sim.strategies.Strategy.param_array`), never
given, stored or compared.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from .params import (
    GIFT_CODES,
    GIFT_SUMS,
    GIFT_TABLE0,
    GIFT_TABLE_SIZE,
    KEPT_MULTISETS,
    KEPT_SUIT_CLASSES,
    KEPT_TABLE0,
    KEPT_TABLE_SIZE,
    N_KEPT,
    N_PASS,
    PASS_STAMP0,
    W0,
)
from .winprob import straight_draw

__all__ = [
    "PASS_DIVISORS",
    "fill_pass_tables",
    "gift_code",
    "gift_numerators",
    "gift_term_table",
    "kept_index",
    "kept_numerators",
    "kept_score_table",
]


def kept_index(ranks: tuple[int, int, int, int]) -> int:
    """The slot (0 to :data:`KEPT_MULTISETS` - 1) of four kept ranks in
    ascending order: the combinatorial number system's rank of the four
    distinct numbers ``r_t + t`` (``sum_t C(r_t + t, t + 1)``), which the pass
    kernel adds up from pieces of the seven ranks.

    Examples
    --------
    >>> kept_index((0, 0, 0, 0)), kept_index((12, 12, 12, 12))
    (0, 1819)
    """
    return sum(math.comb(r + t, t + 1) for t, r in enumerate(ranks))


#: each pass feature is a whole number over its divisor (the feature is the
#: one correctly rounded division, the double the kernels compute)
PASS_DIVISORS = (1.0, 1.0, 48.0, 12.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 36.0)


@functools.cache
def kept_numerators() -> np.ndarray:
    """Features 0..7 of :data:`PASS_FEATURES` (the kept four's) times
    :data:`PASS_DIVISORS`, whole numbers: by suit class of the four (none,
    three suited, four suited) times :data:`KEPT_MULTISETS`, plus
    :func:`kept_index` of their ranks.

    Examples
    --------
    >>> kept_numerators()[kept_index((5, 5, 9, 9))].tolist()  # pairs, .., rank sum, top pair
    [2, 0, 28, 9, 0, 0, 0, 0]
    """
    rows = np.zeros((KEPT_SUIT_CLASSES, KEPT_MULTISETS, N_KEPT), dtype=np.int8)
    for ranks in itertools.combinations_with_replacement(range(13), 4):
        counts = [ranks.count(r) for r in range(13)]
        paired = [r for r in range(13) if counts[r] >= 2]
        draw = straight_draw.py_func(*ranks) if not paired else 0  # its Python function
        top = max(paired, default=0)
        rows[:, kept_index(ranks)] = (len(paired), max(counts) >= 3, sum(ranks), top, 0, 0,
                                      draw == 2, draw == 1)  # fmt: skip
    rows[2, :, 4] = 1  # four suited
    rows[1, :, 5] = 1  # exactly three suited
    out = rows.reshape(KEPT_TABLE_SIZE, N_KEPT)
    out.setflags(write=False)
    return out


def kept_score_table(weights: np.ndarray) -> np.ndarray:
    """The pass score's terms 0..7 (the kept four's) for every rank multiset
    and suit class of four kept cards, added in the kernels' order, so each
    entry is the bit-exact partial sum the pass adds the passed three's
    terms to.

    Parameters
    ----------
    weights
        The first :data:`N_KEPT` pass weights (``w_pairs`` to ``w_gutshot``).

    Returns
    -------
    numpy.ndarray
        :data:`KEPT_TABLE_SIZE` float64, in :func:`kept_numerators`' order.

    Examples
    --------
    >>> table = kept_score_table(np.arange(N_KEPT, dtype=np.float64))
    >>> float(table[kept_index((5, 5, 9, 9))])  # 2 * 0 + 1 * 0 + 2 * 28 / 48 + 3 * 9 / 12
    3.416666666666667
    """
    features = kept_numerators() / np.array(PASS_DIVISORS[:N_KEPT])
    score = weights[0] * features[:, 0]
    for f in range(1, N_KEPT):
        score = score + weights[f] * features[:, f]  # one rounding per term, in order
    return score


def gift_code(same_suit: int, same_rank: int, close: int) -> int:
    """The code of three passed cards from the number of their three pairs
    that are of one suit, of one rank, and one or two ranks apart (each
    0..3): what the pass kernel adds up pair by pair.

    Examples
    --------
    >>> gift_code(3, 0, 2)  # three suited, two pairs connected: 9h 8h 7h
    35
    """
    return same_suit + 4 * same_rank + 16 * close


@functools.cache
def gift_numerators() -> np.ndarray:
    """Features 8..10 of :data:`PASS_FEATURES` (what the passed three give,
    but for their rank sum) times :data:`PASS_DIVISORS`, by
    :func:`gift_code` (:data:`GIFT_CODES` rows of 3).

    Examples
    --------
    >>> gift_numerators()[gift_code(3, 0, 2)].tolist()  # no pair, three suited, 2 of 3 close
    [0, 2, 2]
    """
    codes = np.arange(GIFT_CODES)
    same_suit, same_rank, close = codes & 3, (codes >> 2) & 3, codes >> 4
    # three cards hold 0, 1 or 3 pairs of one suit: the most of one suit, less
    # one, is 0, 1 or 2
    out = np.stack([same_rank >= 1, np.where(same_suit == 3, 2, same_suit >= 1), close],
                   axis=1).astype(np.int8)  # fmt: skip
    out.setflags(write=False)
    return out


def gift_term_table(weights: np.ndarray) -> np.ndarray:
    """The pass score's terms 8..11 (what the passed three give), each the
    product the kernels add: ``w_gift_pair``, ``w_gift_suited`` and
    ``w_gift_connected`` times their feature, by :func:`gift_code`
    (:data:`GIFT_CODES` each), then ``w_gift_high`` times its feature by the
    sum of the passed ranks (:data:`GIFT_SUMS`).

    Parameters
    ----------
    weights
        The last four pass weights (``w_gift_pair`` to ``w_gift_high``).

    Examples
    --------
    >>> table = gift_term_table(np.array([1.0, 2.0, 3.0, 4.0]))
    >>> [float(table[f * GIFT_CODES + gift_code(3, 0, 2)]) for f in range(3)]
    [0.0, 2.0, 2.0]
    """
    by_code = gift_numerators() / np.array(PASS_DIVISORS[N_KEPT : N_KEPT + 3])
    high = np.arange(GIFT_SUMS) / PASS_DIVISORS[-1]
    return np.concatenate([*(weights[f] * by_code[:, f] for f in range(3)), weights[3] * high])


def fill_pass_tables(out: np.ndarray) -> None:
    """Write into ``out`` (a parameter array of at least :data:`PASS_TABLES_END`
    slots) the pass tables of its pass weights (:func:`kept_score_table`,
    :func:`gift_term_table`) and, as their stamp, a copy of the weights they
    were built from.

    The pass reads the tables only while the stamp equals the weights, so an
    array whose weights were changed afterwards is still scored right (in
    full, more slowly)."""
    weights = out[W0 : W0 + N_PASS].copy()
    out[PASS_STAMP0 : PASS_STAMP0 + N_PASS] = weights
    out[KEPT_TABLE0 : KEPT_TABLE0 + KEPT_TABLE_SIZE] = kept_score_table(weights[:N_KEPT])
    out[GIFT_TABLE0 : GIFT_TABLE0 + GIFT_TABLE_SIZE] = gift_term_table(weights[N_KEPT:])
