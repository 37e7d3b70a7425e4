"""The reveal order of ``"learned"`` read off what it shows the table: the
show table.

A field that reads the board reads each seat's exposed cards by their
exposure bucket (:func:`~.winprob.exposure_bucket`: R11 groups, and
four-card draws once four are shown). So what an order of the kept five
tells the table is the bucket each prefix shows: after the first card
nothing (one card is no group, R11), after the second a pair or nothing,
after the third trips, a pair or nothing, after the fourth any bucket (the
fifth card is never shown before the showdown, R9). Against such a field
two orders that show the same buckets in the same rounds are worth the
same, whatever the cards.

The show table (:data:`~.params.SHOW_SHAPE`) scores each: with the kept
five in own-strength bucket ``own`` (:data:`~.winprob.OWN_BUCKET`), an
order showing ``b2``, ``b3`` and ``b4`` after reveal rounds 2, 3 and 4
scores

    ``S[own, 0, b2] + S[own, 1, b3] + S[own, 2, b4]``

and the order of best score is played (ties: the first in the order of
:func:`~.play.order_learned`: the five sorted by card index, the hidden card
outer, the four shown in ``itertools.permutations`` order inner). The table
is fitted to best responses against the field
(:mod:`anaconda_sim.learning.showfit`): what hiding strength, showing it
early or late, or showing a draw is worth to a hand of each strength.

Of the 24 orders of a shown four only those showing different buckets
after rounds 2 and 3 can score differently, and which they are follows
from the pattern of equal ranks among the four (:func:`_show_candidates`:
one to four orders), so a decision scores at most 20 orders, not 120.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..._numba import jit
from ...hands.evaluator import KEY_BIAS, card_key, eval5, value_of_key5
from ...hands.lookup import CATEGORY_START, VALUE_RANK_COUNTS
from ...limits import HAND_SIZE, KEPT_SIZE
from ...rng import rand_float
from ...table import views as V
from ..sensible import discard_best_five
from .params import (
    EXPOSURE_BUCKETS,
    KEEP0,
    KEEP_BOUND0,
    KEEP_SHOW,
    KEEP_SIZE,
    KEEP_TAU,
    OWN_BUCKETS,
    SHOW0,
    SHOW_BEST0,
    SHOW_CLASSES,
    SHOW_ROUNDS,
    SHOW_SHAPE,
    SHOW_SIZE,
    SHOW_TAU,
)
from .play import sort_five, stack_float64s, stack_int64s, write_order
from .winprob import OWN_BUCKET, exposure_bucket, straight_draw

__all__ = [
    "FIVE_SHOW_CLASS",
    "SHOW_CLASS_BUCKET",
    "SUIT_STATE",
    "SUIT_STATES",
    "best_show_by_class",
    "discard_shown",
    "fill_discard_tables",
    "keep_prior",
    "order_shown",
    "show_buckets",
    "show_features",
    "show_prior",
    "shown_bucket4",
]

#: rank index of a ten: a pair of tens or better is exposure bucket 4, a lower one 3
_TEN = 8
#: the exposure bucket of three of a rank (R11 trips)
_TRIPS = 6


def _show_candidates() -> tuple[np.ndarray, np.ndarray]:
    """The orders of a shown four that can show different buckets after
    reveal rounds 2 and 3, for each pattern of equal neighbours among the
    four in ascending order (bit 0: the first two ranks equal, bit 1: the
    middle two, bit 2: the last two).

    What the first two show is a pair of some rank or nothing, what the first
    three show trips, a pair of some rank or nothing; two orders that agree
    on both (as ranks, named by the position of one of their cards among the
    four) show the same buckets. Of each such class only the first
    permutation is kept, in permutation order. Returns ``(rows, counts)``:
    candidate ``k`` of pattern ``e`` is ``rows[e, k] = (p, pos2, kind3,
    pos3)``: the permutation, the position of the pair shown by the first
    two (-1: none), what the first three show (0 nothing, 1 a pair, 3
    trips) and the position of a card of that group (-1: none)."""
    rows = np.full((8, 24, 4), -1, dtype=np.int64)
    counts = np.zeros(8, dtype=np.int64)
    for pattern in range(8):
        label = [0]  # a label per position of the sorted four: equal labels, equal ranks
        for bit in range(3):
            label.append(label[-1] + (0 if (pattern >> bit) & 1 else 1))
        seen: set[tuple[int, int, int]] = set()
        for p, perm in enumerate(itertools.permutations(range(4))):
            first = [label[i] for i in perm]
            pos2 = perm[0] if first[0] == first[1] else -1
            three = first[:3]
            top = max(set(three), key=three.count)
            kind3 = {1: 0, 2: 1, 3: 3}[three.count(top)]
            pos3 = perm[three.index(top)] if kind3 else -1
            key = (-1 if pos2 < 0 else label[pos2], kind3, -1 if pos3 < 0 else label[pos3])
            if key not in seen:
                seen.add(key)
                rows[pattern, counts[pattern]] = (p, pos2, kind3, pos3)
                counts[pattern] += 1
    return rows, counts


_CANDIDATES, _CANDIDATE_COUNTS = _show_candidates()
assert _CANDIDATE_COUNTS.max() <= 4

#: suit states of a five: no four of one suit, all five of one suit, then
#: ``2 + h``: the four other than card ``h`` (of the five sorted by card)
#: of one suit
SUIT_STATES = 7


def _suit_states() -> np.ndarray:
    """The suit state of a five by the code of its suits (two bits a card,
    the five sorted by card, the first card's suit lowest)."""
    suits = (np.arange(4**KEPT_SIZE)[:, None] >> (2 * np.arange(KEPT_SIZE))) & 3
    all_five = (suits == suits[:, :1]).all(axis=1)
    out = np.where(all_five, 1, 0).astype(np.uint8)
    for h in range(KEPT_SIZE):
        rest = np.delete(suits, h, axis=1)
        out[(rest == rest[:, :1]).all(axis=1) & ~all_five] = 2 + h
    return out


#: :data:`SUIT_STATES` by the code of a five's suits (a byte table of 1,024)
SUIT_STATE = _suit_states()

#: categories whose fives are of one suit: the flush and the straight flush
_FLUSH_CATEGORIES = (5, 8)


def _shown_bucket4_of_ranks(q: np.ndarray, suited: np.ndarray) -> np.ndarray:
    """:func:`shown_bucket4` of four shown ranks ``q`` ``(n, 4)``, ascending,
    for whole arrays; ``suited``: the four are of one suit."""
    e01, e12, e23 = q[:, 0] == q[:, 1], q[:, 1] == q[:, 2], q[:, 2] == q[:, 3]
    pair = [np.where(q[:, i] >= _TEN, 4, 3) for i in range(3)]
    span = q[:, 3] - q[:, 0]
    draw = (span == 3) | (span == 4) | ((q[:, 3] == 12) & (q[:, 2] <= 3))
    return np.select(
        [e01 & e12 & e23, (e01 & e12) | (e12 & e23), e01 & e23, e01, e12, e23, suited, draw],
        [7, _TRIPS, 5, pair[0], pair[1], pair[2], 2, 1],
        default=0,
    )


def _candidate_buckets(q: np.ndarray) -> np.ndarray:
    """The buckets ``(b2, b3)`` shown after reveal rounds 2 and 3 by each of
    :func:`_candidate_scores`'s candidates of four shown ranks ``q`` ``(n,
    4)``, ascending, as bits: bit ``8 * b2 + b3``."""
    pattern = (q[:, 0] == q[:, 1]) + 2 * (q[:, 1] == q[:, 2]) + 4 * (q[:, 2] == q[:, 3])
    rows = np.arange(len(q))
    out = np.zeros(len(q), dtype=np.int64)
    for k in range(_CANDIDATE_COUNTS.max()):
        _, pos2, kind3, pos3 = _CANDIDATES[pattern, k].T
        b2 = np.where(pos2 < 0, 0, np.where(q[rows, pos2] >= _TEN, 4, 3))
        b3 = np.where(kind3 == 3, _TRIPS, np.where(q[rows, pos3] >= _TEN, 4, 3))
        b3 = np.where(kind3 == 0, 0, b3)
        present = k < _CANDIDATE_COUNTS[pattern]
        out |= np.where(present, np.int64(1) << (8 * b2 + b3), 0)
    return out


def _five_show_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The show class of every five by its hand value and suit state, each
    class's own bucket, and each class's ``(b2, b3, b4)`` candidates.

    A five's best show score (the best of :func:`_candidate_scores`) depends
    only on its own bucket and on the buckets each of its candidates shows
    after reveal rounds 2, 3 and 4: those follow from the five's ranks (its
    hand value says them, and whether it is of one suit) and from which four
    of it, if any, are of one suit (its suit state). Of the 7,463 x 7 pairs
    only 30 classes differ; a pair no five has (a flush state of a
    non-flush value, a suited four holding a pair) is class 0 and never
    read. Returns ``(classes, buckets, candidates)``: ``classes`` a byte
    per ``value * SUIT_STATES + state``, ``buckets`` ``(SHOW_CLASSES,)``,
    ``candidates`` ``(SHOW_CLASSES, 20, 3)`` padded with -1."""
    values = np.arange(len(VALUE_RANK_COUNTS))
    counts = (VALUE_RANK_COUNTS[:, None] >> (4 * np.arange(13))[None, :]) & 15
    cumulative = np.cumsum(counts, axis=1)
    ranks = np.stack([(cumulative > t).argmax(axis=1) for t in range(KEPT_SIZE)], axis=1)
    category = np.searchsorted(CATEGORY_START, values, side="right") - 1
    flush = np.isin(category, _FLUSH_CATEGORIES)
    fours = [np.delete(ranks, h, axis=1) for h in range(KEPT_SIZE)]
    masks = [_candidate_buckets(four) for four in fours]
    keys = np.zeros((len(values), SUIT_STATES, KEPT_SIZE), dtype=np.int64)
    feasible = np.zeros((len(values), SUIT_STATES), dtype=bool)
    for state in range(SUIT_STATES):
        for h, four in enumerate(fours):
            suited = np.full(len(values), state == 1 or state == 2 + h)
            keys[:, state, h] = masks[h] * 8 + _shown_bucket4_of_ranks(four, suited)
        distinct_four = (np.diff(fours[state - 2], axis=1) > 0).all(axis=1) if state >= 2 else True
        feasible[:, state] = np.where(flush, state == 1, (state != 1) & distinct_four)
    feasible[0] = False  # value 0 is no hand
    # a class: the own bucket and the set of the five's candidate keys
    keys.sort(axis=2)
    keys[:, :, 1:] = np.where(np.diff(keys, axis=2) == 0, -1, keys[:, :, 1:])
    keys.sort(axis=2)
    bucket = np.broadcast_to(OWN_BUCKET.astype(np.int64)[:, None, None], (*keys.shape[:2], 1))
    rows = np.concatenate([bucket, keys], axis=2)[feasible]
    unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    classes = np.zeros((len(values), SUIT_STATES), dtype=np.uint8)
    classes[feasible] = inverse.ravel()
    candidates = np.full((len(unique), 4 * KEPT_SIZE, 3), -1, dtype=np.int64)
    for c, (_, *class_keys) in enumerate(unique.tolist()):
        found = [(bit // 8, bit % 8, key % 8) for key in class_keys if key >= 0
                 for bit in range(64) if (key // 8) >> bit & 1]  # fmt: skip
        candidates[c, : len(found)] = found
    return classes.ravel(), unique[:, 0].copy(), candidates


#: the show class (:data:`~.params.SHOW_CLASSES`) of a five by ``value *
#: SUIT_STATES + state``: its hand value and :data:`SUIT_STATE`
FIVE_SHOW_CLASS, SHOW_CLASS_BUCKET, _CLASS_CANDIDATES = _five_show_classes()
assert len(SHOW_CLASS_BUCKET) == SHOW_CLASSES


@jit(inline="always")
def _pair_bucket(rank):
    """The exposure bucket of a pair of ``rank`` (deuce 0 .. ace 12)."""
    return 4 if rank >= _TEN else 3


@jit(inline="always")
def shown_bucket4(c0, c1, c2, c3):
    """:func:`~.winprob.exposure_bucket` of four shown cards given in
    ascending order of card index (so of rank), read off their equal
    neighbours: the same bucket (``tests/learned/test_show.py`` checks every
    four)."""
    q0, q1, q2, q3 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2
    e01, e12, e23 = q0 == q1, q1 == q2, q2 == q3
    if e01 and e12 and e23:
        return 7
    if (e01 and e12) or (e12 and e23):
        return _TRIPS
    if e01 and e23:
        return 5
    if e01:
        return _pair_bucket(q0)
    if e12:
        return _pair_bucket(q1)
    if e23:
        return _pair_bucket(q2)
    s0 = c0 & 3
    if (c1 & 3) == s0 and (c2 & 3) == s0 and (c3 & 3) == s0:
        return 2
    return 1 if straight_draw(q0, q1, q2, q3) > 0 else 0


@jit(inline="always")
def _four_rank(c0, c1, c2, c3, i):
    return (c0 if i == 0 else (c1 if i == 1 else (c2 if i == 2 else c3))) >> 2


#: the most candidates of one kept five: at most 4 for each of the 5 hidden cards
_MAX_CANDIDATES = KEPT_SIZE * 4


@jit
def _candidate_scores(params, out, f, row, scores, which):
    """Score every candidate of the sorted five in ``out[f:f + 5]`` (module
    docstring), hidden card outer, each hidden card's candidates in
    permutation order: ``scores[k]`` the score of candidate ``k``,
    ``which[k]`` its hidden card times 24 plus its permutation. Returns how
    many. A kernel of its own, not inlined: the order and the discard call
    it, and an inlined copy in each would cost compile time."""
    r2, r3, r4 = row, row + EXPOSURE_BUCKETS, row + 2 * EXPOSURE_BUCKETS
    n = 0
    for h in range(KEPT_SIZE):
        # the shown four, ascending (shown card j is five card j + (j >= h))
        c0 = np.int64(out[f + (1 if h <= 0 else 0)])
        c1 = np.int64(out[f + (2 if h <= 1 else 1)])
        c2 = np.int64(out[f + (3 if h <= 2 else 2)])
        c3 = np.int64(out[f + (4 if h <= 3 else 3)])
        last = params[r4 + shown_bucket4(c0, c1, c2, c3)]
        q0, q1, q2, q3 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2
        pattern = np.int64(q0 == q1) + 2 * np.int64(q1 == q2) + 4 * np.int64(q2 == q3)
        for k in range(_CANDIDATE_COUNTS[pattern]):
            pos2 = _CANDIDATES[pattern, k, 1]
            kind3 = _CANDIDATES[pattern, k, 2]
            b2 = 0 if pos2 < 0 else _pair_bucket(_four_rank(c0, c1, c2, c3, pos2))
            b3 = 0
            if kind3 == 1:
                b3 = _pair_bucket(_four_rank(c0, c1, c2, c3, _CANDIDATES[pattern, k, 3]))
            elif kind3 == 3:
                b3 = _TRIPS
            scores[n] = (params[r2 + b2] + params[r3 + b3]) + last
            which[n] = h * 24 + _CANDIDATES[pattern, k, 0]
            n += 1
    return n


@jit(inline="always")
def _write_five(seven, i, j, out, f):
    """The five of the sorted ``seven`` other than cards ``i`` and ``j``,
    ascending, into ``out[f:f + 5]``."""
    k = 0
    for t in range(HAND_SIZE):
        if t != i and t != j:
            out[f + k] = seven[t]
            k += 1


@jit(inline="always")
def _first_best(scores, n):
    """The index of the first of the ``n`` best scores."""
    pick = 0
    for k in range(1, n):
        if scores[k] > scores[pick]:
            pick = k
    return pick


@jit(standalone=True)
def order_shown(params, out, value, rng):
    """Reorder the kept five in ``out[OUT_FIVE:OUT_FIVE + 5]``
    (:data:`~anaconda_sim.table.views.OUT_FIVE`) into a reveal order read
    off the show table (module docstring); ``value``: the five's hand value
    when known, else -1 (it is evaluated here).

    With the temperature ``tau`` (``params[SHOW_TAU]``) at 0 the order of
    best score is played. Above 0 a candidate (:func:`_show_candidates`,
    each hidden card's in turn) is drawn with probability proportional to
    ``exp((score - best) / tau)``, one uniform number from the seat's stream
    ``rng``: a field that mixes how it shows its hands, so that every
    sequence of buckets is seen in play and what the table reads into one is
    what it holds (a field that never shows a pair early would misread the
    seat that does). The candidates are scored once; the draw walks the
    running sum of their weights, in candidate order, to the first that
    exceeds the uniform number times their total (the last if rounding
    leaves it short)."""
    f = V.OUT_FIVE
    sort_five(out, f)
    if value < 0:
        value = eval5(out[f], out[f + 1], out[f + 2], out[f + 3], out[f + 4])
    row = SHOW0 + np.int64(OWN_BUCKET[value]) * (SHOW_ROUNDS * EXPOSURE_BUCKETS)
    scores = stack_float64s(_MAX_CANDIDATES)
    which = stack_int64s(_MAX_CANDIDATES)
    n = _candidate_scores(params, out, f, row, scores, which)
    pick = _first_best(scores, n)
    tau = params[SHOW_TAU]
    if tau > 0.0:
        best = scores[pick]
        total = 0.0
        for k in range(n):
            # the weight, in place of the score (the best's is exp(0), exactly 1)
            scores[k] = 1.0 if scores[k] == best else np.exp((scores[k] - best) / tau)
            total += scores[k]
        pick = _drawn(scores, n, total, rng)
    write_order(out, f, which[pick] // 24, which[pick] % 24)


@jit(inline="always")
def _drawn(weights, n, total, rng):
    """The first of the ``n`` ``weights`` whose running sum exceeds one
    uniform number from ``rng`` times their ``total`` (the last if rounding
    leaves it short)."""
    target = rand_float(rng) * total
    running = 0.0
    for k in range(n):
        running += weights[k]
        if running > target:
            return k
    return n - 1


#: the fives of a seven
_FIVES = 21


@jit(inline="always")
def _five_suits(suits7, i, j):
    """The suits' code of the five of a sorted seven other than its cards
    ``i < j``: the seven's code (two bits a card) with theirs cut out."""
    return ((suits7 & ((1 << (2 * i)) - 1))
            | ((suits7 >> (2 * i + 2)) & ((1 << (2 * (j - i - 1))) - 1)) << (2 * i)
            | (suits7 >> (2 * j + 2)) << (2 * j - 2))  # fmt: skip


@jit(inline="always")
def _show_class(value, suits7, i, j):
    """The show class of the five of a sorted seven other than its cards
    ``i < j``, its hand value ``value``, ``suits7`` the seven's suits' code."""
    return FIVE_SHOW_CLASS[value * SUIT_STATES + SUIT_STATE[_five_suits(suits7, i, j)]]


@jit(standalone=True)
def discard_shown(own, params, rng, out):
    """Discard two of the seven held and reveal the kept five (R8-R9) by the
    show array: each of the 21 fives scores ``K[own bucket] + w * m`` (the
    keep table ``K``, its show weight ``w`` and ``m`` the five's best show
    score, :func:`order_shown`'s); the five of best score is kept (ties: the
    higher hand value, then the first pair of discards in combinations order
    of the seven sorted by card index), or, with the keep temperature
    (``params[KEEP_TAU]``) above 0, drawn (:func:`_discard_drawn`); the
    discards into ``out[0:2]`` and the five into ``out[2:7]`` in the order
    :func:`order_shown` draws. Returns the kept five's hand value. From
    fewer than seven cards the best five are kept.

    A five's best show score ``m`` is not searched for: it is its show
    class's (:data:`FIVE_SHOW_CLASS`, by its value and suits), written in
    the array with the keep bounds (:func:`fill_discard_tables`), the same
    number bit for bit. A five is scored only when it can win: ``K + w *
    bound`` (the bucket's keep bound, with ``w >= 0``) is at least the score
    of every five it could beat, exactly in floating point (rounded addition
    and multiplication by ``w >= 0`` never decrease when an operand grows).
    With ``w = 0`` no show score is read: ``K + 0 * m`` is ``K`` for every
    finite ``m``."""
    n = own[V.O_NCARDS]
    if n != HAND_SIZE:
        value = discard_best_five(own, out, False)
        order_shown(params, out, value, rng)
        return value
    seven = stack_int64s(HAND_SIZE)
    for i in range(HAND_SIZE):
        x = np.int64(own[V.O_CARDS + i])
        j = i - 1
        while j >= 0 and seven[j] > x:
            seven[j + 1] = seven[j]
            j -= 1
        seven[j + 1] = x
    # each five's evaluator key and rank bits are the seven's less its two
    # discards', and its suits' code the seven's with theirs cut out
    keys, rank_bits = stack_int64s(HAND_SIZE), stack_int64s(HAND_SIZE)
    key7 = np.int64(KEY_BIAS)
    bits7 = suits7 = np.int64(0)
    for t in range(HAND_SIZE):
        keys[t] = card_key(seven[t])
        rank_bits[t] = np.int64(1) << (seven[t] >> 2)
        key7 += keys[t]
        bits7 += rank_bits[t]
        suits7 |= (seven[t] & 3) << (2 * t)
    if params[KEEP_TAU] > 0.0:
        return _discard_drawn(params, rng, out, seven, keys, rank_bits, key7, bits7, suits7)
    w = params[KEEP_SHOW]
    best = -np.inf
    best_value = np.int64(-1)
    best_i, best_j = 0, 1
    for i in range(HAND_SIZE):
        for j in range(i + 1, HAND_SIZE):
            value = value_of_key5(key7 - keys[i] - keys[j], bits7 - rank_bits[i] - rank_bits[j])
            bucket = np.int64(OWN_BUCKET[value])
            keep = params[KEEP0 + bucket]
            bound = keep + w * params[KEEP_BOUND0 + bucket]
            if bound < best or (bound == best and value <= best_value):
                continue
            if w == 0.0:  # the show score weighs nothing: it is not read
                score = keep
            else:
                score = keep + w * params[SHOW_BEST0 + _show_class(value, suits7, i, j)]
            if score > best or (score == best and value > best_value):
                best, best_value, best_i, best_j = score, value, i, j
    f = V.OUT_FIVE
    out[0], out[1] = seven[best_i], seven[best_j]
    _write_five(seven, best_i, best_j, out, f)
    order_shown(params, out, best_value, rng)
    return best_value


@jit(standalone=True)
def _discard_drawn(params, rng, out, seven, keys, rank_bits, key7, bits7, suits7):
    """:func:`discard_shown` at the keep temperature ``t = params[KEEP_TAU]
    > 0``: every five scored, each weighs ``exp((score - best) / t)`` (the
    best score's, exactly 1), and one uniform number from the seat's stream
    ``rng`` (drawn before the order's) picks the first five, in
    combinations order, whose running sum of weights exceeds it times their
    total (the last if rounding leaves it short): a field whose discard
    moves smoothly with its keep table. Fives of one show class have one
    score, so each class's weight is computed once."""
    w, tau = params[KEEP_SHOW], params[KEEP_TAU]
    scores = stack_float64s(_FIVES)
    classes, values, pairs = stack_int64s(_FIVES), stack_int64s(_FIVES), stack_int64s(_FIVES)
    best = -np.inf
    k = 0
    for i in range(HAND_SIZE):
        for j in range(i + 1, HAND_SIZE):
            value = value_of_key5(key7 - keys[i] - keys[j], bits7 - rank_bits[i] - rank_bits[j])
            show_class = _show_class(value, suits7, i, j)
            keep = params[KEEP0 + np.int64(OWN_BUCKET[value])]
            score = keep if w == 0.0 else keep + w * params[SHOW_BEST0 + show_class]
            scores[k], classes[k], values[k], pairs[k] = score, show_class, value, i * 8 + j
            best = max(best, score)
            k += 1
    weights = stack_float64s(SHOW_CLASSES)
    for c in range(SHOW_CLASSES):
        weights[c] = -1.0
    total = 0.0
    for k in range(_FIVES):
        c = classes[k]
        if weights[c] < 0.0:
            weights[c] = 1.0 if scores[k] == best else np.exp((scores[k] - best) / tau)
        scores[k] = weights[c]  # the weight, in place of the score
        total += scores[k]
    pick = _drawn(scores, _FIVES, total, rng)
    pick_i, pick_j = pairs[pick] >> 3, pairs[pick] & 7
    f = V.OUT_FIVE
    out[0], out[1] = seven[pick_i], seven[pick_j]
    _write_five(seven, pick_i, pick_j, out, f)
    order_shown(params, out, values[pick], rng)
    return values[pick]


def best_show_by_class(show_table: np.ndarray) -> np.ndarray:
    """The best show score of each show class (:data:`FIVE_SHOW_CLASS`)
    under a show table (flat, :data:`~.params.SHOW_SIZE`): the score of its
    best candidate, summed as :func:`_candidate_scores` sums it, so it is
    the best of a five's candidate scores bit for bit (the best of equal
    sums in another order is the same number).

    Examples
    --------
    Under the prior (each order scored by how little it tells), a class
    whose every four holds a pair or two shows at least a low pair (-1.0)
    by the fourth card; a full house or quads shows trips (-3.0) or more:

    >>> best = best_show_by_class(show_prior())
    >>> len(best), float(best.max()), float(best.min())
    (30, -0.0, -4.25)
    """
    table = np.asarray(show_table, dtype=np.float64).reshape(SHOW_SHAPE)[SHOW_CLASS_BUCKET]
    b2, b3, b4 = np.moveaxis(_CLASS_CANDIDATES, 2, 0)
    classes = np.arange(SHOW_CLASSES)[:, None]
    scores = (table[classes, 0, b2] + table[classes, 1, b3]) + table[classes, 2, b4]
    return np.where(b2 >= 0, scores, -np.inf).max(axis=1)


def fill_discard_tables(params: np.ndarray) -> None:
    """Write what the discard derives from the show table in ``params``:
    each show class's best show score (:data:`~.params.SHOW_BEST0`,
    :func:`best_show_by_class`) and each own bucket's keep bound
    (:data:`~.params.KEEP_BOUND0`), the best of its classes' scores, so no
    five of the bucket scores more (:func:`discard_shown`)."""
    best = best_show_by_class(params[SHOW0 : SHOW0 + SHOW_SIZE])
    params[SHOW_BEST0 : SHOW_BEST0 + SHOW_CLASSES] = best
    bounds = np.full(OWN_BUCKETS, -np.inf)
    np.maximum.at(bounds, SHOW_CLASS_BUCKET, best)
    params[KEEP_BOUND0 : KEEP_BOUND0 + OWN_BUCKETS] = bounds


def keep_prior() -> np.ndarray:
    """The keep table a fit starts from (:data:`~.params.KEEP_SIZE`): the
    own bucket's index and a show weight of 0, so the best five are kept
    (buckets rise with the hand's value, ties go to the higher value).

    Examples
    --------
    >>> keep_prior().tolist()[-3:]
    [10.0, 11.0, 0.0]
    """
    out = np.append(np.arange(OWN_BUCKETS, dtype=np.float64), 0.0)
    assert out.size == KEEP_SIZE
    return out


@jit
def _show_buckets(orders, out):
    for i in range(orders.shape[0]):
        o = orders[i]
        for k in range(SHOW_ROUNDS):
            out[i, k] = exposure_bucket(o[0], o[1], o[2], o[3], 2 + k)


def show_buckets(orders: np.ndarray) -> np.ndarray:
    """The exposure buckets each reveal order shows after reveal rounds 2, 3
    and 4: ``(n, 3)`` int64 for ``orders`` ``(n, 5)`` (card indices, the
    last hidden).

    Examples
    --------
    >>> from anaconda_sim.cards import parse_cards
    >>> show_buckets(np.array([parse_cards("Qs Qh 9c 9d 2c")])).tolist()
    [[4, 4, 5]]
    """
    orders = np.ascontiguousarray(orders, dtype=np.int64).reshape(-1, KEPT_SIZE)
    out = np.empty((len(orders), SHOW_ROUNDS), dtype=np.int64)
    _show_buckets(orders, out)
    return out


def show_features(orders: np.ndarray) -> np.ndarray:
    """One row of ``SHOW_ROUNDS * EXPOSURE_BUCKETS`` indicators per reveal
    order (``orders`` ``(..., 5)``): 1 at ``k * EXPOSURE_BUCKETS + b`` where the
    order shows bucket ``b`` after reveal round ``2 + k``. An order's score
    is these times the show table's row of its five's own bucket.

    Examples
    --------
    >>> from anaconda_sim.cards import parse_cards
    >>> np.flatnonzero(show_features(np.array(parse_cards("Qs Qh 9c 9d 2c")))).tolist()
    [4, 12, 21]
    """
    orders = np.asarray(orders)
    buckets = show_buckets(orders.reshape(-1, KEPT_SIZE))
    out = np.zeros((len(buckets), SHOW_ROUNDS * EXPOSURE_BUCKETS))
    rows = np.arange(len(buckets))
    for k in range(SHOW_ROUNDS):
        out[rows, k * EXPOSURE_BUCKETS + buckets[:, k]] = 1.0
    return out.reshape(*orders.shape[:-1], SHOW_ROUNDS * EXPOSURE_BUCKETS)


#: how much each exposure bucket tells the table, for the prior: nothing, a
#: straight draw, a flush draw, a low pair, a high pair, two pair, trips, quads
_TELLS = np.array([0.0, 0.25, 0.25, 1.0, 1.25, 2.0, 3.0, 4.0])


def show_prior() -> np.ndarray:
    """The show table a fit starts from (flat, :data:`~.params.SHOW_SIZE`):
    every hand shows as little as it can, as ``"sensible"``'s order does
    (the score falls with what each prefix tells, by R11 groups first).

    Examples
    --------
    >>> show_prior().reshape(SHOW_SHAPE)[0, 2].tolist()
    [-0.0, -0.25, -0.25, -1.0, -1.25, -2.0, -3.0, -4.0]
    """
    table = np.broadcast_to(-_TELLS, SHOW_SHAPE).copy()
    assert table.size == SHOW_SIZE and table.shape[0] == OWN_BUCKETS
    return table.ravel()
