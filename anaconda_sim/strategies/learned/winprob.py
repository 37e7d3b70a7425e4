"""The win table of the ``"learned"`` family: how often a hand beats one rival,
by stage, by the hand's own strength and by what the rival shows.

A ``"learned"`` seat bets on its estimated probability of winning the pot
(:func:`win_probability`): the product, over the active rivals, of the
probability of beating each one,

    ``P(win) = prod_j q[stage, own bucket, exposure bucket of rival j]``,

an independence approximation (rivals' hands are nearly independent given
what they show). ``q`` is the win table (:data:`~.params.WIN_TABLE_SHAPE`),
learned by simulation (:func:`~anaconda_sim.learning.fit.estimate_win_table`,
from the tallies of :func:`tally_pairs`): complete deals in
which every seat plays the field's card play and nobody folds, counting, for
every ordered pair of seats and every stage, whether the first seat's final
hand beat the second's (a tie is half a win).

Stages: 0 before the pass (the seven dealt), 1 after it (seven held), 2-5
reveal rounds 1-4 (the kept five). Before the reveals nothing is shown
(exposure bucket 0).
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit
from ...hands.evaluator import eval5, eval7, exposed_value4, mask_groups
from ...hands.lookup import CATEGORY_START, VALUE_RANK_COUNTS
from ...hands.sorting import sorted4
from ...limits import HAND_SIZE
from ...table import views as V
from ...table.rules import REVEAL_ROUNDS
from .params import EXPOSURE_BUCKETS, OWN_BUCKETS, TABLE0, WIN_STAGES, WIN_TABLE_SHAPE

__all__ = [
    "OWN_BUCKET",
    "exposure_bucket",
    "exposure_bucket_read",
    "mask_bucket",
    "own_bucket_names",
    "seat_exposure",
    "straight_draw",
    "tally_pairs",
    "win_probability",
    "win_stage",
]

_TEN = 8  # rank index of a ten (deuce 0 .. ace 12)
_KING = 11
_JACK = 9


def _own_buckets() -> np.ndarray:
    """The strength bucket (0..11) of every hand value 0..7462."""
    values = np.arange(len(VALUE_RANK_COUNTS))
    category = np.searchsorted(CATEGORY_START, values, side="right") - 1
    counts = (VALUE_RANK_COUNTS[:, None] >> (4 * np.arange(13))[None, :]) & 15
    # rank of the largest group (the highest rank among equal groups)
    top_group = 12 - np.argmax((counts == counts.max(axis=1, keepdims=True))[:, ::-1], axis=1)
    top_card = 12 - np.argmax((counts > 0)[:, ::-1], axis=1)
    bucket = np.select(
        [
            category == 0,
            (category == 1) & (top_group < _TEN),
            category == 1,
            (category == 2) & (top_group < _TEN),
            category == 2,
            category == 3,
            category == 4,
            (category == 5) & (top_card < _KING),
            category == 5,
            (category == 6) & (top_group < _JACK),
            category == 6,
        ],
        list(range(11)),
        default=11,
    )
    bucket[0] = 0  # value 0 is no hand
    # one byte a value: the table (7,463 values) is read at every learned
    # seat's first bet on new cards, and a byte table stays in cache
    return bucket.astype(np.int8)


#: own strength bucket of a hand value: 0 high card, 1 pair below tens,
#: 2 pair of tens or better, 3 two pair topped below tens, 4 two pair topped
#: by tens or better, 5 trips, 6 straight, 7 flush to the queen or lower,
#: 8 king- or ace-high flush, 9 full house of trips below jacks, 10 full house
#: of jacks or better, 11 quads or a straight flush
OWN_BUCKET = _own_buckets()
assert OWN_BUCKET.max() == OWN_BUCKETS - 1


def own_bucket_names() -> list[str]:
    """Labels of the own-strength buckets, in order."""
    return ["high card", "pair 2-9", "pair T-A", "two pair 9 top", "two pair T-A top", "trips",
            "straight", "flush Q high", "flush K-A high", "full house 2-T", "full house J-A",
            "quads+"]  # fmt: skip


#: the rank sets below which a pair (tens), a flush's top card (king) and a
#: full house's trips (jacks) fall into the lower of their two buckets
_TENS_UP = np.uint64(0x1FFF) & ~np.uint64((1 << _TEN) - 1)
_KINGS_UP = np.uint64(0x1FFF) & ~np.uint64((1 << _KING) - 1)
_JACKS_UP = np.uint64(0x1FFF) & ~np.uint64((1 << _JACK) - 1)


@jit(inline="always")  # into learned_bucket: one call fewer a bet on new cards
def mask_bucket(mask):
    """The own-strength bucket (:data:`OWN_BUCKET`) of the 5, 6 or 7 cards of
    a hand mask (the :func:`~anaconda_sim.cards.bit_index` layout), from its
    category and rank sets (:func:`~anaconda_sim.hands.evaluator.mask_groups`)
    instead of the value: no evaluator table is read, so no cache miss. The
    best five's largest group and top card are the highest rank held twice
    (a pair or two pair), three times (a full house) or in the flush's suit,
    so the bucket's cuts are tests of those rank sets. ``OWN_BUCKET`` of the
    value on every seven-card hand (``tests/learned/test_winprob.py``).

    Examples
    --------
    >>> from anaconda_sim.cards import mask_from_cards
    >>> int(mask_bucket(mask_from_cards("Q♠ Q♥ 9♦ 9♣ 4♠ 3♥ 2♣")))  # two pair topped by queens
    4
    """
    category, two, three, flush = mask_groups(mask)
    if category == 0:
        return np.int64(0)
    if category == 1:
        return np.int64(2 if two & _TENS_UP else 1)
    if category == 2:
        return np.int64(4 if two & _TENS_UP else 3)
    if category == 5:
        return np.int64(8 if flush & _KINGS_UP else 7)
    if category == 6:
        return np.int64(10 if three & _JACKS_UP else 9)
    if category >= 7:
        return np.int64(11)
    return category + 2  # trips 5, a straight 6


@jit(inline="always")
def straight_draw(a, b, c, d):
    """0: no draw, 1: a gutshot or one-ended draw, 2: open-ended, for four
    distinct ranks ``a < b < c < d`` (deuce 0 .. ace 12; the ace also plays low)."""
    if d - a == 3:
        return 2 if d <= 11 else 1  # J-Q-K-A is one-ended
    if d - a == 4:
        return 1
    if d == 12 and c <= 3:  # the ace low: A-2-3-4 (one-ended), A-2-3-5, A-2-4-5, A-3-4-5
        return 1
    return 0


@jit(inline="always")
def exposure_bucket(c0, c1, c2, c3, shown):
    """What one rival's first ``shown`` (0..4) exposed cards read as: 0
    nothing, 1 four to a straight, 2 four suited, 3 a pair below tens, 4 a
    pair of tens or better, 5 two pair, 6 trips, 7 quads (R11 groups first;
    the draws only with four shown)."""
    xvalue = exposed_value4(c0, c1, c2, c3, shown)
    category = xvalue // 38416  # 14 ** 4: the exposed category (R11)
    if category == 0:
        if shown < 4:
            return 0
        if (c0 & 3) == (c1 & 3) and (c1 & 3) == (c2 & 3) and (c2 & 3) == (c3 & 3):
            return 2
        r0, r1, r2, r3 = sorted4(c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2)  # distinct: no pair
        if straight_draw(r0, r1, r2, r3) > 0:
            return 1
        return 0
    if category == 1:
        top = (xvalue % 38416) // 2744 - 1  # 14 ** 3: the pair's digit
        return 4 if top >= _TEN else 3
    return category + 3


#: a missing card's rank in :data:`EXPOSURE_BY_RANKS`' index
_NO_RANK = 13


def _exposure_by_ranks() -> np.ndarray:
    """:func:`exposure_bucket` of every four ranks (a missing card: rank
    13), the four-suited draw aside, as bytes at index ``((r0 * 14 + r1) *
    14 + r2) * 14 + r3``: R11 groups first, four to a straight only with
    four ranks shown and no group."""
    ranks = np.indices((14, 14, 14, 14)).reshape(4, -1).T
    counts = (ranks[:, :, None] == np.arange(13)[None, None, :]).sum(axis=1)
    most = counts.max(axis=1)
    pairs = (counts == 2).sum(axis=1)
    pair_rank = np.argmax(counts == 2, axis=1)
    low, high = ranks.min(axis=1), ranks.max(axis=1)
    third = np.sort(ranks, axis=1)[:, 2]
    straight = (high <= 12) & ((high - low <= 4) | ((high == 12) & (third <= 3)))
    bucket = np.select(
        [most == 4, most == 3, pairs == 2, (pairs == 1) & (pair_rank >= _TEN), pairs == 1,
         straight],
        [7, 6, 5, 4, 3, 1],
        default=0,
    )  # fmt: skip
    return bucket.astype(np.int8)


#: :func:`exposure_bucket` by the shown ranks (:func:`_exposure_by_ranks`)
EXPOSURE_BY_RANKS = _exposure_by_ranks()


@jit(inline="always")
def exposure_bucket_read(c0, c1, c2, c3, shown):
    """:func:`exposure_bucket`, the same number, read from a table of the
    shown ranks (:data:`EXPOSURE_BY_RANKS`, 38 KiB) instead of computed from
    the exposed value: the four-suited draw is the only thing left to test
    (``tests/learned/test_winprob.py`` checks every four cards, each count
    shown)."""
    i0 = (c0 >> 2) if shown > 0 else _NO_RANK
    i1 = (c1 >> 2) if shown > 1 else _NO_RANK
    i2 = (c2 >> 2) if shown > 2 else _NO_RANK
    i3 = (c3 >> 2) if shown > 3 else _NO_RANK
    bucket = np.int64(EXPOSURE_BY_RANKS[np.uint64(((i0 * 14 + i1) * 14 + i2) * 14 + i3)])
    if bucket < 3 and shown == 4:  # no group: four suited is read first
        if (c0 & 3) == (c1 & 3) and (c1 & 3) == (c2 & 3) and (c2 & 3) == (c3 & 3):
            return np.int64(2)
    return bucket


@jit(inline="always")
def seat_exposure(pub, seat, revealed):
    """The exposure bucket (:func:`exposure_bucket`) of what seat ``seat``
    shows on the table ``pub``, ``revealed`` (1..4) cards."""
    base = V.P_EXPOSED + 4 * seat
    c0, c1 = np.int64(pub[base]), np.int64(pub[base + 1])
    c2, c3 = np.int64(pub[base + 2]), np.int64(pub[base + 3])
    return exposure_bucket(c0, c1, c2, c3, revealed)


@jit(inline="always")
def win_stage(pub):
    """The win table's stage of the table ``pub``."""
    revealed = pub[V.P_REVEALED]
    if revealed > 0:
        return 1 + min(revealed, REVEAL_ROUNDS)
    return 0 if pub[V.P_STAGE] == 0 else 1


@jit(inline="always")
def win_probability(pub, own, params, bucket):
    """The estimated probability that the seat ``own`` with own-strength
    bucket ``bucket`` wins the pot: the product over active rivals of the win
    table's entries (module docstring)."""
    stage = win_stage(pub)
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    me = own[V.O_SEAT]
    row = TABLE0 + (stage * OWN_BUCKETS + bucket) * EXPOSURE_BUCKETS
    p = 1.0
    for seat in range(pub[V.P_PLAYERS]):
        if seat == me or pub[V.P_FOLDED + seat] != 0:
            continue
        e = seat_exposure(pub, seat, revealed) if revealed > 0 else 0
        p *= params[row + e]
    return p


@jit
def own_bucket_of(cards, n):
    """The own-strength bucket of ``n`` (5 or 7) cards."""
    if n == HAND_SIZE:
        value = eval7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6])
    else:
        value = eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
    return np.int64(OWN_BUCKET[value])


@jit
def tally_pairs(dealt, held, five, value, wins, pairs):
    """Add every ordered pair of seats of every deal into the tallies
    ``wins`` (half-wins: 2 a win, 1 a tie) and ``pairs`` (2 per pair), both
    :data:`~.params.WIN_TABLE_SHAPE`.

    ``dealt[d, s]``: the seven dealt; ``held[d, s]``: the seven held after
    the pass; ``five[d, s]``: the kept five in reveal order; ``value[d, s]``:
    the showdown value.
    """
    n_deals, n = value.shape
    for d in range(n_deals):
        for i in range(n):
            b0 = own_bucket_of(dealt[d, i], 7)
            b1 = own_bucket_of(held[d, i], 7)
            b5 = OWN_BUCKET[value[d, i]]
            for j in range(n):
                if j == i:
                    continue
                vi = value[d, i]
                vj = value[d, j]
                outcome = 2 if vi > vj else (1 if vi == vj else 0)
                wins[0, b0, 0] += outcome
                pairs[0, b0, 0] += 2
                wins[1, b1, 0] += outcome
                pairs[1, b1, 0] += 2
                for shown in range(1, REVEAL_ROUNDS + 1):
                    e = exposure_bucket(five[d, j, 0], five[d, j, 1], five[d, j, 2],
                                        five[d, j, 3], shown)  # fmt: skip
                    wins[1 + shown, b5, e] += outcome
                    pairs[1 + shown, b5, e] += 2


assert WIN_TABLE_SHAPE == (WIN_STAGES, OWN_BUCKETS, EXPOSURE_BUCKETS)
