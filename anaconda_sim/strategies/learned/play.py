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
    "bet_learned_on",
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


def _kept_rank_reads() -> np.ndarray:
    """By the 13-bit mask of some ranks: for four ranks, their straight draw
    (:func:`~anaconda_sim.strategies.learned.winprob.straight_draw`: 0 none,
    1 gutshot or one-ended, 2 open-ended); for one or two ranks, the higher
    (the top pair of four cards, whose paired ranks are one or two)."""
    table = np.zeros(1 << 13, dtype=np.int8)
    for mask in range(1 << 13):
        ranks = [r for r in range(13) if mask >> r & 1]
        if len(ranks) == 4:
            table[mask] = straight_draw.py_func(*ranks)
        elif 1 <= len(ranks) <= 2:
            table[mask] = ranks[-1]
    return table


#: one byte per mask, so the table stays in the first-level cache beside the
#: evaluator's
_KEPT_RANK_READ = _kept_rank_reads()
#: bit 0 of each of the 13 rank nibbles of a packed rank count
_NIBBLE_LOW = np.int64(0x1111111111111)


@jit(inline="always")
def _rank_mask(nibbles):
    """The 13-bit rank mask of packed nibble bits (bit 0 of each of the 13
    rank nibbles): the bits gathered by halving strides, without a loop."""
    x = (nibbles | (nibbles >> 3)) & np.int64(0x0303030303030303)
    x = (x | (x >> 6)) & np.int64(0x000F000F000F000F)
    x = (x | (x >> 12)) & np.int64(0x000000FF000000FF)
    return (x | (x >> 24)) & np.int64(0xFFFF)


#: ``i / d`` for the divisors of the features' scales, read instead of divided
#: (the same double: each is one correctly rounded division)
_BY48 = np.arange(49) / 48.0
_BY36 = np.arange(37) / 36.0
_BY12 = np.arange(13) / 12.0
_THIRDS = np.arange(4) / 3.0


@jit(inline="always")
def _close(x, y):
    """1 when ranks ``x`` and ``y`` are one or two apart, else 0."""
    gap = abs(x - y)
    return 1 if 1 <= gap <= 2 else 0


@jit
def pass_learned(own, params, out):
    """Pass the three of seven held cards whose pass scores best (written to
    ``out[0:3]`` in hand order).

    The same scores, added in the same order, as :func:`pass_features_of`
    (so the same pass, bit for bit), with the passes walked as nested loops
    (``a < b < c``) so what a pass shares with the one before is not
    recomputed, and every feature read without a loop: the kept four from
    packed rank and suit counts of the seven less the three passed (pairs
    and trips by bit masks; the straight draw of four distinct ranks or the
    top pair read from one byte table by a rank mask), what the three give
    from their ranks and suits, the features' divisions read from tables.
    Nothing is allocated (the simulator makes this decision for every seat
    of every deal)."""
    cards = own[V.O_CARDS : V.O_CARDS + HAND_SIZE]
    counts7 = np.int64(0)  # 4 bits of count per rank
    suits7 = np.int64(0)  # 4 bits of count per suit
    sum7 = np.int64(0)
    for i in range(HAND_SIZE):
        c = np.int64(cards[i])
        counts7 += np.int64(1) << (4 * (c >> 2))
        suits7 += np.int64(1) << (4 * (c & 3))
        sum7 += c >> 2
    w_pairs, w_trips, w_high = params[W_PAIRS], params[W_TRIPS], params[W_HIGH]
    w_pair_rank, w_flush4, w_flush3 = params[W_PAIR_RANK], params[W_FLUSH4], params[W_FLUSH3]
    w_open, w_gutshot = params[W_OPEN_STRAIGHT], params[W_GUTSHOT]
    w_gift_pair, w_gift_suited = params[W_GIFT_PAIR], params[W_GIFT_SUITED]
    w_gift_connected, w_gift_high = params[W_GIFT_CONNECTED], params[W_GIFT_HIGH]
    one = np.int64(1)
    best = -np.inf
    ba, bb, bc = 0, 1, 2
    for a in range(HAND_SIZE):
        ca = np.int64(cards[a])
        qa, ta = ca >> 2, ca & 3
        kc_a = counts7 - (one << (4 * qa))
        ks_a = suits7 - (one << (4 * ta))
        for b in range(a + 1, HAND_SIZE):
            cb = np.int64(cards[b])
            qb, tb = cb >> 2, cb & 3
            kc_ab = kc_a - (one << (4 * qb))
            ks_ab = ks_a - (one << (4 * tb))
            pair_ab = qa == qb
            suit_ab = ta == tb
            close_ab = _close(qa, qb)
            for c in range(b + 1, HAND_SIZE):
                cc = np.int64(cards[c])
                qc, tc = cc >> 2, cc & 3
                kc = kc_ab - (one << (4 * qc))
                ks = ks_ab - (one << (4 * tc))
                paired = ((kc >> 1) | (kc >> 2)) & _NIBBLE_LOW  # ranks kept 2+ times
                tripled = ((kc >> 2) | (kc & (kc >> 1))) & _NIBBLE_LOW  # 3+ times
                groups = (1 if paired != 0 else 0) + (1 if (paired & (paired - 1)) != 0 else 0)
                # four kept cards: a suit counted 4 has its nibble's bit 2 set,
                # one counted 3 bits 0 and 1
                four_suited = ((ks >> 2) & 0x1111) != 0
                three_suited = ((ks & (ks >> 1)) & 0x1111) != 0
                # four distinct ranks kept: their straight draw; else the top
                # pair (one table, read once)
                held = ((kc | (kc >> 1) | (kc >> 2)) & _NIBBLE_LOW) if groups == 0 else paired
                read = np.int64(_KEPT_RANK_READ[_rank_mask(held)])
                draw = read if groups == 0 else 0
                pair_rank = _BY12[read] if groups > 0 else 0.0
                gift_pair = 1.0 if (pair_ab or qb == qc or qa == qc) else 0.0
                suit_bc = tb == tc
                suited = 1.0 if (suit_ab and suit_bc) else (
                    0.5 if (suit_ab or suit_bc or ta == tc) else 0.0)  # fmt: skip
                close = close_ab + _close(qb, qc) + _close(qa, qc)
                # the terms in pass_features_of's order: the same sum, bit for bit
                score = w_pairs * float(groups)
                score += w_trips * (1.0 if tripled != 0 else 0.0)
                score += w_high * _BY48[sum7 - qa - qb - qc]
                score += w_pair_rank * pair_rank
                score += w_flush4 * (1.0 if four_suited else 0.0)
                score += w_flush3 * (1.0 if three_suited else 0.0)
                score += w_open * (1.0 if draw == 2 else 0.0)
                score += w_gutshot * (1.0 if draw == 1 else 0.0)
                score += w_gift_pair * gift_pair
                score += w_gift_suited * suited
                score += w_gift_connected * _THIRDS[close]
                score += w_gift_high * _BY36[qa + qb + qc]
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


@jit(inline="always")
def _shown_rank(five, start, h, j):
    """The rank of shown card ``j`` (0..3) when card ``h`` of
    ``five[start:start + 5]`` is hidden (shown card ``j`` is ``j + (j >= h)``)."""
    return np.int64(five[start + j + (1 if j >= h else 0)]) >> 2


@jit(inline="always")
def _pick5(i, x0, x1, x2, x3, x4):
    """``(x0, x1, x2, x3, x4)[i]`` without an array."""
    return x0 if i == 0 else (x1 if i == 1 else (x2 if i == 2 else (x3 if i == 3 else x4)))


@jit(inline="always")
def _hidden_bound(params, five, start, h, w_first, b_max):
    """With card ``h`` hidden: the score of the set shown (``base``) and a
    bound on the score of every order of it (module docstring of
    :func:`order_learned`)."""
    fs = _shown_features(five, start, h)
    base = 0.0
    for k in range(N_SHOWN):
        base += params[O0 + k] * fs[k]
    a_max = -np.inf
    for j in range(4):
        a_max = max(a_max, base + w_first * _BY12[_shown_rank(five, start, h, j)])
    return base, a_max + b_max


@jit
def order_learned(params, out):
    """Reorder the kept five in ``out[OUT_FIVE:OUT_FIVE + 5]``
    (:data:`~anaconda_sim.table.views.OUT_FIVE`) into the reveal order whose
    score (the order weights times :func:`order_features_of`) is best. The orders
    are tried with the five sorted by card index, the hidden card's
    position outer and the four shown in ``itertools.permutations`` order
    inner; the first best is kept.

    Not every order is scored. An order's score is ``(base + a) + b``:
    ``base`` from the hidden card and the set shown, ``a`` from the first
    card shown, ``b`` from the rank groups among the first three (five
    values). Rounded addition never decreases when an operand grows, so
    ``(base + max a) + max b`` bounds every order with that hidden card
    exactly, in floating point; the hidden cards are tried from the highest
    bound down, and one whose bound is below the best score found is not
    scored, nor any after it. The choice is today's first best, bit for bit
    (a bound equal to the best still counts for an earlier hidden card)."""
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
    w_first, w_early = params[O_FIRST_RANK], params[O_EARLY_GROUPS]
    # b for 0, 1, 2 and 4 equalities (the only counts three ranks give)
    b0 = w_early * (0 / 8.0)
    b1 = w_early * (1 / 8.0)
    b2 = w_early * (2 / 8.0)
    b4 = w_early * (4 / 8.0)
    b_max = max(max(b0, b1), max(b2, b4))
    # one inlined copy of the features in a loop (each copy costs compile time)
    base0 = base1 = base2 = base3 = base4 = 0.0
    bound0 = bound1 = bound2 = bound3 = bound4 = 0.0
    for h in range(KEPT_SIZE):
        base, bound = _hidden_bound(params, out, f, h, w_first, b_max)
        if h == 0:
            base0, bound0 = base, bound
        elif h == 1:
            base1, bound1 = base, bound
        elif h == 2:
            base2, bound2 = base, bound
        elif h == 3:
            base3, bound3 = base, bound
        else:
            base4, bound4 = base, bound
    best = -np.inf
    best_h, best_p = KEPT_SIZE, 0
    tried = 0  # bit h: hidden card h tried
    for _ in range(KEPT_SIZE):
        # the untried hidden card of highest bound (the first on equal bounds)
        h = -1
        bound = -np.inf
        for c in range(KEPT_SIZE):
            x = _pick5(c, bound0, bound1, bound2, bound3, bound4)
            if (tried >> c) & 1 == 0 and (h < 0 or x > bound):
                h, bound = c, x
        tried |= 1 << h
        if bound < best:
            break  # this bound and every one after it are below the best
        if bound == best and h > best_h:
            continue  # at most a tie, and the earlier hidden card keeps it
        base = _pick5(h, base0, base1, base2, base3, base4)
        r0, r1 = _shown_rank(out, f, h, 0), _shown_rank(out, f, h, 1)
        r2, r3 = _shown_rank(out, f, h, 2), _shown_rank(out, f, h, 3)
        a0 = base + w_first * _BY12[r0]
        a1 = base + w_first * _BY12[r1]
        a2 = base + w_first * _BY12[r2]
        a3 = base + w_first * _BY12[r3]
        for p in range(len(_PERMUTATIONS4)):
            i0 = _PERMUTATIONS4[p, 0]
            i1 = _PERMUTATIONS4[p, 1]
            i2 = _PERMUTATIONS4[p, 2]
            x0 = r0 if i0 == 0 else (r1 if i0 == 1 else (r2 if i0 == 2 else r3))
            x1 = r0 if i1 == 0 else (r1 if i1 == 1 else (r2 if i1 == 2 else r3))
            x2 = r0 if i2 == 0 else (r1 if i2 == 1 else (r2 if i2 == 2 else r3))
            a = a0 if i0 == 0 else (a1 if i0 == 1 else (a2 if i0 == 2 else a3))
            equal = np.int64(x0 == x1) + _equal3(x0, x1, x2)
            b = b0 if equal == 0 else (b1 if equal == 1 else (b2 if equal == 2 else b4))
            score = a + b
            if score > best or (score == best and h < best_h):
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
    return bet_learned_on(pub, own, params, rng, win_probability(pub, own, params, bucket))


@jit(inline="always")
def bet_learned_on(pub, own, params, rng, p):
    """Betting intent of a ``"learned"`` seat whose estimated probability of
    winning the pot is ``p`` (:func:`bet_learned_at`'s rule)."""
    r = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
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
