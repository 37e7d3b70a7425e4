"""Hand evaluator: 5-, 6- and 7-card values, categories, best five, exposed cards.

Values (public, fixed)
----------------------
A hand value is an int, higher is better, equal means a tie (R18, R19).
Over all 2,598,960 five-card hands there are exactly 7,462 values, from 1
(7-5-4-3-2 offsuit) to 7,462 (royal flush): the Cactus-Kev order reversed,
``value = 7463 - cactus_kev_rank``. A 6- or 7-card value is the value of its
best five. A-2-3-4-5 is the lowest straight (and straight flush), R18.
Categories 0..8 are listed in :data:`CATEGORY_NAMES`.

Exposed cards (R11)
-------------------
:func:`exposed_value` ranks 1 to 4 face-up cards by groups only: four of a
kind > three of a kind > two pair > pair > no pair, then the group ranks
(higher pair first), then the single cards from highest down; straights,
flushes and suits never count. The value is
``category * 14**4 + d1 * 14**3 + d2 * 14**2 + d3 * 14 + d4`` where
``d1, d2, ...`` are the group ranks then the singles (rank + 1, so 2 -> 1 ..
A -> 13), padded with 0. So values compare across different numbers of
cards, and **a missing card ranks below any card**: K-7 beats K alone, a pair
of nines on two cards beats a lone ace, and 9-9 loses to 9-9-2. Equal values
mean exactly equal rank multisets, i.e. a tie under R11 (R12 then decides).

Two layers
----------
The kernels (``eval7``, ``eval5``, ``eval_cards``, ``eval_mask``,
``best_five_into``, ``exposed_cards_value``, ``value_category``,
``exposed_value_category`` and the batch loops) are numba functions that
other kernels call inside their own compiled code; they never validate. The
public functions (:func:`evaluate`, :func:`category`, :func:`describe`,
:func:`best_five`, :func:`exposed_value`, ...) check their input, raise
:class:`~anaconda_sim.cards.CardError` or ``ValueError`` naming the bad value,
and shape the output. How the lookup works is explained in
:mod:`anaconda_sim.hands.lookup`.

Best-five tie-break
-------------------
Several choices of five can give the same value (e.g. two kickers of the same
rank, or a sixth flush card that does not play). :func:`best_five` and
``best_five_into`` choose, among the five-card subsets of maximal value, the
one whose card indices sorted in descending order are lexicographically
largest: higher cards, then higher suits (spades > hearts > diamonds > clubs,
index order only, R1), are kept when the choice does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

import numba
import numpy as np

from .._numba import jit, jit_parallel
from ..cards import (
    RANK_NAMES,
    RANK_PLURALS,
    SUIT_LANE_BITS,
    SUIT_SYMBOLS,
    CardError,
    format_card,
    format_cards,
    parse_cards,
)
from ..limits import DECK_SIZE
from . import lookup

__all__ = [
    "CATEGORY_COLUMNS",
    "CATEGORY_KEYS",
    "CATEGORY_NAMES",
    "EXPOSED_CATEGORY_KEYS",
    "EXPOSED_CATEGORY_NAMES",
    "EXPOSED_FLOOR",
    "N_CATEGORIES",
    "best_five",
    "best_five_into",
    "best_five_of_sorted7",
    "best_five_rows",
    "category",
    "category_name",
    "describe",
    "eval5",
    "eval7",
    "eval_cards",
    "eval_mask",
    "eval_rows",
    "eval_rows_parallel",
    "evaluate",
    "exposed_cards_value",
    "exposed_category",
    "exposed_rows",
    "exposed_value",
    "exposed_value4",
    "exposed_value_at",
    "exposed_value_category",
    "mask_category",
    "mask_groups",
    "value_category",
    "value_of_key5",
]

CATEGORY_NAMES: tuple[str, ...] = (
    "High card",
    "Pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
)
#: the categories as identifiers (column names, options)
CATEGORY_KEYS: tuple[str, ...] = (
    "high_card", "pair", "two_pair", "trips", "straight",
    "flush", "full_house", "quads", "straight_flush",
)  # fmt: skip
N_CATEGORIES = len(CATEGORY_NAMES)
#: Category columns of every result table: ``cat_<key>`` is the share of *all*
#: deals in which the hero reached the showdown holding that category (a deal
#: it folded or won uncontested has none), so the columns sum to its
#: showdown rate (1 in the showdown model).
CATEGORY_COLUMNS: tuple[str, ...] = tuple(f"cat_{key}" for key in CATEGORY_KEYS)
#: the R11 categories of exposed cards (groups only), as identifiers
EXPOSED_CATEGORY_KEYS: tuple[str, ...] = ("no_pair", "pair", "two_pair", "trips", "quads")
#: the R11 categories of exposed cards: "No pair", then the names of the hand
#: categories they share (:data:`CATEGORY_NAMES`)
EXPOSED_CATEGORY_NAMES: tuple[str, ...] = (
    "No pair",
    *(CATEGORY_NAMES[CATEGORY_KEYS.index(key)] for key in EXPOSED_CATEGORY_KEYS[1:]),
)

N_VALUES = 7462

# Frozen into the kernels as constants at compile time.
_CARD_KEYS = lookup.CARD_KEYS
_LANE_KEYS = lookup.LANE_KEYS
_ROW_OFFSETS = lookup.ROW_OFFSETS
_RANK_TABLE = lookup.RANK_TABLE
_FIVE_OFFSETS = lookup.FIVE_OFFSETS
_FIVE_TABLE = lookup.FIVE_TABLE
_FIVE_ROW_SHIFT = lookup.FIVE_ROW_SHIFT
_FLUSH_TABLE = lookup.FLUSH_TABLE
_CATEGORY_START = lookup.CATEGORY_START
_VALUE_RANK_COUNTS = lookup.VALUE_RANK_COUNTS
KEY_BIAS = lookup.KEY_BIAS
FLUSH_BITS = lookup.FLUSH_BITS
_RANK_SUM_MASK = lookup.RANK_SUM_MASK
_HASH_MULTIPLIER = lookup.HASH_MULTIPLIER
_HASH_MASK = lookup.HASH_MASK
_ROW_SHIFT = lookup.ROW_SHIFT
_SUIT_SHIFT = lookup.SUIT_SHIFT
_LANE = 0x1FFF

_X1 = 14
_X2 = 14 * 14
_X3 = 14 * 14 * 14
_X4 = 14 * 14 * 14 * 14

# ---------------------------------------------------------------- kernels


@jit
def _rank_value(key):
    """Value of a non-flush hand from its key (only the low 25 bits are used)."""
    h = ((key & _RANK_SUM_MASK) * _HASH_MULTIPLIER) & _HASH_MASK
    # unsigned indices: numba adds no negative-index wraparound code
    return np.int64(_RANK_TABLE[np.uint64(h + _ROW_OFFSETS[np.uint64(h >> _ROW_SHIFT)])])


@jit
def five_value(key):
    """Value of a non-flush five-card hand from its key (the small five-card table)."""
    h = ((key & _RANK_SUM_MASK) * _HASH_MULTIPLIER) & _HASH_MASK
    return np.int64(_FIVE_TABLE[np.uint64(h + _FIVE_OFFSETS[np.uint64(h >> _FIVE_ROW_SHIFT)])])


@jit
def _flush_suit(key):
    """The suit (0..3) whose counter in ``key`` reached five cards."""
    f = (key >> _SUIT_SHIFT) & 0x8888
    s = 0
    if f > 0x8:
        s = 1
    if f > 0x88:
        s = 2
    if f > 0x888:
        s = 3
    return s


@jit
def _suit_bit(c, s):
    """``1 << rank`` if card ``c`` has suit ``s``, else 0."""
    return np.int64((np.int64(c) & 3) == s) << (np.int64(c) >> 2)


@jit
def card_key(c):
    """Additive key of one card (unsigned index: no wraparound code)."""
    return _CARD_KEYS[np.uint64(c)]


@jit
def _flush7(key, c0, c1, c2, c3, c4, c5, c6):
    s = _flush_suit(key)
    bits = (
        _suit_bit(c0, s)
        | _suit_bit(c1, s)
        | _suit_bit(c2, s)
        | _suit_bit(c3, s)
        | _suit_bit(c4, s)
        | _suit_bit(c5, s)
        | _suit_bit(c6, s)
    )
    return np.int64(_FLUSH_TABLE[np.uint64(bits)])


@jit(inline="always")
def eval7(c0, c1, c2, c3, c4, c5, c6):
    """Value (int64) of seven scalar card indices."""
    key = (
        KEY_BIAS + card_key(c0) + card_key(c1) + card_key(c2) + card_key(c3) + card_key(c4)
        + card_key(c5) + card_key(c6)
    )  # fmt: skip
    if key & FLUSH_BITS:
        return _flush7(key, c0, c1, c2, c3, c4, c5, c6)
    return _rank_value(key)


@jit(inline="always")
def eval5(c0, c1, c2, c3, c4):
    """Value (int64) of five scalar card indices."""
    key = KEY_BIAS + card_key(c0) + card_key(c1) + card_key(c2) + card_key(c3) + card_key(c4)
    if key & FLUSH_BITS:
        bits = (
            (np.int64(1) << (np.int64(c0) >> 2))
            | (np.int64(1) << (np.int64(c1) >> 2))
            | (np.int64(1) << (np.int64(c2) >> 2))
            | (np.int64(1) << (np.int64(c3) >> 2))
            | (np.int64(1) << (np.int64(c4) >> 2))
        )
        return np.int64(_FLUSH_TABLE[np.uint64(bits)])
    return five_value(key)


@jit(inline="always")
def value_of_key5(key, rank_bits):
    """Value (int64) of five cards from their additive key (``KEY_BIAS``
    plus their :func:`card_key` sums, as :func:`eval5` forms it) and the sum
    of their ``1 << rank`` (read only for a flush, whose five ranks differ):
    :func:`eval5`'s value, for a caller that forms many fives' keys by
    subtraction from one sum."""
    if key & FLUSH_BITS:
        return np.int64(_FLUSH_TABLE[np.uint64(rank_bits)])
    return five_value(key)


@jit
def best_five_of_sorted7(out):
    """Put the best five of the seven cards ``out[0:7]`` (descending card
    order) first; returns the value (int64).

    The same choice as :func:`best_five_into` (among the best fives, the
    lexicographically largest in descending card order) without trying the
    21 subsets: a value fixes the ranks of its five cards
    (``lookup.VALUE_RANK_COUNTS``) and, for a flush, the suit (the only one
    with five cards among seven). Walking the cards from the highest and
    taking each one whose rank (and suit) is still needed takes the highest
    suits of every rank, which is the lexicographically largest five. The two
    other cards go to ``out[5:7]``, still in descending order.
    """
    s0 = np.int64(out[0])
    s1 = np.int64(out[1])
    s2 = np.int64(out[2])
    s3 = np.int64(out[3])
    s4 = np.int64(out[4])
    s5 = np.int64(out[5])
    s6 = np.int64(out[6])
    key = (
        KEY_BIAS + card_key(s0) + card_key(s1) + card_key(s2) + card_key(s3) + card_key(s4)
        + card_key(s5) + card_key(s6)
    )  # fmt: skip
    suit = np.int64(-1)
    if key & FLUSH_BITS:
        value = _flush7(key, s0, s1, s2, s3, s4, s5, s6)
        suit = _flush_suit(key)  # a flush is the best five whenever seven cards hold one
    else:
        value = _rank_value(key)
    need = _VALUE_RANK_COUNTS[value]
    cards = (s0, s1, s2, s3, s4, s5, s6)
    kept = 0
    other = 5
    for p in range(7):  # branch-free: the choice is data, not control flow
        c = cards[p]
        shift = 4 * (c >> 2)
        take = np.int64(((need >> shift) & 15) != 0) & np.int64((suit < 0) | ((c & 3) == suit))
        need -= take << shift
        out[kept if take else other] = c
        kept += take
        other += 1 - take
    return value


@jit
def eval_cards(cards, n):
    """Value (int64) of the first ``n`` (5, 6 or 7) card indices of ``cards``."""
    key = np.int64(KEY_BIAS)
    for i in range(n):
        key += _CARD_KEYS[cards[i]]
    if key & FLUSH_BITS:
        s = _flush_suit(key)
        bits = np.int64(0)
        for i in range(n):
            bits |= _suit_bit(cards[i], s)
        return np.int64(_FLUSH_TABLE[bits])
    return _rank_value(key)


@jit
def eval_mask(mask):
    """Value (int64) of a uint64 mask holding 5 to 7 cards (layout of :mod:`.cards`)."""
    m = np.int64(mask)
    l0 = m & _LANE
    l1 = (m >> SUIT_LANE_BITS) & _LANE
    l2 = (m >> 2 * SUIT_LANE_BITS) & _LANE
    l3 = (m >> 3 * SUIT_LANE_BITS) & _LANE
    f = max(max(_FLUSH_TABLE[l0], _FLUSH_TABLE[l1]), max(_FLUSH_TABLE[l2], _FLUSH_TABLE[l3]))
    if f != 0:
        return np.int64(f)
    return _rank_value(_LANE_KEYS[l0] + _LANE_KEYS[l1] + _LANE_KEYS[l2] + _LANE_KEYS[l3])


@jit
def value_category(value):
    """Category 0..8 (int64) of a hand value 1..7462."""
    # the number of categories above the first whose start the value reaches
    # (the starts ascend): eight comparisons and no branch to mispredict
    v = np.int64(value)
    c = np.int64(0)
    for k in range(1, 9):
        c += np.int64(v >= _CATEGORY_START[k])
    return c


@jit
def best_five_into(cards, n, out):
    """Best five of the first ``n`` (5, 6 or 7) cards; returns the value (int64).

    Writes the chosen five into ``out[0:5]`` and the discards into
    ``out[5:n]``, each part in descending card index order. Among the
    subsets of maximal value, the one whose descending card indices are
    lexicographically largest is chosen (see the module docstring).
    """
    # Sort the cards into ``out`` in descending order (insertion sort, no allocation).
    for i in range(n):
        c = cards[i]
        j = i - 1
        while j >= 0 and out[j] < c:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = c
    # Subsets enumerated in lexicographic order of positions in the descending
    # array = descending lexicographic order of their cards; keep the first best.
    best = np.int64(-1)
    bi = 0
    bj = 0
    bk = 0
    bl = 0
    bm = 0
    for i in range(n - 4):
        for j in range(i + 1, n - 3):
            for k in range(j + 1, n - 2):
                for l in range(k + 1, n - 1):
                    for m in range(l + 1, n):
                        v = eval5(out[i], out[j], out[k], out[l], out[m])
                        if v > best:
                            best = v
                            bi, bj, bk, bl, bm = i, j, k, l, m
    # Stable partition: the chosen five first, then the (at most two) discards.
    d0 = out[0]
    d1 = out[0]
    nd = 0
    for i in range(n):
        if i != bi and i != bj and i != bk and i != bl and i != bm:
            if nd == 0:
                d0 = out[i]
            else:
                d1 = out[i]
            nd += 1
    out[0] = out[bi]
    out[1] = out[bj]
    out[2] = out[bk]
    out[3] = out[bl]
    out[4] = out[bm]
    if nd > 0:
        out[5] = d0
    if nd > 1:
        out[6] = d1
    return best


@jit
def exposed_cards_value(cards, n):
    """R11 value (int64) of the first ``n`` (0..4) cards; 0 cards give 0, the minimum."""
    counts = np.int64(0)
    for i in range(n):
        counts += np.int64(1) << (4 * (np.int64(cards[i]) >> 2))
    digits = np.int64(0)
    placed = 0
    pairs = 0
    trips = 0
    quads = 0
    for size in range(4, 0, -1):
        for r in range(12, -1, -1):
            if (counts >> (4 * r)) & 15 == size:
                digits = digits * _X1 + (r + 1)
                placed += 1
                if size == 2:
                    pairs += 1
                elif size == 3:
                    trips += 1
                elif size == 4:
                    quads += 1
    while placed < 4:
        digits *= _X1
        placed += 1
    if quads:
        cat = 4
    elif trips:
        cat = 3
    elif pairs == 2:
        cat = 2
    elif pairs == 1:
        cat = 1
    else:
        cat = 0
    return np.int64(cat) * _X4 + digits


#: exposed category (R11: none, pair, two pair, trips, quads) -> the least hand
#: category a seat showing it can hold
EXPOSED_FLOOR = np.array([0, 1, 2, 3, 7], dtype=np.int64)



# exposed_value4: for each pattern of equal neighbours among the four ranks
# sorted in descending order (bit 0: r0 == r1, bit 1: r1 == r2, bit 2:
# r2 == r3), the weights of the four digits ``rank + 1`` and the category
# term: groups first (larger, then higher), then singles, high to low
_EXPOSED_WEIGHTS = np.array(
    [
        [_X3, _X2, _X1, 1, 0],  # no pair: r0 r1 r2 r3
        [_X3, 0, _X2, _X1, _X4],  # pair r0, singles r2 r3
        [_X2, _X3, 0, _X1, _X4],  # pair r1, singles r0 r3
        [_X3, 0, 0, _X2, 3 * _X4],  # trips r0, single r3
        [_X2, _X1, _X3, 0, _X4],  # pair r2, singles r0 r1
        [_X3, 0, _X2, 0, 2 * _X4],  # two pair r0, r2
        [_X2, _X3, 0, 0, 3 * _X4],  # trips r1, single r0
        [_X3, 0, 0, 0, 4 * _X4],  # quads r0
    ],
    dtype=np.int64,
)


@jit(inline="always")
def exposed_value4(c0, c1, c2, c3, n):
    """:func:`~anaconda_sim.hands.evaluator.exposed_cards_value` of the first ``n``
    (0..4) of four scalar cards: the same number (R11), without a loop over
    the thirteen ranks and nearly without branches. The ranks are sorted in
    descending order (a missing card is rank -1, last); the equalities
    between neighbours then give the category and the order of the digits
    (:data:`_EXPOSED_WEIGHTS`), and a digit is ``rank + 1``, so a missing
    card gives the padding 0."""
    a = np.int64(c0) >> 2 if n > 0 else np.int64(-1)
    b = np.int64(c1) >> 2 if n > 1 else np.int64(-1)
    c = np.int64(c2) >> 2 if n > 2 else np.int64(-1)
    d = np.int64(c3) >> 2 if n > 3 else np.int64(-1)
    # sorting network, descending (missing cards, -1, go last)
    hi1 = max(a, b)
    lo1 = min(a, b)
    hi2 = max(c, d)
    lo2 = min(c, d)
    r0 = max(hi1, hi2)
    mid1 = min(hi1, hi2)
    mid2 = max(lo1, lo2)
    r3 = min(lo1, lo2)
    r1 = max(mid1, mid2)
    r2 = min(mid1, mid2)
    # neighbour equalities (a missing card equals nothing)
    pattern = (
        (np.int64(r0 == r1) & np.int64(r1 >= 0))
        | ((np.int64(r1 == r2) & np.int64(r2 >= 0)) << 1)
        | ((np.int64(r2 == r3) & np.int64(r3 >= 0)) << 2)
    )
    w = _EXPOSED_WEIGHTS
    p = np.uint64(pattern)
    return (
        w[p, 4] + w[p, 0] * (r0 + 1) + w[p, 1] * (r1 + 1) + w[p, 2] * (r2 + 1)
        + w[p, 3] * (r3 + 1)
    )  # fmt: skip


@jit(inline="always")
def exposed_value_at(arr, start, n):
    """R11 value of ``arr[start:start + n]`` (n in 0..4; slots past n are not read)."""
    c0 = arr[start] if n > 0 else 0
    c1 = arr[start + 1] if n > 1 else 0
    c2 = arr[start + 2] if n > 2 else 0
    c3 = arr[start + 3] if n > 3 else 0
    return exposed_value4(c0, c1, c2, c3, n)


_LANE = np.uint64(0x1FFF)  # the 13 rank bits of one suit's lane in a hand mask
_LANE1 = np.uint64(SUIT_LANE_BITS)
_LANE2 = np.uint64(2 * SUIT_LANE_BITS)
_LANE3 = np.uint64(3 * SUIT_LANE_BITS)


@jit(inline="always")
def _pop13(x):
    """Number of bits set in a 13-bit lane (SWAR, no table)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555))
    x = (x & np.uint64(0x3333)) + ((x >> np.uint64(2)) & np.uint64(0x3333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F)
    return (x + (x >> np.uint64(8))) & np.uint64(0x1F)


@jit(inline="always")
def _has_straight(ranks):
    """True if the 13-bit rank set holds five consecutive ranks (the ace
    also plays low: 5-4-3-2-A)."""
    r = (ranks << np.uint64(1)) | ((ranks >> np.uint64(12)) & np.uint64(1))  # bit 0: ace low
    run = r & (r >> np.uint64(1)) & (r >> np.uint64(2)) & (r >> np.uint64(3)) & (r >> np.uint64(4))
    return run != np.uint64(0)


@jit(inline="always")
def mask_groups(mask):
    """The category 0..8 of the 5, 6 or 7 cards of a hand mask (the
    :func:`~anaconda_sim.cards.bit_index` layout: 13 rank bits per suit
    lane), equal to ``value_category`` of their value, and the rank sets
    (13 bits, deuce lowest) that refine it: the ranks held at least twice,
    the ranks held at least three times, and the ranks of the suit holding
    five or more (0 if none). From the rank and suit bit patterns alone (no
    table, so no cache miss).

    A rank held in at least k suits is a bit set in at least k lanes; the
    categories are tested from the highest down, so each test may assume
    every higher one failed. With at most seven cards only one suit can hold
    five, and a straight flush lies in that suit. Checked against the
    evaluator on every five- and seven-card hand and on random six-card
    hands (``tests/hands/test_mask_category.py``).
    """
    m = np.uint64(mask)
    l0 = m & _LANE
    l1 = (m >> _LANE1) & _LANE
    l2 = (m >> _LANE2) & _LANE
    l3 = (m >> _LANE3) & _LANE
    ranks = l0 | l1 | l2 | l3
    four = l0 & l1 & l2 & l3
    three = (l0 & l1 & (l2 | l3)) | (l2 & l3 & (l0 | l1))
    two = (l0 & (l1 | l2 | l3)) | (l1 & (l2 | l3)) | (l2 & l3)
    flush = np.uint64(0)
    if _pop13(l0) >= 5:
        flush = l0
    elif _pop13(l1) >= 5:
        flush = l1
    elif _pop13(l2) >= 5:
        flush = l2
    elif _pop13(l3) >= 5:
        flush = l3
    several_pairs = (two & (two - np.uint64(1))) != np.uint64(0)  # two ranks or more held twice
    if flush != np.uint64(0) and _has_straight(flush):
        category = 8
    elif four != np.uint64(0):
        category = 7
    elif three != np.uint64(0) and several_pairs:
        category = 6
    elif flush != np.uint64(0):
        category = 5
    elif _has_straight(ranks):
        category = 4
    elif three != np.uint64(0):
        category = 3
    elif several_pairs:
        category = 2
    elif two != np.uint64(0):
        category = 1
    else:
        category = 0
    return np.int64(category), two, three, flush


@jit
def mask_category(mask):
    """Category 0..8 (int64) of the 5, 6 or 7 cards of a hand mask: the
    first of :func:`mask_groups`.

    A kernel of its own (a call with one integer argument), not inlined IR:
    inlined into every betting decision of the deal kernel it added a
    third to that kernel's compile time.
    """
    return mask_groups(mask)[0]


@jit
def exposed_value_category(xvalue):
    """Exposed category 0..4 (int64) of an exposed value (see :data:`EXPOSED_CATEGORY_NAMES`)."""
    return np.int64(xvalue) // _X4


@jit
def eval_rows(hands, out):
    """Serial batch: ``out[i] = value of hands[i, :]`` for a 2-D array of 5 to 7 columns."""
    n = hands.shape[1]
    if n == 7:
        for i in range(hands.shape[0]):
            h = hands[i]
            out[i] = eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
    elif n == 5:
        for i in range(hands.shape[0]):
            h = hands[i]
            out[i] = eval5(h[0], h[1], h[2], h[3], h[4])
    else:
        for i in range(hands.shape[0]):
            out[i] = eval_cards(hands[i], n)


_CHUNK = 1 << 14


@jit_parallel
def eval_rows_parallel(hands, out):
    """Parallel batch (``prange`` over chunks of rows); same result as :func:`eval_rows`."""
    rows = hands.shape[0]
    chunks = (rows + _CHUNK - 1) // _CHUNK
    for c in numba.prange(chunks):
        lo = c * _CHUNK
        hi = min(lo + _CHUNK, rows)
        eval_rows(hands[lo:hi], out[lo:hi])


@jit
def best_five_rows(hands, five, discards):
    """Batch :func:`best_five_into` over the rows of a (N, 6|7) array; returns the values."""
    n = hands.shape[1]
    values = np.empty(hands.shape[0], np.int64)
    buf = np.empty(7, np.int64)
    for i in range(hands.shape[0]):
        values[i] = best_five_into(hands[i], n, buf)
        for j in range(5):
            five[i, j] = buf[j]
        for j in range(5, n):
            discards[i, j - 5] = buf[j]
    return values


@jit
def exposed_rows(cards, out):
    """Batch :func:`exposed_cards_value` over the rows of a (N, k) array, k = 0..4."""
    k = cards.shape[1]
    for i in range(cards.shape[0]):
        out[i] = exposed_cards_value(cards[i], k)


@jit
def _row_bad(h, n):
    """True when the first ``n`` entries of ``h`` are not distinct indices 0..51.

    Branch-free: with distinct cards the sum of the bits ``1 << c`` equals
    their OR; a repeated card makes the sum differ.
    """
    total = np.int64(0)
    union = np.int64(0)
    bad = False
    for j in range(n):
        c = np.int64(h[j])
        bad |= (c < 0) | (c > 51)
        bit = np.int64(1) << (c & 63)
        total += bit
        union |= bit
    return bad | (total != union)


@jit
def _rows_ok(hands):
    """True when every row holds distinct card indices 0..51."""
    n = hands.shape[1]
    bad = False
    if n == 7:  # constant trip counts let the compiler unroll the row loop
        for i in range(hands.shape[0]):
            bad |= _row_bad(hands[i], 7)
    elif n == 5:
        for i in range(hands.shape[0]):
            bad |= _row_bad(hands[i], 5)
    else:
        for i in range(hands.shape[0]):
            bad |= _row_bad(hands[i], n)
    return not bad


@jit_parallel
def _rows_ok_parallel(hands):
    """:func:`_rows_ok` on all cores (``prange`` over chunks of rows)."""
    rows = hands.shape[0]
    chunks = (rows + _CHUNK - 1) // _CHUNK
    ok = np.empty(chunks, np.bool_)
    for c in numba.prange(chunks):
        lo = c * _CHUNK
        ok[c] = _rows_ok(hands[lo : min(lo + _CHUNK, rows)])
    return ok.all()


@jit
def _check_rows(hands):
    """First invalid row of a 2-D card array: (row, code, value); row -1 if all valid.

    code 1: index out of 0..51 (value = the index); code 2: duplicate (value = card).
    """
    for i in range(hands.shape[0]):
        seen = np.int64(0)
        for j in range(hands.shape[1]):
            c = np.int64(hands[i, j])
            if c < 0 or c > 51:
                return i, 1, c
            bit = np.int64(1) << c
            if seen & bit:
                return i, 2, c
            seen |= bit
    return -1, 0, 0


# ---------------------------------------------------------------- public layer

_PARALLEL_ROWS = 1 << 16


def is_single_hand(cards: object) -> bool:
    """A string, or a flat list/tuple of strings or ints, is one hand (batch APIs of ``hands``)."""
    if isinstance(cards, str):
        return True
    if isinstance(cards, (list, tuple)):
        return all(isinstance(c, (str, int, np.integer)) for c in cards)
    return False


def _canonical(arr: np.ndarray) -> np.ndarray:
    """C-contiguous int8, uint8 or int64 (so the kernels compile for three dtypes only)."""
    if arr.dtype not in (np.int8, np.uint8, np.int64):
        if arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
            raise CardError(f"card index {int(arr.max())} is out of range; indices are 0..51")
        arr = arr.astype(np.int64)
    return np.ascontiguousarray(arr)


def as_card_array(cards: object, sizes: Sequence[int], what: str) -> tuple[np.ndarray, np.ndarray]:
    """Validate an integer array of card indices with last axis in ``sizes``.

    The one input check of every batch API of :mod:`anaconda_sim.hands` (high
    and low). Returns the array as given and its rows as a flat canonical 2-D array.
    """
    arr = np.asarray(cards)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.integer) and arr.dtype != np.bool_):
        raise ValueError(
            f"{what} array has dtype {arr.dtype}; give integer card indices 0..51 "
            "(or a string like 'Qs Qh 9c 8d 3s')"
        )
    allowed = " or ".join(str(s) for s in sizes)
    if arr.ndim == 0 or arr.shape[-1] not in sizes:
        raise ValueError(
            f"{what} array has shape {arr.shape}; the last axis must hold {allowed} cards"
        )
    flat = _canonical(arr.reshape(-1, arr.shape[-1]))
    fine = _rows_ok_parallel(flat) if len(flat) >= _PARALLEL_ROWS else _rows_ok(flat)
    row, code, value = (-1, 0, 0) if fine else _check_rows(flat)
    if row >= 0:
        hand = flat[row]
        where = np.unravel_index(row, arr.shape[:-1]) if arr.ndim > 1 else ()
        if code == 1:
            raise CardError(
                f"card index {value} is out of range in {what} {list(map(int, hand))} "
                f"at position {tuple(map(int, where))}; indices are 0..51"
            )
        shown = " ".join(format_card(int(c)) if 0 <= c < DECK_SIZE else str(int(c)) for c in hand)
        raise CardError(
            f"duplicate card {format_card(int(value))} in {what} {shown!r} "
            f"at position {tuple(map(int, where))}"
        )
    return arr, flat


@overload
def evaluate(cards: str | Sequence[str] | Sequence[int]) -> int: ...
@overload
def evaluate(cards: np.ndarray) -> np.ndarray: ...


def evaluate(cards):
    """Value of 5, 6 or 7 cards: one hand, or every hand of an array.

    Parameters
    ----------
    cards
        One hand as a string (``"Qs Qh Qd 9c 9d"``) or a flat list of cards
        (strings or indices): returns a Python int. Or an integer array of
        shape ``(..., 5)``, ``(..., 6)`` or ``(..., 7)`` of card indices:
        returns an int32 array of shape ``(...)``. Large arrays are evaluated
        on all cores.

    Returns
    -------
    int or numpy.ndarray
        Values 1..7462, higher is better, equal is a tie (R18, R19); a 6- or
        7-card value is the value of its best five.

    Raises
    ------
    CardError
        Unknown, duplicated or out-of-range card, or a wrong number of cards.
    ValueError
        Array of the wrong dtype or shape.

    Examples
    --------
    >>> evaluate("7c 5d 4h 3s 2c"), evaluate("As Ks Qs Js Ts")
    (1, 7462)
    >>> evaluate("Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠") == evaluate("Qs Qh Qd 9c 9d")
    True
    >>> evaluate(np.array([[0, 5, 10, 15, 48], [48, 45, 42, 39, 32]]))  # wheel, broadway
    array([5854, 5863], dtype=int32)
    >>> evaluate("Qs Qh Qs 9c 9d")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: duplicate card Qs in hand 'Qs Qh Qs 9c 9d'
    """
    return evaluate_hands(cards, eval_cards, eval_rows, eval_rows_parallel)


def evaluate_hands(cards: object, one: Any, rows: Any, rows_parallel: Any) -> Any:
    """The body of :func:`evaluate` and of the low evaluator's ``evaluate_low``:
    one hand of 5 to 7 cards gives an int (kernel ``one(cards, n)``), an array
    of hands an int32 array of their values (kernel ``rows(hands, out)``, or
    ``rows_parallel`` on large batches), after the checks of
    :func:`as_card_array`."""
    if is_single_hand(cards):
        hand = parse_cards(cards, count=(5, 6, 7))  # type: ignore[arg-type]
        return int(one(np.array(hand, dtype=np.int64), len(hand)))
    arr, flat = as_card_array(cards, (5, 6, 7), "hand")
    out = np.empty(flat.shape[0], np.int32)
    if flat.shape[0] >= _PARALLEL_ROWS:
        rows_parallel(flat, out)
    else:
        rows(flat, out)
    return out.reshape(arr.shape[:-1])


def check_value_range(values: np.ndarray, n_values: int, noun: str, hint: str = "") -> None:
    """Refuse values that are not integers in ``1..n_values`` (``noun``: "hand"
    or "low"; ``hint`` ends the out-of-range message)."""
    if values.dtype == object or not np.issubdtype(values.dtype, np.integer):
        raise ValueError(f"{noun} values have dtype {values.dtype}; give integers 1..{n_values}")
    bad = (values < 1) | (values > n_values)
    if bad.any():
        raise ValueError(f"{noun} value {int(values[bad].flat[0])} is not in 1..{n_values}{hint}")


def _check_values(values: np.ndarray) -> None:
    check_value_range(values, N_VALUES, "hand")


@overload
def category(values: int) -> int: ...
@overload
def category(values: np.ndarray) -> np.ndarray: ...


def category(values):
    """Category 0..8 of hand values (index into :data:`CATEGORY_NAMES`).

    Examples
    --------
    >>> category(evaluate("Qs Qh Qd 9c 9d"))
    6
    >>> category(np.array([1, 7462]))
    array([0, 8])
    >>> category(0)
    Traceback (most recent call last):
    ...
    ValueError: hand value 0 is not in 1..7462
    """
    arr = np.asarray(values)
    _check_values(arr)
    cats = np.searchsorted(_CATEGORY_START[1:9], arr, side="right").astype(np.int64)
    if np.ndim(values) == 0:
        return int(cats)
    return cats


def category_name(value: int) -> str:
    """Name of the category of one hand value.

    Examples
    --------
    >>> category_name(evaluate("Ah Kh Qh Jh Th"))
    'Straight flush'
    >>> category_name(7463)
    Traceback (most recent call last):
    ...
    ValueError: hand value 7463 is not in 1..7462
    """
    return CATEGORY_NAMES[category(int(value))]


def describe(value_or_cards: int | str | Sequence[str] | Sequence[int] | np.ndarray) -> str:
    """Plain-English description of a hand value, or of a hand of 5 to 7 cards.

    Examples
    --------
    >>> describe("Qs Qh Qd 9c 9d")
    'Full house, queens over nines'
    >>> describe("As Ad 4c 4h Kd")
    'Two pair, aces and fours, king kicker'
    >>> describe("9s 8d 7c 6h 5h"), describe("5s 4d 3c 2h Ah")
    ('Straight, nine high', 'Straight, five high')
    >>> describe("Ah 9h 7h 4h 2h"), describe("Jd Jc 9h 4h 2h"), describe("Ad Jc 9h 4h 2h")
    ('Flush, ace high', 'Pair of jacks', 'High card, ace')
    >>> describe(7462)
    'Royal flush'
    >>> describe(99999)
    Traceback (most recent call last):
    ...
    ValueError: hand value 99999 is not in 1..7462
    """
    if isinstance(value_or_cards, (int, np.integer)) and not isinstance(value_or_cards, bool):
        value = int(value_or_cards)
        _check_values(np.asarray(value))
    elif isinstance(value_or_cards, np.ndarray):
        if value_or_cards.ndim != 1:
            raise ValueError(
                f"describe takes one hand; got an array of shape {value_or_cards.shape}"
            )
        value = int(evaluate(value_or_cards))
    else:
        value = evaluate(value_or_cards)  # type: ignore[arg-type]
    cat, ranks = lookup.CLASS_INFO[value]
    one = RANK_NAMES
    many = RANK_PLURALS
    if cat == 8:
        return "Royal flush" if ranks[0] == 12 else f"Straight flush, {one[ranks[0]]} high"
    if cat == 7:
        return f"Four of a kind, {many[ranks[0]]}, {one[ranks[1]]} kicker"
    if cat == 6:
        return f"Full house, {many[ranks[0]]} over {many[ranks[1]]}"
    if cat == 5:
        return f"Flush, {one[ranks[0]]} high"
    if cat == 4:
        return f"Straight, {one[ranks[0]]} high"
    if cat == 3:
        return f"Three of a kind, {many[ranks[0]]}"
    if cat == 2:
        return f"Two pair, {many[ranks[0]]} and {many[ranks[1]]}, {one[ranks[2]]} kicker"
    if cat == 1:
        return f"Pair of {many[ranks[0]]}"
    return f"High card, {one[ranks[0]]}"


@overload
def best_five(cards7: str, unicode: bool | None = ...) -> tuple[str, str]: ...  # type: ignore[overload-overlap]
@overload
def best_five(cards7: Sequence[str], unicode: bool | None = ...) -> tuple[list[str], list[str]]: ...
@overload
def best_five(cards7: Sequence[int], unicode: bool | None = ...) -> tuple[list[int], list[int]]: ...
@overload
def best_five(cards7: np.ndarray, unicode: bool | None = ...) -> tuple[np.ndarray, np.ndarray]: ...


def best_five(cards7, unicode=None):
    """The five cards that make the hand's value, and the cards discarded.

    Among equally valued choices, the five whose card indices sorted in
    descending order are lexicographically largest is kept (higher cards,
    then higher suits by index, when the choice does not matter). Both parts
    are returned in descending card index order.

    Parameters
    ----------
    cards7
        One hand of 6 or 7 cards. Cards come back as they were given: a
        string gives two strings (``"Q♠ Q♥ Q♦ 9♦ 9♣"``), a list of card
        strings two lists of card strings, a list of card indices two lists
        of indices. Or an integer array of shape (N, 7) or (N, 6): returns
        arrays of shape (N, 5) and (N, 2) (or (N, 1)).
    unicode
        For cards given as text: suit symbols (``Q♠``) or letters (``Qs``);
        ``None``: as the hand was written.

    Examples
    --------
    >>> best_five("Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠")
    ('Q♠ Q♥ Q♦ 9♦ 9♣', '8♦ 5♠')
    >>> best_five(["Qs", "Qh", "9c", "8d", "Qd", "9d", "5s"])
    (['Qs', 'Qh', 'Qd', '9d', '9c'], ['8d', '5s'])
    >>> best_five([43, 42, 29, 24, 41, 30, 15])
    ([43, 42, 41, 30, 29], [24, 15])
    >>> best_five("Qs Qh Qd 9c 9d")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: hand 'Qs Qh Qd 9c 9d' has 5 cards; it needs 6 or 7
    """
    if is_single_hand(cards7):
        hand = parse_cards(cards7, count=(6, 7))  # type: ignore[arg-type]
        buf = np.empty(7, np.int64)
        best_five_into(np.array(hand, dtype=np.int64), len(hand), buf)
        five, out = [int(c) for c in buf[:5]], [int(c) for c in buf[5 : len(hand)]]
        texts = [c for c in ([cards7] if isinstance(cards7, str) else cards7)
                 if isinstance(c, str)]  # fmt: skip
        if not texts:
            return five, out
        symbols = any(s in text for text in texts for s in SUIT_SYMBOLS)
        shown = symbols if unicode is None else bool(unicode)
        if isinstance(cards7, str):
            return format_cards(five, unicode=shown), format_cards(out, unicode=shown)
        return ([format_card(c, unicode=shown) for c in five],
                [format_card(c, unicode=shown) for c in out])  # fmt: skip
    arr, flat = as_card_array(cards7, (6, 7), "hand")
    if arr.ndim != 2:
        raise ValueError(f"hand array has shape {arr.shape}; best_five takes shape (N, 6|7)")
    n = arr.shape[1]
    five = np.empty((arr.shape[0], 5), flat.dtype)
    discards = np.empty((arr.shape[0], n - 5), flat.dtype)
    best_five_rows(flat, five, discards)
    return five.astype(arr.dtype, copy=False), discards.astype(arr.dtype, copy=False)


@overload
def exposed_value(cards: str | Sequence[str] | Sequence[int]) -> int: ...
@overload
def exposed_value(cards: np.ndarray) -> np.ndarray: ...


def exposed_value(cards):
    """R11 strength of 1 to 4 exposed cards: higher is stronger, equal is a tie.

    Groups only (four of a kind > three of a kind > two pair > pair > no
    pair), then group ranks (higher pair first), then singles from the
    highest down; straights, flushes and suits never count. Values compare
    across different numbers of cards; a missing card ranks below any card
    (see the module docstring).

    Parameters
    ----------
    cards
        One set as a string or flat list (returns an int), or an integer
        array of shape (N, k), k = 1..4 (returns an int64 array of shape (N,)).

    Examples
    --------
    >>> exposed_value("9c Qs 9d Qh") > exposed_value("Ac Ad 9d 2c")  # two pair > pair (R11)
    True
    >>> exposed_value("9h 9c") > exposed_value("As"), exposed_value("Kd 7c") > exposed_value("Ks")
    (True, True)
    >>> exposed_value("Qs Qh") == exposed_value("Qd Qc")  # suits never matter
    True
    >>> exposed_value("Qs Qh 9c 8d 3s")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: exposed cards '...' has 5 cards; it needs 1 or 2 or 3 or 4
    """
    if is_single_hand(cards):
        shown = parse_cards(cards, count=(1, 2, 3, 4), what="exposed cards")  # type: ignore[arg-type]
        return int(exposed_cards_value(np.array(shown, dtype=np.int64), len(shown)))
    arr, flat = as_card_array(cards, (1, 2, 3, 4), "exposed cards")
    out = np.empty(flat.shape[0], np.int64)
    exposed_rows(flat, out)
    return out.reshape(arr.shape[:-1])


@overload
def exposed_category(cards: str | Sequence[str] | Sequence[int]) -> int: ...
@overload
def exposed_category(cards: np.ndarray) -> np.ndarray: ...


def exposed_category(cards):
    """R11 category 0..4 of exposed cards (index into :data:`EXPOSED_CATEGORY_NAMES`).

    Examples
    --------
    >>> EXPOSED_CATEGORY_NAMES[exposed_category("9♣ Q♠ 9♦ Q♥")]
    'Two pair'
    >>> exposed_category(np.array([[0, 1], [0, 4]]))
    array([1, 0])
    >>> exposed_category("")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: exposed cards '' has 0 cards; it needs 1 or 2 or 3 or 4
    """
    return exposed_value(cards) // _X4
