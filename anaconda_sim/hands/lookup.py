"""Lookup tables of the hand evaluator, built once (about 0.3 s) and then read from the cache.

How a hand is looked up
-----------------------
Every card ``c`` (index ``4 * rank + suit``) owns a 64-bit additive key::

    CARD_KEYS[c] = RANK_KEYS[rank] + (1 << (32 + 4 * suit))

A hand's key is ``KEY_BIAS + sum(CARD_KEYS[c])``, where ``KEY_BIAS`` puts 3
in each of the four 4-bit suit counters at bits 32..47. A suit holding five
or more cards pushes its counter to 8..10, so ``key & FLUSH_BITS`` is non-zero
exactly when the hand holds a flush (with at most 7 cards only one suit can).

* Flush: the ranks held in the flush suit form a 13-bit mask; ``FLUSH_TABLE``
  (8192 entries) gives the value of the best five of them (straight flush or
  flush; with 7 cards nothing else can beat a flush).
* Otherwise suits do not matter. The low 32 bits are the sum of the rank keys,
  unique for every multiset of at most 7 ranks with at most 4 of each
  (``RANK_KEYS`` was found by the greedy search :func:`search_rank_keys`:
  each key is the smallest integer keeping all such sums distinct). The sum
  (< 2**25) is scrambled by an odd multiplier modulo 2**25, a bijection,
  and then compressed by a displacement ("row offset") perfect hash::

      h = (rank_sum * HASH_MULTIPLIER) & HASH_MASK
      index = h + ROW_OFFSETS[h >> ROW_SHIFT]

  into ``RANK_TABLE``, which holds one entry per multiset of 5, 6 or 7 ranks
  (73,775 entries, no gaps). The scramble makes the rows look random, and
  random sparse rows pack perfectly by first fit. Five-card hands use a
  second, small table built the same way (``FIVE_OFFSETS``/``FIVE_TABLE``,
  about 32 KB, so it stays in the L1 cache).

Values are the public ones: 1 (7-5-4-3-2 offsuit) .. 7462 (royal flush), the
Cactus-Kev order reversed; a 6- or 7-card value is the value of the best five
(R18, R19). ``CLASS_INFO[v]`` describes value ``v`` for :func:`describe`;
``VALUE_RANK_COUNTS[v]`` holds the count of each rank among its five cards
(4 bits per rank), from which a best five is picked without trying subsets.

Everything here is deterministic, so the numba kernels that freeze these
arrays as constants can be cached on disk safely.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from .._numba import jit
from .._table_cache import cached_arrays
from ..limits import DECK_SIZE

RANK_KEYS = np.array(
    [1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520],
    dtype=np.int64,
)
SUIT_SHIFT = 32
KEY_BIAS = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888 << SUIT_SHIFT
RANK_SUM_MASK = (1 << 25) - 1
HASH_MULTIPLIER = 0x9E3779B1
HASH_MASK = (1 << 25) - 1
ROW_SHIFT = 10
FIVE_ROW_SHIFT = 13

# Categories 0..8 (R18).
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

# The ten straights as 13-bit rank masks, highest first; the wheel (A-2-3-4-5) last.
STRAIGHT_MASKS = (*(0x1F << low for low in range(8, -1, -1)), 0x100F)
STRAIGHT_HIGHS = (*range(12, 3, -1), 3)


def search_rank_keys(limit: int = 1 << 27) -> np.ndarray:
    """Re-run the greedy search that produced :data:`RANK_KEYS` (about 10 s).

    Rank ``r`` gets the smallest key larger than rank ``r - 1``'s such that
    the sums of every multiset of at most 7 cards over ranks ``0..r`` (at most
    4 of a rank) stay distinct. Not run at import; kept so the constants can
    be reproduced: ``search_rank_keys()`` equals ``RANK_KEYS``.
    """
    return _search_rank_keys(limit)


@jit(cache=False)
def _search_rank_keys(limit):  # pragma: no cover - documentation of the constants
    keys = np.zeros(13, np.int64)
    sums = np.zeros(200_000, np.int64)
    counts = np.zeros(200_000, np.int64)
    m = 1
    seen = np.zeros(limit, np.uint8)
    seen[0] = 1
    stamp = np.zeros(limit, np.int32)
    trial = 0
    k = 0
    for r in range(13):
        while True:
            k += 1
            trial += 1
            ok = True
            for i in range(m):
                for mult in range(1, 5):
                    if counts[i] + mult > 7:
                        break
                    t = sums[i] + mult * k
                    if t >= limit or seen[t] or stamp[t] == trial:
                        ok = False
                        break
                    stamp[t] = trial
                if not ok:
                    break
            if ok:
                break
        keys[r] = k
        for i in range(m):
            for mult in range(1, 5):
                if counts[i] + mult > 7:
                    break
                t = sums[i] + mult * k
                sums[m] = t
                counts[m] = counts[i] + mult
                m += 1
                seen[t] = 1
    return keys


def _class_tuple(ranks: tuple[int, ...], suited: bool) -> tuple[int, ...]:
    """Comparable strength of five ranks (with a flush flag): (category, ranks...)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    order = tuple(r for r, _ in groups)
    shape = tuple(c for _, c in groups)
    bits = sum(1 << r for r in ranks)
    high = -1
    if len(counts) == 5:
        for mask, top in zip(STRAIGHT_MASKS, STRAIGHT_HIGHS, strict=True):
            if bits == mask:
                high = top
                break
    if suited:
        return (STRAIGHT_FLUSH, high) if high >= 0 else (FLUSH, *order)
    if high >= 0:
        return (STRAIGHT, high)
    category = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
        (1, 1, 1, 1, 1): HIGH_CARD,
    }[shape]
    return (category, *order)


def _multisets(n: int) -> np.ndarray:
    """All multisets of ``n`` ranks with at most 4 of a rank, as sorted rows (int64)."""
    rows = np.array(list(itertools.combinations_with_replacement(range(13), n)), dtype=np.int64)
    if n >= 5:
        rows = rows[~np.any(rows[:, 4:] == rows[:, :-4], axis=1)]
    return rows


@jit
def _find_free(parent, i):
    root = i
    while parent[root] != root:
        root = parent[root]
    while parent[i] != root:
        following = parent[i]
        parent[i] = root
        i = following
    return root


def _place_rows(hashes: np.ndarray, shift: int) -> tuple[np.ndarray, int]:
    """First-fit displacement of the rows ``hashes >> shift`` (hashes sorted, distinct).

    Returns ``(offsets, size)`` with ``h + offsets[h >> shift]`` distinct and in
    ``0..size-1`` for every ``h`` in ``hashes``. Biggest rows go first.
    """
    rows = hashes >> shift
    n_rows = (HASH_MASK >> shift) + 1
    counts = np.bincount(rows, minlength=n_rows)
    order = np.argsort(-counts, kind="stable")
    order = order[counts[order] > 0]
    start = np.concatenate([[0], np.cumsum(counts)])
    low = hashes & ((1 << shift) - 1)
    offsets = np.zeros(n_rows, np.int32)
    size = _place_kernel(order, start, low, shift, offsets)
    return offsets, int(size)


@jit
def _place_kernel(order, start, low, shift, offsets):
    # A union-find "next free slot" structure skips occupied slots.
    capacity = 2 * len(low) + (2 << shift)
    taken = np.zeros(capacity, np.bool_)
    parent = np.arange(capacity + 1)
    size = 0
    for r in order:
        a = start[r]
        b = start[r + 1]
        q = _find_free(parent, low[a])
        while True:
            p = q - low[a]
            fits = True
            for i in range(a + 1, b):
                if taken[p + low[i]]:
                    fits = False
                    break
            if fits:
                break
            q = _find_free(parent, q + 1)
        for i in range(a, b):
            j = p + low[i]
            taken[j] = True
            parent[j] = j + 1
            size = max(size, j + 1)
        offsets[r] = p - (r << shift)
    return size


def _build() -> dict:
    # 1. The 7,462 five-card classes in strength order -> values 1..7462.
    five = _multisets(5)
    five_tuples = [_class_tuple(tuple(r), False) for r in five.tolist()]
    flush_sets = list(itertools.combinations(range(13), 5))
    flush_tuples = [_class_tuple(r, True) for r in flush_sets]
    ordered = sorted(five_tuples + flush_tuples)
    value_of_tuple = {t: v for v, t in enumerate(ordered, start=1)}
    class_info = [(0, ())] + [(t[0], t[1:]) for t in ordered]

    # 2. Non-flush values of every 5-, 6-, 7-rank multiset: best five-subset.
    five_keys = RANK_KEYS[five].sum(axis=1)
    five_values = np.array([value_of_tuple[t] for t in five_tuples], dtype=np.int64)
    order = np.argsort(five_keys)
    five_keys, five_values = five_keys[order], five_values[order]
    all_keys = [five_keys]
    all_values = [five_values]
    # The best five of n cards is the best five of one of its (n-1)-card parts.
    smaller_keys, smaller_values = five_keys, five_values
    for n in (6, 7):
        rows = _multisets(n)
        keys_n = RANK_KEYS[rows].sum(axis=1)
        best = np.zeros(len(rows), np.int64)
        for drop in range(n):
            sub = keys_n - RANK_KEYS[rows[:, drop]]
            best = np.maximum(best, smaller_values[np.searchsorted(smaller_keys, sub)])
        order = np.argsort(keys_n)
        smaller_keys, smaller_values = keys_n[order], best[order]
        all_keys.append(smaller_keys)
        all_values.append(smaller_values)
    keys = np.concatenate(all_keys)
    values = np.concatenate(all_values)
    hashes = (keys * HASH_MULTIPLIER) & HASH_MASK
    order = np.argsort(hashes)
    offsets, size = _place_rows(hashes[order], ROW_SHIFT)
    rank_table = np.zeros(size, np.uint16)
    rank_table[hashes + offsets[hashes >> ROW_SHIFT]] = values
    # A small table for exactly five cards (about 32 KB, stays in L1).
    hashes5 = (five_keys * HASH_MULTIPLIER) & HASH_MASK
    five_offsets, size5 = _place_rows(np.sort(hashes5), FIVE_ROW_SHIFT)
    five_table = np.zeros(size5, np.uint16)
    five_table[hashes5 + five_offsets[hashes5 >> FIVE_ROW_SHIFT]] = five_values

    # 3. Flush table: best five of the ranks held in the flush suit.
    flush_table = np.zeros(8192, np.uint16)
    for bits in range(8192):
        if bits.bit_count() < 5:
            continue
        for mask, high in zip(STRAIGHT_MASKS, STRAIGHT_HIGHS, strict=True):
            if bits & mask == mask:
                flush_table[bits] = value_of_tuple[(STRAIGHT_FLUSH, high)]
                break
        else:
            top = [r for r in range(12, -1, -1) if bits >> r & 1][:5]
            key = (FLUSH, *top)
            flush_table[bits] = value_of_tuple[key]

    # 4. Per-card keys, per-lane rank-key sums (for masks), category starts.
    card_keys = np.array(
        [RANK_KEYS[c >> 2] + (1 << (SUIT_SHIFT + 4 * (c & 3))) for c in range(DECK_SIZE)],
        dtype=np.int64,
    )
    lane_keys = np.zeros(8192, np.int64)
    for r in range(13):
        lane_keys[np.arange(8192) >> r & 1 == 1] += RANK_KEYS[r]
    category_start = np.zeros(10, np.int64)
    for v in range(len(class_info) - 1, 0, -1):
        category_start[class_info[v][0]] = v
    category_start[9] = len(class_info)
    # 5. The ranks of every value's five cards, 4 bits of count per rank
    # (a value fixes its ranks; only flushes of different suits share one).
    value_rank_counts = np.zeros(len(class_info), np.int64)
    for ranks, suited in [*((r, False) for r in five.tolist()), *((r, True) for r in flush_sets)]:
        value_rank_counts[value_of_tuple[_class_tuple(tuple(ranks), suited)]] = sum(
            1 << (4 * r) for r in ranks
        )
    return {
        "CARD_KEYS": card_keys,
        "LANE_KEYS": lane_keys,
        "ROW_OFFSETS": offsets,
        "RANK_TABLE": rank_table,
        "FIVE_OFFSETS": five_offsets,
        "FIVE_TABLE": five_table,
        "FLUSH_TABLE": flush_table,
        "CATEGORY_START": category_start,
        "CLASS_INFO": tuple(class_info),
        "VALUE_RANK_COUNTS": value_rank_counts,
    }


def _as_arrays(tables: dict) -> dict[str, np.ndarray]:
    """Tables as :func:`_build` returns them, with ``CLASS_INFO`` (a value's
    category and ranks) as two arrays, for the table cache: the categories,
    and the ranks padded with -1 to five."""
    class_info = tables["CLASS_INFO"]
    ranks = np.full((len(class_info), 5), -1, dtype=np.int8)
    for v, (_, group) in enumerate(class_info):
        ranks[v, : len(group)] = group
    return {**{k: v for k, v in tables.items() if k != "CLASS_INFO"},
            "CLASS_CATEGORY": np.array([c for c, _ in class_info], dtype=np.int8),
            "CLASS_RANKS": ranks}  # fmt: skip


def cached_tables(name: str, build: Callable[[], dict]) -> dict:
    """``build()``'s tables (arrays and a ``CLASS_INFO`` tuple), derived once
    per version of the sources and kept beside the compiled kernels
    (:mod:`anaconda_sim._table_cache`): built by the first process, read by
    the others. The high and the low evaluator's tables both come here."""
    found = cached_arrays(name, lambda: _as_arrays(build()))
    class_info = tuple((c, tuple(r for r in row if r >= 0)) for c, row in
                       zip(found["CLASS_CATEGORY"].tolist(), found["CLASS_RANKS"].tolist(),
                           strict=True))  # fmt: skip
    return {**found, "CLASS_INFO": class_info}


_T = cached_tables("evaluator", _build)
CARD_KEYS: np.ndarray = _T["CARD_KEYS"]
LANE_KEYS: np.ndarray = _T["LANE_KEYS"]
ROW_OFFSETS: np.ndarray = _T["ROW_OFFSETS"]
RANK_TABLE: np.ndarray = _T["RANK_TABLE"]
FIVE_OFFSETS: np.ndarray = _T["FIVE_OFFSETS"]
FIVE_TABLE: np.ndarray = _T["FIVE_TABLE"]
FLUSH_TABLE: np.ndarray = _T["FLUSH_TABLE"]
CATEGORY_START: np.ndarray = _T["CATEGORY_START"]
CLASS_INFO: tuple = _T["CLASS_INFO"]
VALUE_RANK_COUNTS: np.ndarray = _T["VALUE_RANK_COUNTS"]
del _T
