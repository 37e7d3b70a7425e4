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

import itertools
import math
from typing import Any

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..._numba import jit
from ...hands.evaluator import eval_cards
from ...hands.sorting import sorted4
from ...limits import DECK_SIZE, HAND_SIZE, KEPT_SIZE
from ...rng import rand_float
from ...table import views as V
from ...table.rules import REVEAL_ROUNDS
from ..common import held_mask
from .params import (
    BET0,
    BLUFF,
    CALL0,
    GIFT_CONNECTED0,
    GIFT_HIGH0,
    GIFT_PAIR0,
    GIFT_SUITED0,
    KEPT_MULTISETS,
    KEPT_TABLE0,
    KEPT_TABLE_SIZE,
    N_KEPT,
    N_PASS,
    N_SHOWN,
    O0,
    O_EARLY_GROUPS,
    O_FIRST_RANK,
    PASS_STAMP0,
    PASS_TABLES_END,
    RAISE0,
    READS_MODE,
    W0,
    W_GIFT_HIGH,
)
from .passtables import PASS_DIVISORS, gift_numerators, kept_numerators
from .readbet import bet_reads
from .winprob import (
    OWN_BUCKET,
    exposure_bucket,
    mask_bucket,
    straight_draw,
    win_probability,
)

__all__ = [
    "bet_learned_at",
    "bet_learned_on",
    "learned_bucket",
    "lowest_bit",
    "order_features_of",
    "order_learned",
    "pass_features_of",
    "pass_learned",
    "passes_learned",
    "sort_five",
    "stack_float64s",
    "stack_int64s",
    "write_order",
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


#: ``i / 12`` (a rank's feature), read instead of divided (the same double:
#: one correctly rounded division)
_BY12 = np.arange(13) / 12.0


def _stack_slots(slot: types.Type, name: str, doc: str) -> Any:
    """An intrinsic ``name(size)``: a pointer to ``size`` (a constant) slots
    of numba type ``slot`` on the stack."""

    def stack(typingctx, size):
        if not isinstance(size, types.IntegerLiteral):
            return None

        def codegen(context, builder, sig, args):
            kind = context.get_value_type(slot)
            return cgutils.alloca_once(builder, kind, size=size.literal_value)

        return types.CPointer(slot)(size), codegen

    stack.__name__ = stack.__qualname__ = name
    stack.__doc__ = doc
    return intrinsic(prefer_literal=True)(stack)


stack_int64s = _stack_slots(types.int64, "stack_int64s", """A pointer to ``size`` (a
    constant) int64 slots on the stack, indexed like an array (``p[i]``, no
    bounds or wraparound). Not an array: the decisions also run in kernels
    compiled without numba's runtime, so nothing is allocated; a tuple read at
    a varying index compiles to a jump table; and numba lowers a pointer read
    to one load, an array read to many instructions (each costs compile
    time). Its slots start undefined.""")
stack_float64s = _stack_slots(types.float64, "stack_float64s",
                              """:func:`stack_int64s` for float64 slots.""")


@intrinsic
def lowest_bit(typingctx, mask):
    """The index of the lowest set bit of the uint64 ``mask`` (LLVM's
    ``cttz``: one instruction; 64 for an empty mask)."""
    if mask != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], cgutils.false_bit)

    return types.uint64(mask), codegen


def _kept_pieces() -> np.ndarray:
    """What a card of rank ``r`` at sorted position ``p`` of the seven adds to
    the kept four's :func:`~anaconda_sim.strategies.learned.passtables.kept_index`
    when ``below`` of the three passed lie below it, at ``(r * 7 + p) * 4 +
    below``: it is kept card ``t = p - below``, and adds ``C(r + t, t + 1)``
    (0 where no pass puts it there)."""
    pieces = np.zeros((13, HAND_SIZE, 4), dtype=np.int64)
    for r, p, below in itertools.product(range(13), range(HAND_SIZE), range(4)):
        t = p - below
        if 0 <= t <= 3:
            pieces[r, p, below] = math.comb(r + t, t + 1)
    return pieces.ravel()


#: the kept multiset's index is the sum of these pieces of the kept cards
_PIECES = _kept_pieces()
#: the pass features as whole numbers over their divisors, for scoring a
#: pass without the pass tables (flat: the kept four's by suit class and
#: multiset, the passed three's by gift code)
_NUMERATORS = np.concatenate([kept_numerators().ravel(), gift_numerators().ravel()])
_DIVISORS = np.array(PASS_DIVISORS)


@jit(standalone=True)
def pass_learned(own, params, out):
    """Pass the three of seven held cards whose pass scores best (written to
    ``out[0:3]`` in hand order): :func:`_pass_search`'s pass.

    Examples
    --------
    >>> from anaconda_sim.cards import parse_cards
    >>> from anaconda_sim.strategies import get_strategy
    >>> own = np.full(V.OWN_SIZE, -1, dtype=np.int32)
    >>> own[V.O_CARDS : V.O_CARDS + 7] = parse_cards("A♠ A♥ K♦ 9♣ 6♠ 4♥ 2♣")
    >>> own[V.O_NCARDS] = 7
    >>> out = np.empty(3, dtype=np.int64)
    >>> pass_learned(own, get_strategy("learned").param_array(6), out)
    >>> bool(passes_learned(own, get_strategy("learned").param_array(6), out))
    True
    """
    chosen = _pass_search(own, params, np.int64(-1))
    n = 0
    for i in range(HAND_SIZE):
        if (chosen >> (HAND_SIZE - 1 - i)) & 1:
            out[n] = own[V.O_CARDS + i]
            n += 1


@jit(standalone=True)
def passes_learned(own, params, packet):
    """Whether :func:`pass_learned`, holding ``own``'s seven cards, passes
    exactly the three cards of ``packet`` (in any order): the same answer
    as making the pass and comparing, but a pass another pass beats is
    refused at the first pass found to beat it (:func:`_pass_search`), so
    testing a packet that is not the pass (the posterior draws of the
    showdown model, :mod:`~anaconda_sim.sim.kernels.showdown`) costs a few
    of the 35 scores, not all of them. Three cards not all held: false."""
    key = np.int64(0)
    for j in range(3):
        for i in range(HAND_SIZE):
            if own[V.O_CARDS + i] == packet[j]:
                key |= np.int64(1) << (HAND_SIZE - 1 - i)
    found = np.int64(0)  # three distinct held cards make three bits
    bits = key
    while bits:
        bits &= bits - 1
        found += 1
    if found != 3:
        return False
    return _pass_search(own, params, key) == key


@jit(inline="always")
def _pass_score(params, tables, kept, code, high):
    """The score of the pass whose kept four have multiset-and-suit index
    ``kept``, whose passed three have gift code ``code`` and rank sum
    ``high`` (:func:`_pass_search`): read off the pass tables, else
    computed from the features, in the same order."""
    if tables:  # unsigned indices: no test for a negative one
        score = params[np.uint64(KEPT_TABLE0 + kept)]  # terms 0..7, then 8..11
        score += params[np.uint64(GIFT_PAIR0 + code)]
        score += params[np.uint64(GIFT_SUITED0 + code)]
        score += params[np.uint64(GIFT_CONNECTED0 + code)]
        score += params[np.uint64(GIFT_HIGH0 + high)]
        return score
    # terms computed, in the same order
    score = params[W0] * (_NUMERATORS[kept * N_KEPT] / _DIVISORS[0])
    gift = KEPT_TABLE_SIZE * N_KEPT + code * 3 - N_KEPT
    for f in range(1, N_PASS - 1):
        at = kept * N_KEPT + f if f < N_KEPT else gift + f
        score += params[W0 + f] * (_NUMERATORS[at] / _DIVISORS[f])
    score += params[W_GIFT_HIGH] * (high / _DIVISORS[N_PASS - 1])
    return score


@jit(inline="always")
def _pass_search(own, params, target):
    """The pass of best score among the 35 passes of ``own``'s seven cards,
    as the mask of its hand positions (``1 << (6 - position)`` each); with
    a ``target`` mask (0 or more), that mask when no pass beats that pass,
    else the first pass found to beat it.

    The same scores, added in the same order, as :func:`pass_features_of`, so
    the same pass, bit for bit, ties included. A pass's terms 0..7 depend
    only on the kept four's ranks and on whether three or four of them share
    a suit, and terms 8..11 on which of the passed three's pairs are of one
    suit, of one rank, or one or two ranks apart, and on their rank sum. A
    parameter array built with its pass tables
    (:func:`~anaconda_sim.strategies.learned.passtables.fill_pass_tables`, as
    :meth:`~anaconda_sim.strategies.Strategy.param_array` builds every
    learned one) holds the exact partial sum of terms 0..7 for every keep
    and each gift term's product, so a pass costs five reads and four
    additions; without them (or with pass weights changed after they were
    built) each term is computed from the feature's numerator and divisor
    (:func:`~.passtables.kept_numerators`), more slowly.

    The seven (distinct cards) are sorted by card, so by rank, with their
    hand positions, and the passes walked as nested loops over sorted
    positions ``i < j < k``.
    The kept four's multiset (:func:`~.passtables.kept_index`) is a sum of one
    piece per kept card (``_PIECES``), which depends only on the card's
    sorted position and on how many passed cards lie below it: the loops
    carry it as partial sums. Their suit class comes from their pairs of one
    suit: those of the seven, less those of each passed card, plus those
    among the passed three. The passed three's gift code
    (:func:`~.passtables.gift_code`) is the sum of the codes of their three
    pairs, kept at eight bits a card. Ties go to the first best pass in hand
    order: among equal scores, the pass with the largest mask of
    ``1 << (6 - position)`` (the masks of three positions compare as the
    positions do in ``itertools.combinations``): the pass is the greatest
    (score, mask), so the target is the pass exactly when no pass has a
    greater one. Its score is read first, at its own indices, the very
    numbers the loops reach it with; a score that is not a number leaves
    the search in full. Nothing is allocated (the simulator makes this
    decision for every seat of every deal)."""
    # the pass tables, if built for these weights (fill_pass_tables): long
    # enough, and the weights they were built from equal to the weights now
    tables = params.shape[0] >= PASS_TABLES_END
    for f in range(N_PASS if tables else 0):
        tables &= params[PASS_STAMP0 + f] == params[W0 + f]
    # the seven's fields, by sorted position (no loop in this kernel is
    # written out: each copy of a line costs compile time)
    rank, suit = stack_int64s(HAND_SIZE), stack_int64s(HAND_SIZE)
    order = stack_int64s(HAND_SIZE)  # 1 << (6 - hand position)
    # card * 8 + hand position, sorted: the cards by rank, with where they
    # were; the seven distinct cards are the bits of one word, read lowest
    # first (a sorting network's exchanges wait on each other's stores)
    where = stack_int64s(DECK_SIZE)
    cards = np.uint64(0)
    for p in range(HAND_SIZE):
        card = np.int64(own[V.O_CARDS + p])
        cards |= np.uint64(1) << np.uint64(card)
        where[card] = p
    for p in range(HAND_SIZE):
        card = np.int64(lowest_bit(cards))
        cards &= cards - np.uint64(1)
        rank[p] = card * 8 + where[card]
    # by sorted position: each card's fields; what it adds to the kept four's
    # multiset with none, one, two or three passed below it; and, for the
    # gift code of each pair, 8 bits a card in each card's word
    codes, same_suit = stack_int64s(HAND_SIZE), stack_int64s(HAND_SIZE)
    below_i, below_j = stack_int64s(HAND_SIZE), stack_int64s(HAND_SIZE)
    step_k, above_k = stack_int64s(HAND_SIZE), stack_int64s(HAND_SIZE)
    for p in range(HAND_SIZE):
        x = rank[p]
        rank[p], suit[p], order[p] = x >> 5, (x >> 3) & 3, 64 >> (x & 7)
        at = np.uint64((rank[p] * HAND_SIZE + p) * 4)  # unsigned: no wraparound test
        below_i[p], below_j[p] = _PIECES[at], _PIECES[at + np.uint64(1)]
        step_k[p], above_k[p] = _PIECES[at + np.uint64(2)], _PIECES[at + np.uint64(3)]
        codes[p] = same_suit[p] = 0
    # above_k[k]: the pieces of the cards above k (three passed below them);
    # step_k[k]: from k to k + 1, card k comes between the second and third
    # passed (two below it) and card k + 1 leaves the cards above
    above = three_above = np.int64(0)
    for p in range(HAND_SIZE - 1, 1, -1):
        three = above_k[p]
        above_k[p] = above
        step_k[p] -= three_above
        above += three
        three_above = three
    suited_pairs = np.int64(0)  # pairs of one suit, in all and of each card
    for x in range(HAND_SIZE):
        for y in range(x + 1, HAND_SIZE):
            suited = np.int64(suit[x] == suit[y])
            gap = rank[y] - rank[x]  # sorted: 0 or more
            code = suited + 4 * np.int64(gap == 0) + 16 * np.int64(1 <= gap <= 2)
            codes[x] += code << (8 * y)
            codes[y] += code << (8 * x)
            same_suit[x] += suited
            same_suit[y] += suited
            suited_pairs += suited
    best = -np.inf
    chosen = np.int64(64 + 32 + 16)  # hand positions 0, 1, 2 (kept if no score beats -inf)
    early = False
    if target >= 0:
        # the target's score from its sorted positions i < j < k: the sums
        # the loops carry, added up directly (whole numbers: the same ones)
        i = j = k = -1
        for p in range(HAND_SIZE):
            if target & order[p]:
                i, j, k = j, k, p
        kept = np.int64(0)
        for p in range(HAND_SIZE):
            if p < i:
                kept += below_i[p]
            elif i < p < j:
                kept += below_j[p]
            elif j < p < k:
                kept += step_k[p]
        kept += above_k[j + 1]
        code = ((codes[i] >> (8 * j)) & 63) + ((codes[i] >> (8 * k)) & 63) + (
            (codes[j] >> (8 * k)) & 63)  # fmt: skip
        kept_suited = suited_pairs - same_suit[i] - same_suit[j] - same_suit[k] + (code & 3)
        kept += ((kept_suited * 11) >> 5) * KEPT_MULTISETS
        score = _pass_score(params, tables, kept, code, rank[i] + rank[j] + rank[k])
        if score == score:  # a number: the greatest pass is the target or beats it
            best = score
            chosen = target
            early = True
    kept_i = np.int64(0)
    for i in range(HAND_SIZE - 2):
        codes_i = codes[i]
        kept_ij = kept_i
        for j in range(i + 1, HAND_SIZE - 1):
            codes_ijk = (codes_i + codes[j]) >> (8 * (j + 1))  # with k = j + 1 ..
            code_ij = (codes_i >> (8 * j)) & 63
            suited_ij = suited_pairs - same_suit[i] - same_suit[j]
            high_ij = rank[i] + rank[j]
            order_ij = order[i] + order[j]
            kept_ijk = kept_ij + above_k[j + 1]
            for k in range(j + 1, HAND_SIZE):
                code = (codes_ijk & 63) + code_ij
                codes_ijk >>= 8
                # the kept four's pairs of one suit: 0, 1, 2, 3 (three
                # suited) or 6 (four suited); times 11, over 32: the class
                kept_suited = suited_ij - same_suit[k] + (code & 3)
                kept = kept_ijk + ((kept_suited * 11) >> 5) * KEPT_MULTISETS
                score = _pass_score(params, tables, kept, code, high_ij + rank[k])
                if score >= best:
                    key = order_ij + order[k]
                    if score > best or key > chosen:
                        if early:  # a pass beats the target
                            return key
                        best = score
                        chosen = key
                kept_ijk += step_k[k]
            kept_ij += below_j[j]
        kept_i += below_i[i]
    return chosen


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


def _order_candidates() -> tuple[np.ndarray, np.ndarray, int]:
    """The orders of four shown cards that can score differently, for each
    pattern of equal neighbours among their ranks in ascending order (bit 0:
    the first two, bit 1: the middle two, bit 2: the last two).

    An order's score is ``(base + w_first * rank of the first shown / 12) +
    b[groups among the first three]``: two orders whose first cards are of
    one rank and whose first three hold as many equal pairs score the same,
    and the later never replaces the earlier (ties keep the first). So of the
    24 orders (``itertools.permutations``), only the first of each such
    class is scored: four with no two shown ranks equal, at most seven
    otherwise. Returns the candidates of pattern ``e`` as
    ``candidates[e * most + k] = order * 8 + groups`` for ``k`` below
    ``counts[e]``, and ``most``."""
    perms = list(itertools.permutations(range(4)))
    rows = []
    for pattern in range(8):
        rank = [0]  # a label per shown position: equal labels, equal ranks
        for bit in range(3):
            rank.append(rank[-1] + (0 if (pattern >> bit) & 1 else 1))
        seen, row = set(), []
        for p, (i0, i1, i2, _) in enumerate(perms):
            x0, x1, x2 = rank[i0], rank[i1], rank[i2]
            groups = 2 * (x0 == x1) + (x0 == x2) + (x1 == x2)
            if (x0, groups) not in seen:
                seen.add((x0, groups))
                row.append(p * 8 + groups)
        rows.append(row)
    most = max(len(row) for row in rows)
    candidates = np.zeros((8, most), dtype=np.int64)
    for pattern, row in enumerate(rows):
        candidates[pattern, : len(row)] = row
    return candidates.ravel(), np.array([len(row) for row in rows], dtype=np.int64), most


_CANDIDATES, _CANDIDATE_COUNTS, _MOST_CANDIDATES = _order_candidates()


@jit(inline="always")
def _shown_rank(five, start, h, j):
    """The rank of shown card ``j`` (0..3) when card ``h`` of
    ``five[start:start + 5]`` is hidden (shown card ``j`` is ``j + (j >= h)``)."""
    return np.int64(five[start + j + (1 if j >= h else 0)]) >> 2


@jit(inline="always")
def _pick5(i, x0, x1, x2, x3, x4):
    """``(x0, x1, x2, x3, x4)[i]`` without an array."""
    return x0 if i == 0 else (x1 if i == 1 else (x2 if i == 2 else (x3 if i == 3 else x4)))


#: the R11 category (0 none, 1 pair, 2 two pair, 3 trips, 4 quads) of four
#: ranks in order, by their equal neighbours (bit 0: the first two, bit 1:
#: the middle two, bit 2: the last two)
_CATEGORY_OF_EQUALS = np.array([0, 1, 1, 3, 1, 2, 3, 4], dtype=np.int64)


@jit(inline="always")
def _sorted_shown_features(five, start, h):
    """:func:`_shown_features` of ``five[start:start + 5]`` sorted by card
    (so by rank), read off the sorted ranks: the shown four are in order
    already, so their R11 category is their equal neighbours' and their
    draw is read only without a group (where
    :func:`~anaconda_sim.strategies.learned.winprob.exposure_bucket` reads
    it), with no exposed value and no sorting. The same five numbers
    (``tests/learned/test_decisions_exact.py`` checks every hidden card)."""
    hidden = np.int64(five[start + h])
    c0 = np.int64(five[start + (1 if h <= 0 else 0)])
    c1 = np.int64(five[start + (2 if h <= 1 else 1)])
    c2 = np.int64(five[start + (3 if h <= 2 else 2)])
    c3 = np.int64(five[start + (4 if h <= 3 else 3)])
    hr = hidden >> 2
    q0, q1, q2, q3 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2
    group = q0 == hr or q1 == hr or q2 == hr or q3 == hr
    equals = np.int64(q0 == q1) + 2 * np.int64(q1 == q2) + 4 * np.int64(q2 == q3)
    draw = False
    if equals == 0:  # four distinct ranks, ascending: suited, or four to a straight
        s0 = c0 & 3
        draw = ((c1 & 3) == s0 and (c2 & 3) == s0 and (c3 & 3) == s0) or straight_draw(
            q0, q1, q2, q3) > 0  # fmt: skip
    return (
        1.0 if group else 0.0, hr / 12.0, _CATEGORY_OF_EQUALS[equals] / 4.0,
        1.0 if draw else 0.0, (q0 + q1 + q2 + q3) / 48.0,
    )  # fmt: skip


@jit(inline="always")
def _hidden_bound(params, five, start, h, w_first, b_max):
    """With card ``h`` hidden: the score of the set shown (``base``) and a
    bound on the score of every order of it (module docstring of
    :func:`order_learned`)."""
    fs = _sorted_shown_features(five, start, h)
    base = 0.0
    for k in range(N_SHOWN):
        base += params[O0 + k] * fs[k]
    a_max = -np.inf
    for j in range(4):
        a_max = max(a_max, base + w_first * _BY12[_shown_rank(five, start, h, j)])
    return base, a_max + b_max


@jit(inline="always")
def sort_five(out, f):
    """Sort the five cards in ``out[f:f + 5]`` by card index, in place
    (insertion: five cards)."""
    for i in range(f + 1, f + KEPT_SIZE):
        x = out[i]
        j = i - 1
        while j >= f and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x


@jit(inline="always")
def write_order(out, f, h, p):
    """Write the order of the five sorted by card index in ``out[f:f + 5]``
    whose hidden card is ``h`` and whose four shown go in permutation ``p``
    (``itertools.permutations`` order) over them: the hidden card last, the
    shown ones moved right to left past it, then put in order."""
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


@jit(standalone=True)
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
    (a bound equal to the best still counts for an earlier hidden card).

    ``base`` is read off the sorted ranks (:func:`_sorted_shown_features`),
    and of a hidden card's 24 orders only the first of each class of equal
    scores is scored (:func:`_order_candidates`: four to seven), since a
    later order of equal score never replaces the first."""
    f = V.OUT_FIVE
    sort_five(out, f)
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
        # the shown ranks ascend: their equal neighbours say which orders
        # can score differently (_order_candidates)
        equals = np.int64(r0 == r1) + 2 * np.int64(r1 == r2) + 4 * np.int64(r2 == r3)
        for k in range(_CANDIDATE_COUNTS[equals]):
            candidate = _CANDIDATES[equals * _MOST_CANDIDATES + k]
            p, equal = candidate >> 3, candidate & 7
            i0 = _PERMUTATIONS4[p, 0]
            x0 = r0 if i0 == 0 else (r1 if i0 == 1 else (r2 if i0 == 2 else r3))
            a = base + w_first * _BY12[x0]
            b = b0 if equal == 0 else (b1 if equal == 1 else (b2 if equal == 2 else b4))
            score = a + b
            if score > best or (score == best and h < best_h):
                best, best_h, best_p = score, h, p
    write_order(out, f, best_h, best_p)


@jit
def bet_learned_at(pub, own, params, rng, bucket):
    """Betting intent of a ``"learned"`` seat whose own cards are in strength
    bucket ``bucket`` (:data:`~anaconda_sim.strategies.learned.winprob.OWN_BUCKET`), on
    its estimated probability of winning
    (:func:`~anaconda_sim.strategies.learned.winprob.win_probability`)."""
    if params[READS_MODE] != 0.0:
        return bet_reads(pub, own, params, rng, bucket)
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
    if n == HAND_SIZE:  # the seven held before the discard: their bit patterns
        return mask_bucket(held_mask(own))
    return np.int64(OWN_BUCKET[eval_cards(own[V.O_CARDS : V.O_CARDS + n], n)])
