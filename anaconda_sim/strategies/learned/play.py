"""The decisions of the ``"learned"`` strategy family, as numba kernels.

Both engines call them through :mod:`anaconda_sim.strategies`'s dispatch
(``builtin_pass``, ``builtin_bet``), so the reference engine and the batch
simulator play the family identically. The parameter vector is laid out in
:mod:`anaconda_sim.strategies.learned.params`.

Pass (R7): each of the 35 ways to pass three of seven cards is scored by
``w . features`` (:func:`pass_features_of`): features of the kept four
(groups, high cards, flush and straight draws) and of the three passed (what
they give the left neighbour); the best score is passed (ties: the first
pass in ``itertools.combinations`` order of hand positions).

Discard and reveal order (R8, R9, R11): keep the best five (in the showdown
model no other five does better), then of the 120 orders of the five take
the one whose score ``o . features`` (:func:`order_features_of`: what the
four shown cards and the hidden one tell the table) is best.

Betting (R13-R17): on the estimated probability of winning the pot
(:func:`~anaconda_sim.strategies.learned.winprob.win_probability`: the seat's own
strength bucket, the number of active rivals and what each shows, R11 groups
and four-card flush and straight draws, read off the win table learned by
simulation). Per round (before the reveals, reveal rounds 1-4): with no bet
to call, bet at ``bet_r``; facing one, raise at ``raise_r``, call when the
probability is at least ``call_r`` times the pot odds' break-even
``to_call / (pot + to_call)``, fold otherwise; a bluff frequency. Under the
hi-lo rules the family bets as ``"sensible"`` (it was learned for the high
game).
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit
from ...hands.evaluator import eval_cards
from ...hands.sorting import sorted4
from ...limits import HAND_SIZE, KEPT_SIZE
from ...rng import rand_float
from ...table import views as V
from ...table.rules import REVEAL_ROUNDS
from .params import (
    BET0,
    BLUFF,
    CALL0,
    N_PASS,
    N_SHOWN,
    O0,
    O_EARLY_GROUPS,
    O_FIRST_RANK,
    RAISE0,
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
from .winprob import OWN_BUCKET, exposure_bucket, straight_draw, win_probability

__all__ = [
    "bet_learned_at",
    "learned_bucket",
    "order_features_of",
    "order_learned",
    "pass_features_of",
    "pass_learned",
]


@jit(inline="always")
def _kept_features(k0, k1, k2, k3):
    """Features 0..7 of :data:`~.params.PASS_FEATURES` (the kept four)."""
    r0, r1, r2, r3 = sorted4(k0 >> 2, k1 >> 2, k2 >> 2, k3 >> 2)
    # groups of the sorted ranks: equal neighbours
    e01 = r0 == r1
    e12 = r1 == r2
    e23 = r2 == r3
    groups_2 = 0  # distinct paired ranks
    trips = 0.0
    pair_rank = -1
    if e01 and e12 and e23:  # quads
        groups_2, trips, pair_rank = 1, 1.0, r0
    elif e01 and e12:
        groups_2, trips, pair_rank = 1, 1.0, r0
    elif e12 and e23:
        groups_2, trips, pair_rank = 1, 1.0, r1
    else:
        if e01:
            groups_2 += 1
            pair_rank = r0
        if e12:
            groups_2 += 1
            pair_rank = r1
        if e23:
            groups_2 += 1
            pair_rank = r2
    s0, s1, s2, s3 = k0 & 3, k1 & 3, k2 & 3, k3 & 3
    suit_max = 1
    for s in range(4):
        count = (s0 == s) + (s1 == s) + (s2 == s) + (s3 == s)
        suit_max = max(suit_max, count)
    draw = 0
    if groups_2 == 0:
        draw = straight_draw(r0, r1, r2, r3)
    return (
        float(groups_2), trips, (r0 + r1 + r2 + r3) / 48.0,
        (pair_rank / 12.0) if pair_rank >= 0 else 0.0,
        1.0 if suit_max == 4 else 0.0, 1.0 if suit_max == 3 else 0.0,
        1.0 if draw == 2 else 0.0, 1.0 if draw == 1 else 0.0,
    )  # fmt: skip


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


@jit(inline="always")
def _pass_features(cards, a, b, c, kept):
    """The 12 features of passing positions ``a < b < c`` of seven ``cards``
    (``kept``: 4 slots of scratch for the cards kept)."""
    j = 0
    for i in range(HAND_SIZE):
        if i != a and i != b and i != c:
            kept[j] = cards[i]
            j += 1
    return _kept_features(np.int64(kept[0]), np.int64(kept[1]), np.int64(kept[2]),
                          np.int64(kept[3])) + _gift_features(
        np.int64(cards[a]), np.int64(cards[b]), np.int64(cards[c]))  # fmt: skip


@jit
def pass_features_of(cards, out):
    """The features of every pass of seven ``cards``: ``out[k]`` (35 rows of
    :data:`~anaconda_sim.strategies.learned.params.N_PASS`) for the k-th pass of hand
    positions ``a < b < c`` in ``itertools.combinations`` order."""
    k = 0
    kept = np.empty(4, dtype=np.int64)
    for a in range(HAND_SIZE):
        for b in range(a + 1, HAND_SIZE):
            for c in range(b + 1, HAND_SIZE):
                features = _pass_features(cards, a, b, c, kept)
                for f in range(N_PASS):
                    out[k, f] = features[f]
                k += 1


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
def pass_learned(own, params, out):
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
def _equal3(r0, r1, r2):
    """R11 category of three ranks: 0 none, 1 a pair, 3 trips."""
    e = np.int64(r0 == r1) + np.int64(r0 == r2) + np.int64(r1 == r2)
    return e


@jit(inline="always")
def _shown_features(five, start, h):
    """Features 0..4 of :data:`~anaconda_sim.strategies.learned.params.ORDER_FEATURES`
    when card ``h`` of ``five[start:start + 5]`` is hidden (the set of four
    shown, whatever their order; shown card ``j`` is ``j + (j >= h)``)."""
    hidden = np.int64(five[start + h])
    c0 = np.int64(five[start + (1 if h <= 0 else 0)])
    c1 = np.int64(five[start + (2 if h <= 1 else 1)])
    c2 = np.int64(five[start + (3 if h <= 2 else 2)])
    c3 = np.int64(five[start + (4 if h <= 3 else 3)])
    hr = hidden >> 2
    group = (c0 >> 2) == hr or (c1 >> 2) == hr or (c2 >> 2) == hr or (c3 >> 2) == hr
    # what the four shown read as to the table (R11 groups, four-card draws)
    board = exposure_bucket(c0, c1, c2, c3, 4)
    category = 0 if board < 3 else (1 if board < 5 else board - 3)  # R11: none .. quads
    high = (c0 >> 2) + (c1 >> 2) + (c2 >> 2) + (c3 >> 2)
    return (
        1.0 if group else 0.0, hr / 12.0, category / 4.0,
        1.0 if board == 1 or board == 2 else 0.0, high / 48.0,
    )  # fmt: skip


@jit(inline="always")
def _order_features(x0, x1, x2):
    """Features 5..6 (the first three shown, in order)."""
    r0, r1, r2 = np.int64(x0) >> 2, np.int64(x1) >> 2, np.int64(x2) >> 2
    return r0 / 12.0, (np.int64(r0 == r1) + _equal3(r0, r1, r2)) / 8.0


@jit
def order_features_of(order, out):
    """The :data:`~anaconda_sim.strategies.learned.params.N_ORDER` features of one
    reveal ``order`` of five cards (the last hidden), into ``out``."""
    shown = _shown_features(order, 0, KEPT_SIZE - 1)
    first = _order_features(order[0], order[1], order[2])
    for f in range(N_SHOWN):
        out[f] = shown[f]
    out[N_SHOWN] = first[0]
    out[N_SHOWN + 1] = first[1]


#: the 24 orders of four shown cards, in ``itertools.permutations`` order
_PERMUTATIONS4 = np.array(
    [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 1, 3], [0, 2, 3, 1], [0, 3, 1, 2], [0, 3, 2, 1],
     [1, 0, 2, 3], [1, 0, 3, 2], [1, 2, 0, 3], [1, 2, 3, 0], [1, 3, 0, 2], [1, 3, 2, 0],
     [2, 0, 1, 3], [2, 0, 3, 1], [2, 1, 0, 3], [2, 1, 3, 0], [2, 3, 0, 1], [2, 3, 1, 0],
     [3, 0, 1, 2], [3, 0, 2, 1], [3, 1, 0, 2], [3, 1, 2, 0], [3, 2, 0, 1], [3, 2, 1, 0]],
    dtype=np.int64,
)  # fmt: skip


@jit
def order_learned(params, out):
    """Reorder the kept five in ``out[OUT_FIVE:OUT_FIVE + 5]``
    (:data:`~anaconda_sim.table.views.OUT_FIVE`) into the reveal order whose
    score (the order weights times :func:`order_features_of`) is best. The orders
    are tried with the five sorted by card index, the hidden card's
    position outer and the four shown in ``itertools.permutations`` order
    inner; the first best is kept."""
    f = V.OUT_FIVE
    hide = KEPT_SIZE - 1  # the last of the five stays hidden
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
    # the chosen order, written over the sorted five: hidden card last, and
    # the shown ones moved right to left past it
    hidden = out[f + best_h]
    for i in range(best_h, hide):
        out[f + i] = out[f + 1 + i]
    out[f + hide] = hidden
    s0 = out[f + _PERMUTATIONS4[best_p, 0]]
    s1 = out[f + _PERMUTATIONS4[best_p, 1]]
    s2 = out[f + _PERMUTATIONS4[best_p, 2]]
    s3 = out[f + _PERMUTATIONS4[best_p, 3]]
    out[f], out[f + 1], out[f + 2], out[f + 3] = s0, s1, s2, s3


@jit
def bet_learned_at(pub, own, params, rng, bucket):
    """Betting intent of a ``"learned"`` seat whose own cards are in strength
    bucket ``bucket`` (:data:`~anaconda_sim.strategies.learned.winprob.OWN_BUCKET`), on
    its estimated probability of winning
    (:func:`~anaconda_sim.strategies.learned.winprob.win_probability`)."""
    r = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    p = win_probability(pub, own, params, bucket)
    bluff = params[BLUFF] > 0.0 and rand_float(rng) < params[BLUFF]
    seat = own[V.O_SEAT]
    to_call = pub[V.P_LEVEL] * pub[V.P_BET_SIZE] - pub[V.P_IN_ROUND + seat]
    if to_call <= 0:
        if p >= params[BET0 + r] or bluff:
            return V.INTENT_AGGRESSIVE
        return V.INTENT_PASSIVE
    if p >= params[RAISE0 + r] or bluff:
        return V.INTENT_AGGRESSIVE
    # the pot odds: calling to_call wins pot + to_call
    if p * (pub[V.P_POT] + to_call) >= params[CALL0 + r] * to_call:
        return V.INTENT_PASSIVE
    return V.INTENT_FOLD


@jit
def learned_bucket(own):
    """The own-strength bucket of the cards a seat holds (seven or five)."""
    n = own[V.O_NCARDS]
    return OWN_BUCKET[eval_cards(own[V.O_CARDS : V.O_CARDS + n], n)]
