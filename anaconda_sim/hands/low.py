"""Low evaluator: ace-to-five low values of 5 cards, and the best low five of 6 or 7 (R23).

Values (public, fixed)
----------------------
A low value is an int, **higher is a better low**, equal means a tie. Aces
are low, straights and flushes do not count, there is no qualifier. Any
unpaired hand beats any paired one; unpaired hands compare the highest card
first, then the next (5-4-3-2-A, the wheel, is the best low); paired hands
compare as in high poker with lower better: fewer and lower groups win
(a pair beats two pair, two pair beats three of a kind, then full house,
then four of a kind), then the group ranks (higher group first), then the
kickers from the highest down.

Over all 2,598,960 five-card hands there are exactly 6,175 low values, one
per multiset of five ranks with at most four of a rank: 1 (K-K-K-K-Q, the
worst low) to 6,175 (5-4-3-2-A). A 6- or 7-card value is the value of its
best low five. The low categories, worst first, are
:data:`LOW_CATEGORY_NAMES` (so the category grows with the value):

====  ===============  ==============
cat   name             values
====  ===============  ==============
0     Four of a kind   1 .. 156
1     Full house       157 .. 312
2     Three of a kind  313 .. 1,170
3     Two pair         1,171 .. 2,028
4     Pair             2,029 .. 4,888
5     No pair          4,889 .. 6,175
====  ===============  ==============

How the kernels work
--------------------
A low value depends on the ranks only, so the kernels reuse the perfect
hash of the high evaluator (:mod:`anaconda_sim.hands.lookup`): the sum of the
cards' rank keys is hashed exactly as for a non-flush high hand, and the
same slot of a second table, built here, holds the low value of that
multiset of ranks. One table read per hand, no flush test and no trying of
subsets: a low kernel costs less than the high one.

The tables are built at import (a few milliseconds): the 6,175 five-rank
multisets are sorted by their R23 key (:func:`low_key`: the shape of the
groups, then the group ranks, ace low, highest group first), which numbers
them 1..6175; the best low of six or seven ranks is the best of its parts
with one rank fewer, so each larger table is filled from the smaller one.

Two layers
----------
The kernels (``low5``, ``low7``, ``low_value_of``, ``low_mask``,
``low_value_category`` and the batch loops ``low_rows`` /
``low_rows_parallel``) are numba functions other kernels can call; they
never validate. The public functions (:func:`evaluate_low`,
:func:`low_category`, :func:`low_category_name`, :func:`describe_low`)
check their input with the high evaluator's helpers and raise
:class:`~anaconda_sim.cards.CardError` or ``ValueError`` naming the bad value.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import overload

import numba
import numpy as np

from .._numba import jit, jit_parallel
from ..cards import SUIT_LANE_BITS
from . import lookup
from .evaluator import (
    CATEGORY_KEYS,
    CATEGORY_NAMES,
    EXPOSED_CATEGORY_KEYS,
    EXPOSED_CATEGORY_NAMES,
    card_key,
    check_value_range,
    evaluate_hands,
)

__all__ = [
    "LOW_CATEGORY_KEYS",
    "LOW_CATEGORY_NAMES",
    "LOW_CATEGORY_START",
    "LOW_CLASS_INFO",
    "N_LOW_VALUES",
    "describe_low",
    "evaluate_low",
    "low5",
    "low7",
    "low_category",
    "low_category_name",
    "low_key",
    "low_mask",
    "low_rows",
    "low_rows_parallel",
    "low_value_category",
    "low_value_of",
]

#: the low categories as identifiers (column names, options), worst first
LOW_CATEGORY_KEYS: tuple[str, ...] = (
    "quads", "full_house", "trips", "two_pair", "pair", "no_pair",
)  # fmt: skip
#: low categories, worst first: the category of a value grows with the value
#: (the names of the high and exposed categories, :mod:`~anaconda_sim.hands.evaluator`)
LOW_CATEGORY_NAMES: tuple[str, ...] = tuple(
    {
        **dict(zip(CATEGORY_KEYS, CATEGORY_NAMES, strict=True)),
        **dict(zip(EXPOSED_CATEGORY_KEYS, EXPOSED_CATEGORY_NAMES, strict=True)),
    }[key]
    for key in LOW_CATEGORY_KEYS
)

#: shapes of the five ranks' groups, best low first (index = 5 - category)
_SHAPES = ((1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1))


def low_key(ranks: Sequence[int]) -> tuple:
    """R23 key of five ranks (0..12 = 2..A as in card indices): **smaller is a better low**.

    ``(shape, group ranks...)``: the shape is the group sizes from the
    largest down (``(1, 1, 1, 1, 1)`` for no pair, ``(2, 1, 1, 1)`` for a
    pair, ...; their tuple order is the order of R23), then the ace-low ranks
    (ace 0 .. king 12) of the groups, larger groups first, then higher ranks.

    Examples
    --------
    >>> low_key([3, 2, 1, 0, 12])  # 5-4-3-2-A: no pair, ranks 4, 3, 2, 1, 0 ace-low
    ((1, 1, 1, 1, 1), 4, 3, 2, 1, 0)
    >>> low_key([1, 1, 5, 3, 12]) < low_key([0, 0, 1, 1, 12])  # a pair beats two pair
    True
    """
    low = [(r + 1) % 13 for r in ranks]
    counts = {r: low.count(r) for r in low}
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (tuple(sorted(counts.values(), reverse=True)), *groups)


def _rank_multisets(n: int) -> np.ndarray:
    """Every multiset of ``n`` ranks (0..12) with at most four of a rank, as sorted rows."""
    rows = np.array(list(itertools.combinations_with_replacement(range(13), n)), dtype=np.int64)
    return rows[~np.any(rows[:, 4:] == rows[:, :-4], axis=1)]


def _place(table: np.ndarray, keys: np.ndarray, values: np.ndarray, offsets, shift) -> None:
    """Write ``values`` at the slots the high evaluator's hash gives the rank-key sums ``keys``."""
    h = (keys * lookup.HASH_MULTIPLIER) & lookup.HASH_MASK
    table[h + offsets[h >> shift]] = values


def _build() -> dict:
    # 1. The five-rank multisets in R23 order, worst first -> values 1..6175.
    five = _rank_multisets(5)
    keys = [low_key(row) for row in five.tolist()]
    worst_first = sorted(range(len(five)), key=lambda i: keys[i], reverse=True)
    five_values = np.empty(len(five), np.int64)
    five_values[worst_first] = np.arange(1, len(five) + 1)
    class_info = [(0, ())] + [
        (5 - _SHAPES.index(keys[i][0]), tuple(keys[i][1:])) for i in worst_first
    ]
    starts = [1 + next(v for v in range(len(worst_first)) if class_info[v + 1][0] == c)
              for c in range(6)]  # fmt: skip

    # 2. The same slots as the high evaluator's rank tables; the best low of
    #    n ranks is the best low of one of its parts with n - 1 ranks.
    five_keys = lookup.RANK_KEYS[five].sum(axis=1)
    rank_table = np.zeros(len(lookup.RANK_TABLE), np.uint16)
    _place(rank_table, five_keys, five_values, lookup.ROW_OFFSETS, lookup.ROW_SHIFT)
    order = np.argsort(five_keys)
    smaller_keys, smaller_values = five_keys[order], five_values[order]
    for n in (6, 7):
        rows = _rank_multisets(n)
        keys_n = lookup.RANK_KEYS[rows].sum(axis=1)
        best = np.zeros(len(rows), np.int64)
        for drop in range(n):
            part = keys_n - lookup.RANK_KEYS[rows[:, drop]]
            best = np.maximum(best, smaller_values[np.searchsorted(smaller_keys, part)])
        _place(rank_table, keys_n, best, lookup.ROW_OFFSETS, lookup.ROW_SHIFT)
        order = np.argsort(keys_n)
        smaller_keys, smaller_values = keys_n[order], best[order]
    five_table = np.zeros(len(lookup.FIVE_TABLE), np.uint16)
    _place(five_table, five_keys, five_values, lookup.FIVE_OFFSETS, lookup.FIVE_ROW_SHIFT)
    return {
        "RANK_TABLE": rank_table,
        "FIVE_TABLE": five_table,
        "CLASS_INFO": tuple(class_info),
        "CATEGORY_START": np.array([*starts, len(class_info)], dtype=np.int64),
    }


_T = lookup.cached_tables("low", _build)
#: ``LOW_CATEGORY_START[c]`` is the lowest value of low category ``c``;
#: ``LOW_CATEGORY_START[6] = N_LOW_VALUES + 1``
LOW_CATEGORY_START: np.ndarray = _T["CATEGORY_START"]
N_LOW_VALUES = int(LOW_CATEGORY_START[-1] - 1)  # 6175
#: ``LOW_CLASS_INFO[v] = (category, ace-low group ranks)`` of low value ``v`` (0: unused)
LOW_CLASS_INFO: tuple = _T["CLASS_INFO"]
# Frozen into the kernels as constants at compile time.
_LOW_RANK_TABLE = _T["RANK_TABLE"]
_LOW_FIVE_TABLE = _T["FIVE_TABLE"]
del _T
_CARD_KEYS = lookup.CARD_KEYS
_LANE_KEYS = lookup.LANE_KEYS
_ROW_OFFSETS = lookup.ROW_OFFSETS
_FIVE_OFFSETS = lookup.FIVE_OFFSETS
_RANK_SUM_MASK = lookup.RANK_SUM_MASK
_HASH_MULTIPLIER = lookup.HASH_MULTIPLIER
_HASH_MASK = lookup.HASH_MASK
_ROW_SHIFT = lookup.ROW_SHIFT
_FIVE_ROW_SHIFT = lookup.FIVE_ROW_SHIFT
_LANE = 0x1FFF

# ---------------------------------------------------------------- kernels


@jit(inline="always")
def _low_of_key(key):
    """Low value of 5 to 7 cards from the sum of their card keys."""
    h = ((key & _RANK_SUM_MASK) * _HASH_MULTIPLIER) & _HASH_MASK
    return np.int64(_LOW_RANK_TABLE[np.uint64(h + _ROW_OFFSETS[np.uint64(h >> _ROW_SHIFT)])])


@jit(inline="always")
def low5(c0, c1, c2, c3, c4):
    """Low value (int64) of five scalar card indices (R23)."""
    key = card_key(c0) + card_key(c1) + card_key(c2) + card_key(c3) + card_key(c4)
    h = ((key & _RANK_SUM_MASK) * _HASH_MULTIPLIER) & _HASH_MASK
    return np.int64(_LOW_FIVE_TABLE[np.uint64(h + _FIVE_OFFSETS[np.uint64(h >> _FIVE_ROW_SHIFT)])])


@jit(inline="always")
def low7(c0, c1, c2, c3, c4, c5, c6):
    """Low value (int64) of the best low five of seven scalar card indices (R23)."""
    return _low_of_key(
        card_key(c0)
        + card_key(c1)
        + card_key(c2)
        + card_key(c3)
        + card_key(c4)
        + card_key(c5)
        + card_key(c6)
    )


@jit
def low_value_of(cards, n):
    """Low value (int64) of the first ``n`` (5, 6 or 7) card indices of ``cards``."""
    key = np.int64(0)
    for i in range(n):
        key += _CARD_KEYS[cards[i]]
    return _low_of_key(key)


@jit
def low_mask(mask):
    """Low value (int64) of a uint64 mask holding 5 to 7 cards (layout of :mod:`.cards`)."""
    m = np.int64(mask)
    return _low_of_key(
        _LANE_KEYS[m & _LANE]
        + _LANE_KEYS[(m >> SUIT_LANE_BITS) & _LANE]
        + _LANE_KEYS[(m >> 2 * SUIT_LANE_BITS) & _LANE]
        + _LANE_KEYS[(m >> 3 * SUIT_LANE_BITS) & _LANE]
    )


@jit
def low_value_category(value):
    """Low category 0..5 (int64) of a low value 1..6175 (see :data:`LOW_CATEGORY_NAMES`)."""
    c = np.int64(0)
    while c < 5 and value >= LOW_CATEGORY_START[c + 1]:
        c += 1
    return c


@jit
def _low5_rows(hands, out):
    for i in range(hands.shape[0]):
        h = hands[i]
        out[i] = low5(h[0], h[1], h[2], h[3], h[4])


@jit
def _low7_rows(hands, out):
    for i in range(hands.shape[0]):
        h = hands[i]
        out[i] = low7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])


@jit
def low_rows(hands, out):
    """Serial batch: ``out[i] = low value of hands[i, :]`` for a 2-D array of 5 to 7 columns."""
    # One loop per width, each in its own function: LLVM compiles a branch-free
    # lookup loop best on its own (about twice as fast as the loops inlined here).
    n = hands.shape[1]
    if n == 7:
        _low7_rows(hands, out)
    elif n == 5:
        _low5_rows(hands, out)
    else:
        for i in range(hands.shape[0]):
            out[i] = low_value_of(hands[i], n)


_CHUNK = 1 << 14


@jit_parallel
def low_rows_parallel(hands, out):
    """Parallel batch (``prange`` over chunks of rows); same result as :func:`low_rows`."""
    rows = hands.shape[0]
    chunks = (rows + _CHUNK - 1) // _CHUNK
    for c in numba.prange(chunks):
        lo = c * _CHUNK
        hi = min(lo + _CHUNK, rows)
        low_rows(hands[lo:hi], out[lo:hi])


# ---------------------------------------------------------------- public layer

# how many single cards (the last group ranks) each low category has
_SINGLES = (1, 0, 2, 1, 3, 5)
#: ace-low rank names (index 0 = ace .. 12 = king)
_LOW_SHORT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_LOW_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
_LOW_PLURALS = (
    "aces", "twos", "threes", "fours", "fives", "sixes", "sevens",
    "eights", "nines", "tens", "jacks", "queens", "kings",
)  # fmt: skip


@overload
def evaluate_low(cards: str | Sequence[str] | Sequence[int]) -> int: ...
@overload
def evaluate_low(cards: np.ndarray) -> np.ndarray: ...


def evaluate_low(cards):
    """Ace-to-five low value of 5, 6 or 7 cards: one hand, or every hand of an array (R23).

    Parameters
    ----------
    cards
        One hand as a string (``"7s 5d 4c 2h Ah"``) or a flat list of cards
        (strings or indices): returns a Python int. Or an integer array of
        shape ``(..., 5)``, ``(..., 6)`` or ``(..., 7)`` of card indices:
        returns an int32 array of shape ``(...)``. Large arrays are evaluated
        on all cores.

    Returns
    -------
    int or numpy.ndarray
        Low values 1..6175, **higher is a better low**, equal is a tie; a 6-
        or 7-card value is the value of its best low five.

    Raises
    ------
    CardError
        Unknown, duplicated or out-of-range card, or a wrong number of cards.
    ValueError
        Array of the wrong dtype or shape.

    Examples
    --------
    >>> evaluate_low("5s 4d 3c 2h Ah"), evaluate_low("Ks Kd Kc Kh Qs")  # best and worst
    (6175, 1)
    >>> evaluate_low("5h 4h 3h 2h Ah") == evaluate_low("5s 4d 3c 2h Ad")  # flushes do not count
    True
    >>> lows = [evaluate_low(h) for h in ("8s 7d 6c 5h 4h", "8s 7d 6c 5h 3h", "7c 6d 5s 4h 3c")]
    >>> lows[0] < lows[1] < lows[2]  # highest card first, then the next
    True
    >>> evaluate_low("Kc Qd Js 9h 8c") > evaluate_low("2c 2d As 3h 4c")  # any no-pair beats a pair
    True
    >>> evaluate_low("Kc 9d 7s 5h 3c 3d 2s") == evaluate_low("7s 5h 3c 2s 9d")  # best five of seven
    True
    >>> evaluate_low(np.array([[0, 4, 8, 12, 48], [44, 45, 46, 47, 40]]))  # wheel, four kings
    array([6175,    1], dtype=int32)
    >>> evaluate_low("As 2s 3s 4s")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: hand 'As 2s 3s 4s' has 4 cards; it needs 5 or 6 or 7
    >>> evaluate_low("As 2s 3s 4s As")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: duplicate card As in hand 'As 2s 3s 4s As'
    """
    return evaluate_hands(cards, low_value_of, low_rows, low_rows_parallel)


def _check_low_values(values: np.ndarray) -> None:
    check_value_range(values, N_LOW_VALUES, "low", " (low values come from evaluate_low)")


@overload
def low_category(values: int) -> int: ...
@overload
def low_category(values: np.ndarray) -> np.ndarray: ...


def low_category(values):
    """Low category 0..5 of low values (index into :data:`LOW_CATEGORY_NAMES`).

    Examples
    --------
    >>> LOW_CATEGORY_NAMES[low_category(evaluate_low("7s 5d 4c 2h Ah"))]
    'No pair'
    >>> low_category(np.array([1, 6175]))
    array([0, 5])
    >>> low_category(6176)
    Traceback (most recent call last):
    ...
    ValueError: low value 6176 is not in 1..6175 (low values come from evaluate_low)
    """
    arr = np.asarray(values)
    _check_low_values(arr)
    cats = np.searchsorted(LOW_CATEGORY_START[1:6], arr, side="right").astype(np.int64)
    if np.ndim(values) == 0:
        return int(cats)
    return cats


def low_category_name(value: int) -> str:
    """Name of the low category of one low value.

    Examples
    --------
    >>> low_category_name(evaluate_low("3s 3d 7c 5h Ah"))
    'Pair'
    >>> low_category_name(0)
    Traceback (most recent call last):
    ...
    ValueError: low value 0 is not in 1..6175 (low values come from evaluate_low)
    """
    return LOW_CATEGORY_NAMES[low_category(int(value))]


def describe_low(value_or_cards: int | str | Sequence[str] | Sequence[int] | np.ndarray) -> str:
    """Plain-English description of a low value, or of the best low of 5 to 7 cards.

    Examples
    --------
    >>> describe_low("7s 5d 4c 2h Ah"), describe_low(6175)
    ('7-5-4-2-A low', '5-4-3-2-A low')
    >>> describe_low("Kc 10d 9s 8h 7c")
    'K-10-9-8-7 low'
    >>> describe_low("3s 3d 7c 5h Ah")
    'Pair of threes, 7-5-A'
    >>> describe_low("4s 4d 3c 3h Ah"), describe_low("3s 3d 3c 7h Ah")
    ('Two pair, fours and threes, ace kicker', 'Three of a kind, threes, 7-A')
    >>> describe_low("3s 3d 3c Ah Ad"), describe_low(1)
    ('Full house, threes over aces', 'Four of a kind, kings, queen kicker')
    >>> describe_low(0)
    Traceback (most recent call last):
    ...
    ValueError: low value 0 is not in 1..6175 (low values come from evaluate_low)
    """
    if isinstance(value_or_cards, (int, np.integer)) and not isinstance(value_or_cards, bool):
        value = int(value_or_cards)
        _check_low_values(np.asarray(value))
    elif isinstance(value_or_cards, np.ndarray):
        if value_or_cards.ndim != 1:
            raise ValueError(
                f"describe_low takes one hand; got an array of shape {value_or_cards.shape}"
            )
        value = int(evaluate_low(value_or_cards))
    else:
        value = evaluate_low(value_or_cards)  # type: ignore[arg-type]
    cat, groups = LOW_CLASS_INFO[value]
    singles = "-".join(_LOW_SHORT[r] for r in groups[len(groups) - _SINGLES[cat] :])
    if cat == 5:
        return f"{singles} low"
    if cat == 4:
        return f"Pair of {_LOW_PLURALS[groups[0]]}, {singles}"
    if cat == 3:
        return (
            f"Two pair, {_LOW_PLURALS[groups[0]]} and {_LOW_PLURALS[groups[1]]}, "
            f"{_LOW_NAMES[groups[2]]} kicker"
        )
    if cat == 2:
        return f"Three of a kind, {_LOW_PLURALS[groups[0]]}, {singles}"
    if cat == 1:
        return f"Full house, {_LOW_PLURALS[groups[0]]} over {_LOW_PLURALS[groups[1]]}"
    return f"Four of a kind, {_LOW_PLURALS[groups[0]]}, {_LOW_NAMES[groups[1]]} kicker"
