"""Slow, obviously correct twins of the fast kernels (pure Python, no numba).

Each section belongs to one module of the package; tests compare the fast
code against the twin here on many inputs. Keep every twin short enough to
check by eye.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations, combinations_with_replacement

import numpy as np

# =====================================================================
# Hand evaluator twins (anaconda_sim.hands.evaluator): R11, R18, R19
# =====================================================================
# A card is 4 * rank + suit, rank 0..12 = 2..A, suit 0..3 = c d h s.

NAIVE_CATEGORIES = (
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


def naive_straight_high(ranks):
    """High rank of a straight made by five ranks, or None (A-2-3-4-5 is five high, R18)."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct == [0, 1, 2, 3, 12]:
        return 3
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    return None


def naive_key5(cards):
    """Comparable tuple of five cards: (category, ranks that decide, in order) (R18).

    Groups are ordered by size then rank, so comparing the tuples compares
    the main groups first and then the kickers from highest down.
    """
    assert len(cards) == 5
    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]
    flush = len(set(suits)) == 1
    high = naive_straight_high(ranks)
    counts = Counter(ranks)
    by_group = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if flush and high is not None:
        return (8, high)
    if shape == [4, 1]:
        return (7, *by_group)
    if shape == [3, 2]:
        return (6, *by_group)
    if flush:
        return (5, *sorted(ranks, reverse=True))
    if high is not None:
        return (4, high)
    if shape == [3, 1, 1]:
        return (3, *by_group)
    if shape == [2, 2, 1]:
        return (2, *by_group)
    if shape == [2, 1, 1, 1]:
        return (1, *by_group)
    return (0, *by_group)


def naive_key(cards):
    """Key of the best five of 5 to 7 cards: the largest five-card key."""
    return max(naive_key5(five) for five in combinations(cards, 5))


def naive_best_five(cards):
    """(five, discards) as the evaluator documents it.

    Among five-card subsets with the largest key, keep the one whose card
    indices sorted descending are lexicographically largest. Both parts are
    returned in descending index order.
    """
    best = max(
        combinations(cards, 5),
        key=lambda five: (naive_key5(five), sorted(five, reverse=True)),
    )
    five = sorted(best, reverse=True)
    rest = sorted((c for c in cards if c not in five), reverse=True)
    return five, rest


def naive_exposed_key(cards):
    """Comparable tuple of 0 to 4 exposed cards under R11.

    (category, group ranks then single ranks from highest down, padded with
    -1 so that a missing card ranks below any card). Categories: 0 no pair,
    1 pair, 2 two pair, 3 three of a kind, 4 four of a kind. Suits, straights
    and flushes never count.
    """
    counts = Counter(c // 4 for c in cards)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    sizes = sorted(counts.values(), reverse=True)
    if 4 in sizes:
        cat = 4
    elif 3 in sizes:
        cat = 3
    elif sizes.count(2) == 2:
        cat = 2
    elif 2 in sizes:
        cat = 1
    else:
        cat = 0
    return (cat, *order, *([-1] * (4 - len(order))))


# ===================== end of hand evaluator twins ====================


# =====================================================================
# Low evaluator twins (anaconda_sim.hands.low): R23
# =====================================================================


def naive_low_key5(cards):
    """Comparable tuple of five cards for ace-to-five low: **smaller is better** (R23).

    Ranks with the ace as 1 (2..13 for two..king); suits never count.
    (group sizes from the largest down, then the group ranks, larger groups
    first and higher ranks first): no pair (1, 1, 1, 1, 1) < pair
    (2, 1, 1, 1) < two pair (2, 2, 1) < trips (3, 1, 1) < full house (3, 2)
    < quads (4, 1), then the highest group first, then the next.
    """
    assert len(cards) == 5
    ranks = [1 if c // 4 == 12 else c // 4 + 2 for c in cards]
    counts = Counter(ranks)
    shape = tuple(sorted(counts.values(), reverse=True))
    by_group = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (shape, *by_group)


def naive_best_low(cards):
    """Key of the best low five of 5 to 7 cards: the smallest five-card key."""
    return min(naive_low_key5(five) for five in combinations(cards, 5))


def naive_low_classes():
    """One five-card hand per distinct low: every multiset of five ranks (at most four of a
    rank), copy ``j`` of a rank in suit ``j``. Their keys are the distinct lows."""
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) <= 4:
            hands.append([4 * r + ranks[:i].count(r) for i, r in enumerate(ranks)])
    return hands


# ====================== end of low evaluator twins =====================


# =====================================================================
# Hi-lo split twin (anaconda_sim.hands.hilo.split_hilo): R24, R25
# =====================================================================


def naive_split_hilo(high, low, declarations, active, dealer, pot):
    """(payouts, failed swingers) of a hi-lo pot, written from the rule text.

    ``declarations[s]`` is "high", "low" or "both". A swinger must win or tie
    both sides against every other declarer of each side, else wins nothing
    and is left out (if every seat fails its swing, nobody is left out). The
    high half is the larger one; a half is split among its tied best hands,
    odd chips one each clockwise from the dealer's left.
    """
    n = len(high)
    seats = [s for s in range(n) if active[s]]
    highs = [s for s in seats if declarations[s] in ("high", "both")]
    lows = [s for s in seats if declarations[s] in ("low", "both")]
    failed = [
        s for s in seats if declarations[s] == "both"
        and (any(high[o] > high[s] for o in highs) or any(low[o] > low[s] for o in lows))
    ]  # fmt: skip
    if len(failed) == len(seats):
        failed = []
    highs = [s for s in highs if s not in failed]
    lows = [s for s in lows if s not in failed]
    halves = {"high": pot - pot // 2, "low": pot // 2}
    if not lows:
        halves = {"high": pot, "low": 0}
    if not highs:
        halves = {"high": 0, "low": pot}
    payouts = [0] * n
    clockwise = [(dealer + 1 + i) % n for i in range(n)]
    for side, contenders, values in (("high", highs, high), ("low", lows, low)):
        if not halves[side]:
            continue
        best = max(values[s] for s in contenders)
        winners = [s for s in clockwise if s in contenders and values[s] == best]
        share, odd = divmod(halves[side], len(winners))
        for i, s in enumerate(winners):
            payouts[s] += share + (1 if i < odd else 0)
    return payouts, failed


# ====================== end of hi-lo split twin ========================


def all_five_card_hands() -> np.ndarray:
    """Every five-card hand once: ascending card indices, rows in
    lexicographic order, a (2,598,960, 5) int8 array."""
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8)
    return flat.reshape(-1, 5)
