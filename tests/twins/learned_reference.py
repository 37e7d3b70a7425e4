"""The "learned" family's pass and reveal-order kernels as they were before
they were made faster (anaconda_sim/strategies/learned/play.py): every one of
the 35 passes and 120 orders scored in full, the first best kept. The fast
kernels must choose exactly what these choose (tests/learned/test_decisions_exact.py);
these in turn match the plain feature twins (naive_learned.py, through
``pass_features_of``, which scores as they do)."""

from __future__ import annotations

import numpy as np

from anaconda_sim._numba import jit
from anaconda_sim.hands.evaluator import eval5
from anaconda_sim.limits import HAND_SIZE, KEPT_SIZE
from anaconda_sim.rng import rand_float
from anaconda_sim.strategies.learned.params import (
    EXPOSURE_BUCKETS,
    KEEP0,
    KEEP_SHOW,
    KEEP_TAU,
    N_SHOWN,
    O0,
    O_EARLY_GROUPS,
    O_FIRST_RANK,
    SHOW0,
    SHOW_ROUNDS,
    SHOW_TAU,
    W_FLUSH3,
    W_FLUSH4,
    W_GIFT_CONNECTED,
    W_GIFT_HIGH,
    W_GIFT_PAIR,
    W_GIFT_SUITED,
    W_GUTSHOT,
    W_HIGH,
    W_OPEN_STRAIGHT,
    W_PAIR_RANK,
    W_PAIRS,
    W_TRIPS,
)
from anaconda_sim.strategies.learned.play import _equal3, _shown_features
from anaconda_sim.strategies.learned.winprob import OWN_BUCKET, exposure_bucket, straight_draw
from anaconda_sim.table import views as V


@jit(inline="always")
def _gift_features(p0, p1, p2):
    """Features 8..11 (the passed three)."""
    q0, q1, q2 = p0 >> 2, p1 >> 2, p2 >> 2
    pair = 1.0 if (q0 == q1 or q1 == q2 or q0 == q2) else 0.0
    t0, t1, t2 = p0 & 3, p1 & 3, p2 & 3
    suited = 3 if (t0 == t1 and t1 == t2) else (2 if (t0 == t1 or t1 == t2 or t0 == t2) else 1)
    close = 0
    for x, y in ((q0, q1), (q1, q2), (q0, q2)):
        gap = abs(x - y)
        if 1 <= gap <= 2:
            close += 1
    return pair, (suited - 1) / 2.0, close / 3.0, (q0 + q1 + q2) / 36.0


def _straight_draws() -> np.ndarray:
    """:func:`~anaconda_sim.strategies.learned.winprob.straight_draw` of every 13-bit mask
    of exactly four ranks (0 otherwise)."""
    table = np.zeros(1 << 13, dtype=np.int64)
    for mask in range(1 << 13):
        ranks = [r for r in range(13) if mask >> r & 1]
        if len(ranks) == 4:
            table[mask] = straight_draw.py_func(*ranks)
    return table


#: the straight draw (0 none, 1 gutshot or one-ended, 2 open-ended) of four
#: distinct ranks, by their 13-bit rank mask
_STRAIGHT_DRAW = _straight_draws()
#: bit 0 of each of the 13 rank nibbles of a packed rank count
_NIBBLE_LOW = np.int64(0x1111111111111)


@jit(inline="always")
def _nibble_top(bits):
    """The rank (0..12) of the highest set nibble bit of ``bits`` (non-zero)."""
    top = 0
    for r in range(13):
        if (bits >> (4 * r)) & 1:
            top = r
    return top


@jit
def reference_pass(own, params, out):
    """Pass the three of seven held cards whose pass scores best (written to
    ``out[0:3]`` in hand order).

    The same scores as :func:`pass_features_of` (the features of the kept
    four come from packed rank and suit counts of the seven, less the three
    passed, instead of sorting each four), so the same pass; nothing is
    allocated (the simulator makes this decision for every seat of every deal)."""
    cards = own[V.O_CARDS : V.O_CARDS + HAND_SIZE]
    counts7 = np.int64(0)  # 4 bits of count per rank
    suits7 = np.int64(0)  # 4 bits of count per suit
    sum7 = np.int64(0)
    for i in range(HAND_SIZE):
        c = np.int64(cards[i])
        counts7 += np.int64(1) << (4 * (c >> 2))
        suits7 += np.int64(1) << (4 * (c & 3))
        sum7 += c >> 2
    best = -np.inf
    ba, bb, bc = 0, 1, 2
    for a in range(HAND_SIZE):
        ca = np.int64(cards[a])
        for b in range(a + 1, HAND_SIZE):
            cb = np.int64(cards[b])
            for c in range(b + 1, HAND_SIZE):
                cc = np.int64(cards[c])
                one = np.int64(1)
                kc = counts7 - (one << (4 * (ca >> 2))) - (one << (4 * (cb >> 2))) - (
                    one << (4 * (cc >> 2)))  # fmt: skip
                ks = suits7 - (one << (4 * (ca & 3))) - (one << (4 * (cb & 3))) - (
                    one << (4 * (cc & 3)))  # fmt: skip
                paired = ((kc >> 1) | (kc >> 2)) & _NIBBLE_LOW  # ranks held 2+ times
                tripled = ((kc >> 2) | (kc & (kc >> 1))) & _NIBBLE_LOW  # 3+ times
                groups = 0
                bits = paired
                while bits != 0:
                    bits &= bits - 1
                    groups += 1
                suit_max = max(max(ks & 15, (ks >> 4) & 15), max((ks >> 8) & 15, ks >> 12))
                draw = 0
                if groups == 0:
                    mask = 0
                    for i in range(HAND_SIZE):
                        if i != a and i != b and i != c:
                            mask |= 1 << (np.int64(cards[i]) >> 2)
                    draw = _STRAIGHT_DRAW[mask]
                pair_rank = _nibble_top(paired) / 12.0 if groups > 0 else 0.0
                g = _gift_features(ca, cb, cc)
                gift_pair, gift_suited, gift_connected, gift_high = g
                score = params[W_PAIRS] * float(groups)
                score += params[W_TRIPS] * (1.0 if tripled != 0 else 0.0)
                score += params[W_HIGH] * ((sum7 - (ca >> 2) - (cb >> 2) - (cc >> 2)) / 48.0)
                score += params[W_PAIR_RANK] * pair_rank
                score += params[W_FLUSH4] * (1.0 if suit_max == 4 else 0.0)
                score += params[W_FLUSH3] * (1.0 if suit_max == 3 else 0.0)
                score += params[W_OPEN_STRAIGHT] * (1.0 if draw == 2 else 0.0)
                score += params[W_GUTSHOT] * (1.0 if draw == 1 else 0.0)
                score += params[W_GIFT_PAIR] * gift_pair
                score += params[W_GIFT_SUITED] * gift_suited
                score += params[W_GIFT_CONNECTED] * gift_connected
                score += params[W_GIFT_HIGH] * gift_high
                if score > best:
                    best = score
                    ba, bb, bc = a, b, c
    out[0] = cards[ba]
    out[1] = cards[bb]
    out[2] = cards[bc]


@jit(inline="always")
def _order_features(x0, x1, x2):
    """Features 5..6 (the first three shown, in order)."""
    r0, r1, r2 = np.int64(x0) >> 2, np.int64(x1) >> 2, np.int64(x2) >> 2
    return r0 / 12.0, (np.int64(r0 == r1) + _equal3(r0, r1, r2)) / 8.0


#: the 24 orders of four shown cards, in ``itertools.permutations`` order
_PERMUTATIONS4 = np.array(
    [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 1, 3], [0, 2, 3, 1], [0, 3, 1, 2], [0, 3, 2, 1],
     [1, 0, 2, 3], [1, 0, 3, 2], [1, 2, 0, 3], [1, 2, 3, 0], [1, 3, 0, 2], [1, 3, 2, 0],
     [2, 0, 1, 3], [2, 0, 3, 1], [2, 1, 0, 3], [2, 1, 3, 0], [2, 3, 0, 1], [2, 3, 1, 0],
     [3, 0, 1, 2], [3, 0, 2, 1], [3, 1, 0, 2], [3, 1, 2, 0], [3, 2, 0, 1], [3, 2, 1, 0]],
    dtype=np.int64,
)  # fmt: skip


@jit(inline="always")
def _write_reference_order(out, f, h, p):
    """The order whose hidden card is ``h`` (of the five sorted by card index
    in ``out[f:f + 5]``) and whose shown four go in permutation ``p``,
    written over the sorted five: the hidden card last, the shown ones moved
    right to left past it, then put in order."""
    hide = KEPT_SIZE - 1
    hidden = out[f + h]
    for i in range(h, hide):
        out[f + i] = out[f + 1 + i]
    out[f + hide] = hidden
    s0 = out[f + _PERMUTATIONS4[p, 0]]
    s1 = out[f + _PERMUTATIONS4[p, 1]]
    s2 = out[f + _PERMUTATIONS4[p, 2]]
    s3 = out[f + _PERMUTATIONS4[p, 3]]
    out[f], out[f + 1], out[f + 2], out[f + 3] = s0, s1, s2, s3


@jit
def reference_order(params, out):
    """Reorder the kept five in ``out[OUT_FIVE:OUT_FIVE + 5]``
    (:data:`~anaconda_sim.table.views.OUT_FIVE`) into the reveal order whose
    score (the order weights times :func:`order_features_of`) is best. The orders
    are tried with the five sorted by card index, the hidden card's
    position outer and the four shown in ``itertools.permutations`` order
    inner; the first best is kept."""
    f = V.OUT_FIVE
    # sort the five by card index in place (insertion: five cards)
    for i in range(f + 1, f + KEPT_SIZE):
        x = out[i]
        j = i - 1
        while j >= f and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    best = -np.inf
    best_h, best_p = 0, 0
    for h in range(KEPT_SIZE):
        fs = _shown_features(out, f, h)
        base = 0.0
        for k in range(N_SHOWN):
            base += params[O0 + k] * fs[k]
        for p in range(len(_PERMUTATIONS4)):
            # shown card j is five[j + (j >= h)]
            i0 = _PERMUTATIONS4[p, 0]
            i1 = _PERMUTATIONS4[p, 1]
            i2 = _PERMUTATIONS4[p, 2]
            first = _order_features(out[f + i0 + (i0 >= h)], out[f + i1 + (i1 >= h)],
                                    out[f + i2 + (i2 >= h)])  # fmt: skip
            score = base + params[O_FIRST_RANK] * first[0] + params[O_EARLY_GROUPS] * first[1]
            if score > best:
                best, best_h, best_p = score, h, p
    _write_reference_order(out, f, best_h, best_p)


@jit
def reference_show_order(params, out, rng):
    """:func:`~anaconda_sim.strategies.learned.show.order_shown` scoring every
    one of the 120 orders, the buckets of each prefix read by
    ``exposure_bucket``: the five sorted by card index, the hidden card's
    position outer and the four shown in ``itertools.permutations`` order
    inner. An order is a candidate unless an earlier one with the same
    hidden card shows the same ranks grouped after two and three cards; at
    temperature 0 the first best candidate is kept, else one is drawn as
    documented."""
    f = V.OUT_FIVE
    for i in range(f + 1, f + KEPT_SIZE):
        x = out[i]
        j = i - 1
        while j >= f and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    value = eval5(out[f], out[f + 1], out[f + 2], out[f + 3], out[f + 4])
    row = SHOW0 + np.int64(OWN_BUCKET[value]) * SHOW_ROUNDS * EXPOSURE_BUCKETS
    scores = np.empty(120)
    hs = np.empty(120, dtype=np.int64)
    ps = np.empty(120, dtype=np.int64)
    n = 0
    shown = np.empty(4, dtype=np.int64)
    for h in range(KEPT_SIZE):
        keys = np.empty(24, dtype=np.int64)
        n_keys = 0
        for p in range(len(_PERMUTATIONS4)):
            for j in range(4):
                i = _PERMUTATIONS4[p, j]
                shown[j] = out[f + i + (i >= h)]
            q0, q1, q2 = shown[0] >> 2, shown[1] >> 2, shown[2] >> 2
            pair2 = q0 if q0 == q1 else -1
            size3, group = 0, -1
            if q0 == q1 and q1 == q2:
                size3, group = 3, q0
            elif q0 == q1 or q0 == q2:
                size3, group = 2, q0
            elif q1 == q2:
                size3, group = 2, q1
            key = (pair2 + 1) * 1000 + size3 * 100 + group + 1
            fresh = True
            for t in range(n_keys):
                if keys[t] == key:
                    fresh = False
            if not fresh:
                continue
            keys[n_keys] = key
            n_keys += 1
            b2 = exposure_bucket(shown[0], shown[1], shown[2], shown[3], 2)
            b3 = exposure_bucket(shown[0], shown[1], shown[2], shown[3], 3)
            b4 = exposure_bucket(shown[0], shown[1], shown[2], shown[3], 4)
            scores[n] = (params[row + b2] + params[row + EXPOSURE_BUCKETS + b3]) + params[
                row + 2 * EXPOSURE_BUCKETS + b4]  # fmt: skip
            hs[n], ps[n] = h, p
            n += 1
    chosen = 0
    for t in range(n):
        if scores[t] > scores[chosen]:
            chosen = t
    tau = params[SHOW_TAU]
    if tau > 0.0:
        best = scores[chosen]
        total = 0.0
        for t in range(n):
            total += np.exp((scores[t] - best) / tau)
        target = rand_float(rng) * total
        running = 0.0
        chosen = n - 1
        for t in range(n):
            running += np.exp((scores[t] - best) / tau)
            if running > target:
                chosen = t
                break
    _write_reference_order(out, f, hs[chosen], ps[chosen])


@jit
def reference_show_discard(own, params, rng, out):
    """:func:`~anaconda_sim.strategies.learned.show.discard_shown` with every
    five scored in full (no bound): the seven sorted by card index, the
    pairs of discards in combinations order, each five's best show score by
    :func:`reference_show_order`'s full enumeration; at keep temperature 0
    the best kept (ties: the higher hand value, then the first), above it
    one drawn with weight ``exp((score - best) / temperature)`` by walking
    the running sum past one uniform number times the total; then ordered
    by it."""
    seven = np.sort(own[V.O_CARDS : V.O_CARDS + HAND_SIZE].astype(np.int64))
    f = V.OUT_FIVE
    best = -np.inf
    best_value = -1
    best_i, best_j = 0, 1
    probe = np.zeros(KEPT_SIZE + f, dtype=np.int64)
    zero = params.copy()
    zero[SHOW_TAU] = 0.0
    scores = np.empty(21)
    pairs = np.empty((21, 2), dtype=np.int64)
    values = np.empty(21, dtype=np.int64)
    n = 0
    for i in range(HAND_SIZE):
        for j in range(i + 1, HAND_SIZE):
            k = 0
            for t in range(HAND_SIZE):
                if t != i and t != j:
                    probe[f + k] = seven[t]
                    k += 1
            value = eval5(probe[f], probe[f + 1], probe[f + 2], probe[f + 3], probe[f + 4])
            bucket = np.int64(OWN_BUCKET[value])
            # the best order's score: reorder a copy at temperature 0 and score it
            reference_show_order(zero, probe, rng)
            row = SHOW0 + bucket * SHOW_ROUNDS * EXPOSURE_BUCKETS
            c = probe[f:]
            b2 = exposure_bucket(c[0], c[1], c[2], c[3], 2)
            b3 = exposure_bucket(c[0], c[1], c[2], c[3], 3)
            b4 = exposure_bucket(c[0], c[1], c[2], c[3], 4)
            shown = (params[row + b2] + params[row + EXPOSURE_BUCKETS + b3]) + params[
                row + 2 * EXPOSURE_BUCKETS + b4]  # fmt: skip
            score = params[KEEP0 + bucket] + params[KEEP_SHOW] * shown
            scores[n], pairs[n, 0], pairs[n, 1], values[n] = score, i, j, value
            n += 1
            if score > best or (score == best and value > best_value):
                best, best_value, best_i, best_j = score, value, i, j
    tau = params[KEEP_TAU]
    if tau > 0.0:
        total = 0.0
        for t in range(21):
            total += np.exp((scores[t] - best) / tau)
        target = rand_float(rng) * total
        running = 0.0
        chosen = 20
        for t in range(21):
            running += np.exp((scores[t] - best) / tau)
            if running > target:
                chosen = t
                break
        best_i, best_j, best_value = pairs[chosen, 0], pairs[chosen, 1], values[chosen]
    out[0], out[1] = seven[best_i], seven[best_j]
    k = 0
    for t in range(HAND_SIZE):
        if t != best_i and t != best_j:
            out[f + k] = seven[t]
            k += 1
    reference_show_order(params, out, rng)
    return best_value
