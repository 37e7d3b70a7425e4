"""Strategies: the four decisions of a seat, as numba functions on its view.

The contract
------------
A strategy decides from what its seat may see (:mod:`anaconda_sim.game.views`)
and from its own random stream, nothing else. It is three numba functions::

    bet(pub, own, params, rng) -> int             # an INTENT_* code
    pass_cards(pub, own, params, rng, out)        # out[:pub[P_PASS_COUNT]] = cards
    discard(pub, own, params, rng, out)           # out[0:2] discards,
                                                  # out[2:7] the kept five in reveal order

``pub`` and ``own`` are int32 arrays (layout in :mod:`anaconda_sim.game.views`),
``params`` is a float64 array of the strategy's parameters, ``rng`` is the
seat's ``uint64[1]`` generator state (:mod:`anaconda_sim.rng`). A betting
decision returns an *intent* (fold / passive / aggressive) that
:func:`intent_to_action` turns into the legal action, so a strategy never has
to know the cap arithmetic and can never make an illegal bet.

Both engines call exactly these functions with identical arrays and
identical random streams (stream ``1 + seat`` of the deal), so the reference
engine and the batch simulator make the same decisions deal by deal.

Built-ins
---------
``"random"``
    Uniformly random legal play: random pass, random discard, random reveal
    order, a uniformly random legal betting action. For fuzzing.
``"call-down"``
    Sensible card play (below), never folds, never bets or raises: every
    deal it is dealt into reaches the showdown. Measures showdown equity.
``"random-pass"``
    Passes uniformly random cards, discards to the best five, never folds
    (checks and calls).
``"sensible"``
    Passes its lowest cards, keeping groups (pairs and better) and made
    flushes; discards to the best five; hides the card whose absence makes
    the four exposed cards weakest (R11); bets and raises with strong hands,
    folds hopeless ones, respects what opponents show. Parameters below.

Under the hi-lo rules (``pub[P_HILO]``, R21-R26) "sensible" card play
(also "call-down"'s, and "random-pass"'s discard) plans for the half its
cards are better at: the high plan's strength is the high category, the low
plan's is :func:`low_strength` (six-low 6 .. unpaired 1, paired 0), and the
low plan is taken only when strictly stronger. It then passes the cards
worst for its plan and keeps the best five for it (best high five or best
low five of the seven); "sensible" bets on the larger of the two strengths
(:func:`sensible_strength`) and declares by :func:`declare_by_strength`.
Play without ``P_HILO`` is unchanged.

A user strategy is the same three functions, compiled with ``numba.njit``,
given to :meth:`Strategy.custom`.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._numba import jit
from .game import views as V
from .hands.evaluator import (
    EXPOSED_FLOOR,
    best_five_into,
    best_five_of_sorted7,
    eval5,
    eval7,
    eval_cards,
    exposed_value_at,
    exposed_value_category,
    mask_category,
    value_category,
)
from .hands.low import LOW_CLASS_INFO, low5, low7, low_value_of
from .learned.params import (
    LEARNED_DEFAULTS,
    LEARNED_SLOTS,
    as_array,
    shipped_params,
    shipped_win_table,
)
from .learned.play import bet_learned_at, learned_bucket, order_learned, pass_learned
from .rng import card_bit, rand_below, rand_float

__all__ = [
    "BUILTIN_NAMES",
    "EXTRAS",
    "KIND_CALL_DOWN",
    "KIND_CUSTOM",
    "KIND_LEARNED",
    "KIND_RANDOM",
    "KIND_RANDOM_PASS",
    "KIND_SENSIBLE",
    "SENSIBLE_DEFAULTS",
    "SENSIBLE_PARAMS",
    "Strategy",
    "get_strategy",
    "intent_to_action",
    "kernel_extras",
    "parse_strategies",
    "short_spec",
]

KIND_RANDOM = 0
KIND_CALL_DOWN = 1
KIND_RANDOM_PASS = 2
KIND_SENSIBLE = 3
KIND_CUSTOM = 4
KIND_LEARNED = 5

#: slots of a strategy's parameter array (the "learned" family uses
#: ``LEARNED_SLOTS``: its named parameters and its win table)
PARAM_SLOTS = 640
assert LEARNED_SLOTS <= PARAM_SLOTS

#: Parameters of ``"sensible"`` (hand categories 0..8 as in the evaluator).
SENSIBLE_DEFAULTS: dict[str, float] = {
    # bet or raise with at least this category (6 = full house)
    "aggressive_at": 6.0,
    # before the reveals, fold to a bet with less than this (1 = a pair)
    "continue_early": 1.0,
    # during the reveals, fold to a bet with less than this (4 = a straight)
    "continue_late": 4.0,
    # 1: fold to a bet when an opponent's exposed cards alone beat our category
    "respect_exposed": 1.0,
    # probability of betting or raising anyway (a bluff)
    "bluff": 0.0,
}

# slots of "sensible"'s parameters in the array its kernels receive
SENSIBLE_AGGRESSIVE_AT = 0
SENSIBLE_CONTINUE_EARLY = 1
SENSIBLE_CONTINUE_LATE = 2
SENSIBLE_RESPECT_EXPOSED = 3
SENSIBLE_BLUFF = 4
#: "sensible"'s default parameters as the kernels' array (the "learned"
#: family bets with them under the hi-lo rules, which it was not learned for)
SENSIBLE_PARAMS = np.array(list(SENSIBLE_DEFAULTS.values()), dtype=np.float64)
assert list(SENSIBLE_DEFAULTS) == [
    "aggressive_at", "continue_early", "continue_late", "respect_exposed", "bluff",
]  # fmt: skip



# ---------------------------------------------------------------- helpers --
# The decision functions below run millions of times per second inside the
# batch simulator, so none of them allocates: they read the cards straight
# from ``own``/``pub``, keep small counts packed in integers, and use the
# caller's ``out`` array (at least 7 slots) as scratch space. Each is
# semantically identical to the plain version described in its docstring
# (``tests/test_strategies.py`` checks them against readable twins).


@jit(inline="always")
def intent_to_action(pub, own, intent):
    """The legal action (``A_*``) that carries out a betting intent (R3, R13).

    fold -> fold if facing a bet, else check; passive -> call or check;
    aggressive -> raise or bet, or call when the cap is reached.
    """
    seat = own[V.O_SEAT]
    to_call = pub[V.P_LEVEL] * pub[V.P_BET_SIZE] - pub[V.P_IN_ROUND + seat]
    if intent == V.INTENT_FOLD:
        return V.A_FOLD if to_call > 0 else V.A_CHECK
    if intent == V.INTENT_AGGRESSIVE and pub[V.P_LEVEL] < pub[V.P_MAX_LEVEL]:
        return V.A_RAISE if to_call > 0 else V.A_BET
    return V.A_CALL if to_call > 0 else V.A_CHECK


@jit(inline="always")
def _facing_bet(pub, own):
    return pub[V.P_LEVEL] * pub[V.P_BET_SIZE] > pub[V.P_IN_ROUND + own[V.O_SEAT]]


@jit(inline="always")
def hand_value(own):
    """Value of the cards a seat holds (best five of seven, or the kept five)."""
    n = own[V.O_NCARDS]
    b = V.O_CARDS
    if n == 7:
        return eval7(
            np.int64(own[b]), np.int64(own[b + 1]), np.int64(own[b + 2]), np.int64(own[b + 3]),
            np.int64(own[b + 4]), np.int64(own[b + 5]), np.int64(own[b + 6]),
        )  # fmt: skip
    if n == 5:
        return eval5(
            np.int64(own[b]), np.int64(own[b + 1]), np.int64(own[b + 2]), np.int64(own[b + 3]),
            np.int64(own[b + 4]),
        )  # fmt: skip
    return eval_cards(own[b : b + n], n)


@jit(inline="always")
def hand_category(own):
    """Category of the cards a seat holds: ``value_category(hand_value(own))``
    from their rank and suit bit patterns (:func:`mask_category`), without
    the evaluator's tables, whose lookups miss the cache in a deal loop."""
    mask = np.uint64(0)
    for i in range(own[V.O_NCARDS]):
        mask |= card_bit(own[V.O_CARDS + i])
    return mask_category(mask)


@jit
def _shuffle_prefix(out, start, n, k, rng):
    """Partial Fisher-Yates: ``out[start:start+k]`` become k distinct random
    cards of ``out[start:start+n]`` (the rest keep the remaining ones)."""
    for i in range(k):
        j = i + rand_below(rng, n - i)
        tmp = out[start + j]
        out[start + j] = out[start + i]
        out[start + i] = tmp


@jit(inline="always")
def _sorted7(x0, x1, x2, x3, x4, x5, x6):
    """Seven numbers in ascending order (a sorting network: branch-free min/max)."""
    x0, x6 = min(x0, x6), max(x0, x6)
    x2, x3 = min(x2, x3), max(x2, x3)
    x4, x5 = min(x4, x5), max(x4, x5)
    x0, x2 = min(x0, x2), max(x0, x2)
    x1, x4 = min(x1, x4), max(x1, x4)
    x3, x6 = min(x3, x6), max(x3, x6)
    x0, x1 = min(x0, x1), max(x0, x1)
    x2, x5 = min(x2, x5), max(x2, x5)
    x3, x4 = min(x3, x4), max(x3, x4)
    x1, x2 = min(x1, x2), max(x1, x2)
    x4, x6 = min(x4, x6), max(x4, x6)
    x2, x3 = min(x2, x3), max(x2, x3)
    x4, x5 = min(x4, x5), max(x4, x5)
    x1, x2 = min(x1, x2), max(x1, x2)
    x3, x4 = min(x3, x4), max(x3, x4)
    x5, x6 = min(x5, x6), max(x5, x6)
    return x0, x1, x2, x3, x4, x5, x6


@jit(inline="always")
def _best_five7_in_place(out):
    """:func:`best_five7_into` on the seven cards already in ``out[0:7]``;
    returns their value (that of the best five)."""
    x0, x1, x2, x3, x4, x5, x6 = _sorted7(out[0], out[1], out[2], out[3], out[4], out[5], out[6])
    # descending
    out[0] = x6
    out[1] = x5
    out[2] = x4
    out[3] = x3
    out[4] = x2
    out[5] = x1
    out[6] = x0
    return best_five_of_sorted7(out)


@jit
def best_five7_into(cards, out):
    """:func:`~anaconda_sim.hands.evaluator.best_five_into` for seven cards, same
    choice (among the best fives, the lexicographically largest in
    descending card order), without allocating or trying subsets
    (:func:`~anaconda_sim.hands.evaluator.best_five_of_sorted7`)."""
    for i in range(7):
        out[i] = cards[i]
    _best_five7_in_place(out)


# ------------------------------------------------------------------- pass --
@jit
def _pass_random(pub, own, rng, out):
    """``pub[P_PASS_COUNT]`` held cards chosen uniformly (partial Fisher-Yates
    over the held cards in hand order)."""
    n = own[V.O_NCARDS]
    for i in range(n):
        out[i] = own[V.O_CARDS + i]
    _shuffle_prefix(out, 0, n, pub[V.P_PASS_COUNT], rng)


@jit(inline="always")
def _pass_lowest_keys(pub, n, out):
    """The pass given sort keys ``out[0:n]`` (the card in each key's low 6
    bits): the ``pub[P_PASS_COUNT]`` lowest keys' cards, in ascending order of
    key, into ``out[0:count]`` (a partial selection sort)."""
    for k in range(pub[V.P_PASS_COUNT]):
        m = k
        for i in range(k + 1, n):
            if out[i] < out[m]:
                m = i
        key = out[m]
        out[m] = out[k]
        out[k] = key
    for k in range(pub[V.P_PASS_COUNT]):
        out[k] = out[k] & 63


@jit(inline="always")
def _pass_sensible(pub, own, out):
    """Pass the lowest-scoring cards: groups and made flushes score high.

    A card's score is ``32 * (cards of its rank held - 1) + rank``, plus 16
    when five or more cards of its suit are held; ``score * 64 + card``
    orders the cards strictly, and the lowest are passed in ascending order.
    """
    n = own[V.O_NCARDS]
    rank_counts = np.int64(0)  # 4 bits per rank
    suit_counts = np.int64(0)  # 4 bits per suit
    for i in range(n):
        c = np.int64(own[V.O_CARDS + i])
        rank_counts += np.int64(1) << (4 * (c >> 2))
        suit_counts += np.int64(1) << (4 * (c & 3))
    # the sort keys, in out[0:n] (the card is the key's low 6 bits)
    for i in range(n):
        c = np.int64(own[V.O_CARDS + i])
        r = c >> 2
        score = 32 * (((rank_counts >> (4 * r)) & 15) - 1) + r
        if ((suit_counts >> (4 * (c & 3))) & 15) >= 5:
            score += 16
        out[i] = score * 64 + c
    if n == 7:
        sorted7 = _sorted7(out[0], out[1], out[2], out[3], out[4], out[5], out[6])
        for k in range(pub[V.P_PASS_COUNT]):
            out[k] = sorted7[k] & 63
        return
    _pass_lowest_keys(pub, n, out)


# ---------------------------------------------------------------- discard --
@jit(inline="always")
def _rank_count(counts, card):
    return (counts >> (4 * (card >> 2))) & 15


@jit(inline="always")
def _order_hiding_most_telling(f0, f1, f2, f3, f4, out):
    """Write the five cards to ``out[2:7]`` in a reveal order that shows little.

    The hidden (last) card is the one whose absence leaves the weakest four
    exposed cards under R11 (ties: hide the higher card index). The four
    shown cards go singles first, low to high, then grouped cards, so the
    table learns of a pair as late as possible (sort key
    ``(count of its rank among the four * 16 + rank) * 64 + card``).

    R11 ranks four cards by their groups, then by rank, so the weakest four
    are left by hiding a card of the largest group (of the higher rank among
    equal groups): that breaks quads to trips, a full house's trips to two
    pair, trips to a pair, the higher pair of two pair, the pair of one pair,
    and otherwise removes the highest single. Among the cards of that rank
    the highest index is hidden. So the hidden card is the largest
    ``count * 64 + card``, with no four-card value computed
    (``tests/sim/test_strategies.py`` checks this on every five cards).
    """
    a = np.int64(f0)
    b = np.int64(f1)
    c = np.int64(f2)
    d = np.int64(f3)
    e = np.int64(f4)
    one = np.int64(1)
    counts = (one << (4 * (a >> 2))) + (one << (4 * (b >> 2))) + (one << (4 * (c >> 2)))
    counts += (one << (4 * (d >> 2))) + (one << (4 * (e >> 2)))
    hide = max(
        _rank_count(counts, a) * 64 + a, _rank_count(counts, b) * 64 + b,
        _rank_count(counts, c) * 64 + c, _rank_count(counts, d) * 64 + d,
        _rank_count(counts, e) * 64 + e,
    ) & 63  # fmt: skip
    shown = counts - (one << (4 * (hide >> 2)))
    # sort keys of the five; the hidden card's key is largest by far and
    # sorts last, so the network orders the four shown cards too
    big = np.int64(1) << 20
    k0 = (_rank_count(shown, a) * 16 + (a >> 2)) * 64 + a + big * np.int64(a == hide)
    k1 = (_rank_count(shown, b) * 16 + (b >> 2)) * 64 + b + big * np.int64(b == hide)
    k2 = (_rank_count(shown, c) * 16 + (c >> 2)) * 64 + c + big * np.int64(c == hide)
    k3 = (_rank_count(shown, d) * 16 + (d >> 2)) * 64 + d + big * np.int64(d == hide)
    k4 = (_rank_count(shown, e) * 16 + (e >> 2)) * 64 + e + big * np.int64(e == hide)
    k0, k1, k2, k3, k4 = _sorted5(k0, k1, k2, k3, k4)
    out[2] = k0 & 63
    out[3] = k1 & 63
    out[4] = k2 & 63
    out[5] = k3 & 63
    out[6] = hide


def reveal_order_hiding_most_telling(five: Sequence[int]) -> list[int]:
    """The reveal order of the built-in strategies for a kept ``five``
    (:func:`_order_hiding_most_telling`): the last card is hidden.

    Examples
    --------
    >>> from anaconda_sim.cards import format_cards, parse_cards
    >>> format_cards(reveal_order_hiding_most_telling(parse_cards("Qs Qh 9c 9d 2c")))
    '2c Qh 9c 9d Qs'
    """
    if len(five) != 5:
        raise ValueError(f"a reveal order has 5 cards, got {len(five)}")
    out = np.empty(7, dtype=np.int64)
    _order_hiding_most_telling(*(np.int64(c) for c in five), out)
    return [int(c) for c in out[2:]]


@jit(inline="always")
def _sorted5(x0, x1, x2, x3, x4):
    """Five numbers in ascending order (a sorting network: branch-free min/max)."""
    x0, x1 = min(x0, x1), max(x0, x1)
    x3, x4 = min(x3, x4), max(x3, x4)
    x2, x4 = min(x2, x4), max(x2, x4)
    x2, x3 = min(x2, x3), max(x2, x3)
    x0, x3 = min(x0, x3), max(x0, x3)
    x0, x2 = min(x0, x2), max(x0, x2)
    x1, x4 = min(x1, x4), max(x1, x4)
    x1, x3 = min(x1, x3), max(x1, x3)
    x1, x2 = min(x1, x2), max(x1, x2)
    return x0, x1, x2, x3, x4


@jit(inline="always")
def _discard_best_five(own, out, hide_telling):
    """Discard the two cards outside the best five; reveal order as
    :func:`_order_hiding_most_telling` when ``hide_telling``, else the five
    in descending card index order. Returns the kept five's value when it
    came with the choice (from seven cards), else -1."""
    n = own[V.O_NCARDS]
    value = np.int64(-1)
    if n == 7:
        for i in range(7):
            out[i] = own[V.O_CARDS + i]
        value = _best_five7_in_place(out)
    else:
        best_five_into(own[V.O_CARDS : V.O_CARDS + n], n, out)
    f0, f1, f2, f3, f4 = out[0], out[1], out[2], out[3], out[4]
    out[0] = out[5]
    out[1] = out[6]
    if hide_telling:
        _order_hiding_most_telling(f0, f1, f2, f3, f4, out)
    else:
        out[2] = f0
        out[3] = f1
        out[4] = f2
        out[5] = f3
        out[6] = f4
    return value


@jit
def _discard_random(own, rng, out):
    """Two held cards chosen uniformly to discard, then the other five in a
    uniformly random order (two partial Fisher-Yates shuffles)."""
    n = own[V.O_NCARDS]
    for i in range(n):
        out[i] = own[V.O_CARDS + i]
    _shuffle_prefix(out, 0, n, 2, rng)
    _shuffle_prefix(out, 2, n - 2, 5, rng)


# -------------------------------------------------------------------- bet --
@jit
def bet_random(pub, own, rng):
    """Betting intent of the ``"random"`` strategy: uniform over the legal kinds."""
    if _facing_bet(pub, own):
        choices = 3 if pub[V.P_LEVEL] < pub[V.P_MAX_LEVEL] else 2
        pick = rand_below(rng, choices)
        if pick == 0:
            return V.INTENT_FOLD
        return V.INTENT_PASSIVE if pick == 1 else V.INTENT_AGGRESSIVE
    return V.INTENT_PASSIVE if rand_below(rng, 2) == 0 else V.INTENT_AGGRESSIVE


@jit(inline="always")
def _strongest_exposed_category(pub, own):
    """Best R11 exposed category shown by any other active seat (0..4)."""
    best = 0
    me = own[V.O_SEAT]
    revealed = pub[V.P_REVEALED]
    for seat in range(pub[V.P_PLAYERS]):
        if seat == me or pub[V.P_FOLDED + seat] != 0:
            continue
        cat = exposed_value_category(exposed_value_at(pub, V.P_EXPOSED + 4 * seat, revealed))
        if cat > best:
            best = cat
    return best


@jit(inline="always")
def bet_sensible_at(pub, own, params, rng, strength):
    """:func:`_bet_sensible` for a seat whose hand category is ``strength``
    (the kernel computes it once per hand: a function of ``own`` only)."""
    bluff = params[SENSIBLE_BLUFF] > 0.0 and rand_float(rng) < params[SENSIBLE_BLUFF]
    if strength >= params[SENSIBLE_AGGRESSIVE_AT] or bluff:
        return V.INTENT_AGGRESSIVE
    if not _facing_bet(pub, own):
        return V.INTENT_PASSIVE
    late = pub[V.P_REVEALED] > 0
    needed = params[SENSIBLE_CONTINUE_LATE] if late else params[SENSIBLE_CONTINUE_EARLY]
    if strength < needed:
        return V.INTENT_FOLD
    if late and params[SENSIBLE_RESPECT_EXPOSED] > 0.0:
        if EXPOSED_FLOOR[_strongest_exposed_category(pub, own)] > strength:
            return V.INTENT_FOLD
    return V.INTENT_PASSIVE


@jit
def sensible_strength(pub, own):
    """The strength ``"sensible"`` bets on: the high category of the held
    cards (0..8); under the hi-lo rules (``pub[P_HILO]``) the larger of it and
    the low strength (:func:`low_strength`), since either half can win."""
    high = hand_category(own)
    if pub[V.P_HILO] == 0:
        return high
    return max(high, low_strength(low_hand_value(own)))


@jit(inline="always")
def _bet_sensible(pub, own, params, rng):
    return bet_sensible_at(pub, own, params, rng, sensible_strength(pub, own))


# ------------------------------------------------------------ hi-lo play --
# Under the hi-lo rules (R21-R26) low cards win half the pot, so "sensible"
# card play (also "call-down"'s, and "random-pass"'s discard) plans for the
# half its cards are better at. A plan's strength is on the high categories'
# scale (0 high card .. 8 straight flush): the high plan's is the high
# category, the low plan's is :func:`low_strength`; the low plan is taken
# only when it is strictly stronger (ties keep the high plan).


@jit(inline="always")
def low_strength(low):
    """Strength of low value ``low`` on the high categories' scale:
    6 for a six-low or better, 5 seven-low, 4 eight-low, 3 nine-low, 2
    ten-low, 1 any other unpaired low, 0 a paired low
    (thresholds :data:`LOW_STRENGTH_AT`)."""
    # the thresholds descend, so the strength is the number reached
    # (six comparisons and no branch to mispredict)
    v = np.int64(low)
    strength = np.int64(0)
    for k in range(LOW_STRENGTH_AT.shape[0]):
        strength += np.int64(v >= LOW_STRENGTH_AT[k])
    return strength


@jit(inline="always")
def _plans_low(own):
    low = low_strength(low_hand_value(own))
    if low == 0:  # a paired low is never the stronger plan
        return False
    return low > value_category(hand_value(own))


@jit
def plans_low(own):
    """True when the held cards' low plan is stronger than their high plan:
    ``low_strength(low) > high category``."""
    return _plans_low(own)


@jit
def _pass_sensible_hilo(pub, own, out):
    """The hi-lo pass: with the high plan (:func:`plans_low` false), the
    high pass of :func:`_pass_sensible`; with the low plan, pass the cards
    worst for a low: a card's score is ``64 + (12 - its ace-low rank)``
    (ace 0 .. king 12), less 16 for every card of its rank with a lower
    index held (so one card of each rank is kept, the others go first);
    ``score * 64 + card`` orders the cards strictly, and the lowest are
    passed in ascending order of that key.
    """
    if not _plans_low(own):
        _pass_sensible(pub, own, out)
        return
    n = own[V.O_NCARDS]
    held = np.int64(0)  # bit c: card c held (the cards of rank r are bits 4r..4r+3)
    for i in range(n):
        held |= np.int64(1) << np.int64(own[V.O_CARDS + i])
    for i in range(n):
        c = np.int64(own[V.O_CARDS + i])
        r = c >> 2
        low_rank = r + 1 if r < 12 else 0
        below = (held >> (4 * r)) & ((np.int64(1) << (c & 3)) - 1)  # its rank, lower index
        lower = (below & 1) + ((below >> 1) & 1) + ((below >> 2) & 1)
        out[i] = (64 + 12 - low_rank - 16 * lower) * 64 + c
    if n == 7:
        sorted7 = _sorted7(out[0], out[1], out[2], out[3], out[4], out[5], out[6])
        for k in range(pub[V.P_PASS_COUNT]):
            out[k] = sorted7[k] & 63
        return
    _pass_lowest_keys(pub, n, out)


@jit
def best_low_five_into(cards, n, out):
    """The best low five of ``n`` (5..7) cards into ``out[0:5]`` (in hand
    order), the others into ``out[5:n]`` (in hand order).

    Of the fives with the highest :func:`~anaconda_sim.hands.low.low5`
    value, the one whose kept positions come first in lexicographic order.
    With five or more ranks held that is the first held card of each of the
    five lowest ranks (ace low), found from a mask of the ranks held;
    otherwise every five is tried in that order.
    """
    seen = np.int64(0)  # bit r: ace-low rank r held
    for p in range(n):
        c = np.int64(cards[p])
        seen |= np.int64(1) << ((c >> 2) + 1 if (c >> 2) < 12 else 0)
    want = np.int64(0)  # the (up to) five lowest ranks held
    distinct = 0
    while seen != 0 and distinct < 5:
        lowest = seen & -seen
        want |= lowest
        seen ^= lowest
        distinct += 1
    keep = np.int64(0)  # bit p: position p kept
    for p in range(n):
        c = np.int64(cards[p])
        bit = np.int64(1) << ((c >> 2) + 1 if (c >> 2) < 12 else 0)
        if want & bit:  # the first held card of a wanted rank
            keep |= np.int64(1) << p
            want ^= bit
    if distinct < 5:
        best = np.int64(-1)
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    for d in range(c + 1, n):
                        for e in range(d + 1, n):
                            v = np.int64(low5(cards[a], cards[b], cards[c], cards[d], cards[e]))
                            if v > best:
                                best = v
                                keep = (np.int64(1) << a) | (np.int64(1) << b) | (
                                    np.int64(1) << c) | (np.int64(1) << d) | (np.int64(1) << e)
    k = 0
    rest = 5
    for p in range(n):
        if (keep >> p) & 1:
            out[k] = cards[p]
            k += 1
        else:
            out[rest] = cards[p]
            rest += 1


@jit
def _discard_hilo(own, out, hide_telling):
    """The hi-lo discard: keep the best high five (:func:`_discard_best_five`)
    unless the low plan is stronger (:func:`plans_low`), then the best low
    five (:func:`best_low_five_into`), discarding the two others; reveal
    order as for the high five."""
    if not _plans_low(own):
        _discard_best_five(own, out, hide_telling)
        return
    n = own[V.O_NCARDS]
    best_low_five_into(own[V.O_CARDS : V.O_CARDS + n], n, out)
    f0, f1, f2, f3, f4 = out[0], out[1], out[2], out[3], out[4]
    out[0] = out[5]
    out[1] = out[6]
    if hide_telling:
        _order_hiding_most_telling(f0, f1, f2, f3, f4, out)
    else:
        f0, f1, f2, f3, f4 = _sorted5(f0, f1, f2, f3, f4)
        out[2] = f4
        out[3] = f3
        out[4] = f2
        out[5] = f1
        out[6] = f0


# --------------------------------------------------------------- dispatch --
#: the value of a kernel's ``with_hilo`` or ``with_learned`` argument when the
#: table needs that code (:func:`kernel_extras`)
EXTRAS = True


def kernel_extras(hilo: bool, kinds: Iterable[int]) -> tuple[bool | None, bool | None]:
    """The ``with_hilo`` and ``with_learned`` arguments of the kernels for a
    table: :data:`EXTRAS` when it plays the hi-lo rules, or seats a
    ``"learned"`` strategy, else ``None``.

    The kernels test ``with_hilo is None`` and ``with_learned is None``
    wherever hi-lo or "learned" code would run. numba settles such a test
    when it compiles a kernel for the argument's type, so with ``None`` that
    code is not compiled at all: the first call for a high-rules table with
    "sensible" seats compiles a third less.

    Examples
    --------
    >>> kernel_extras(False, [KIND_SENSIBLE, KIND_CALL_DOWN])
    (None, None)
    >>> kernel_extras(False, [KIND_SENSIBLE, KIND_LEARNED])
    (None, True)
    >>> kernel_extras(True, [KIND_SENSIBLE])
    (True, None)
    """
    learned = any(int(kind) == KIND_LEARNED for kind in kinds)
    return (EXTRAS if hilo else None), (EXTRAS if learned else None)


@jit(inline="always")
def builtin_bet(kind, pub, own, params, rng):
    """Betting intent of built-in strategy ``kind`` (``KIND_*``)."""
    if kind == KIND_RANDOM:
        return bet_random(pub, own, rng)
    if kind == KIND_SENSIBLE:
        return _bet_sensible(pub, own, params, rng)
    if kind == KIND_LEARNED:
        if pub[V.P_HILO] != 0:
            return bet_sensible_at(pub, own, SENSIBLE_PARAMS, rng, sensible_strength(pub, own))
        return bet_learned_at(pub, own, params, rng, learned_bucket(own))
    return V.INTENT_PASSIVE


@jit
def builtin_pass(kind, pub, own, params, rng, out, with_hilo, with_learned):
    """Cards passed by built-in strategy ``kind`` (written to ``out``);
    ``with_hilo``, ``with_learned``: :func:`kernel_extras` of the table."""
    if kind == KIND_RANDOM or kind == KIND_RANDOM_PASS:
        _pass_random(pub, own, rng, out)
        return
    if with_learned is not None:
        if kind == KIND_LEARNED and _learned_pass_applies(pub, own):
            pass_learned(own, params, out)
            return
    if with_hilo is not None:
        if pub[V.P_HILO] != 0:
            _pass_sensible_hilo(pub, own, out)
            return
    _pass_sensible(pub, own, out)


@jit(inline="always")
def _learned_pass_applies(pub, own):
    """The learned pass scores a pass of three of seven under the high
    showdown; other passes (other rule sets, hi-lo) are "sensible"'s."""
    return pub[V.P_PASS_COUNT] == 3 and own[V.O_NCARDS] == 7 and pub[V.P_HILO] == 0


@jit
def builtin_discard(kind, pub, own, params, rng, out, with_hilo, with_learned):
    """Discards and reveal order of built-in strategy ``kind`` (into ``out``);
    ``with_hilo``, ``with_learned``: :func:`kernel_extras` of the table."""
    if kind == KIND_RANDOM:
        _discard_random(own, rng, out)
        return
    if with_hilo is not None:
        if pub[V.P_HILO] != 0:
            _discard_hilo(own, out, kind != KIND_RANDOM_PASS)
            return
    # one call site of the inlined best five: each copy costs compile time
    _discard_best_five(own, out, kind != KIND_RANDOM_PASS and kind != KIND_LEARNED)
    if with_learned is not None:
        if kind == KIND_LEARNED:
            order_learned(params, out)


@jit
def pass_sensible_high(pub, own, out):
    """:func:`builtin_pass` of ``"sensible"`` and ``"call-down"`` under the
    high rules (the same cards), as a kernel of its own: with three array
    arguments instead of five and no dispatch, it is small enough for LLVM
    to inline into the deal kernel's pass phase, which plays it 18 times in
    a 6-player deal."""
    _pass_sensible(pub, own, out)


@jit
def discard_sensible_high(own, out):
    """:func:`builtin_discard` of ``"sensible"`` and ``"call-down"`` under the
    high rules (the same cards and order), as a kernel of its own, for the
    same reason as :func:`pass_sensible_high`. Returns the value of the
    kept five (found with them from seven cards; -1 from fewer), so that the
    showdown need not evaluate them again."""
    return _discard_best_five(own, out, True)


@jit
def no_custom_bet(pub, own, params, rng):
    return V.INTENT_PASSIVE


@jit
def no_custom_cards(pub, own, params, rng, out):
    pass


# ----------------------------------------------------------- public layer --
BUILTIN_NAMES = {
    "random": KIND_RANDOM,
    "call-down": KIND_CALL_DOWN,
    "random-pass": KIND_RANDOM_PASS,
    "sensible": KIND_SENSIBLE,
    "learned": KIND_LEARNED,
}


@dataclass(frozen=True)
class Strategy:
    """A seat's strategy: a built-in kind with parameters, or user functions.

    Use :func:`get_strategy` for built-ins and :meth:`Strategy.custom` for
    your own numba functions.

    Examples
    --------
    >>> get_strategy("sensible", bluff=0.05).param_dict()["bluff"]
    0.05
    >>> get_strategy("call-down").name
    'call-down'
    """

    name: str
    kind: int
    params: tuple[float, ...] = ()
    param_names: tuple[str, ...] = ()
    bet_fn: Callable[..., Any] | None = field(default=None, compare=False)
    pass_fn: Callable[..., Any] | None = field(default=None, compare=False)
    discard_fn: Callable[..., Any] | None = field(default=None, compare=False)
    #: ``"learned"`` only: a win table of its own (flat,
    #: :data:`~anaconda_sim.learned.params.WIN_TABLE_SIZE`) instead of the one
    #: shipped for the table size (:func:`~anaconda_sim.learned.learn` makes these)
    win_table: tuple[float, ...] = field(default=(), repr=False)

    def param_dict(self) -> dict[str, float]:
        """Parameters by name."""
        return dict(zip(self.param_names, self.params, strict=True))

    def spec(self) -> str:
        """The strategy with all its parameters, as text: ``"name"`` or
        ``"name:key=value,..."`` (what tables record in their model).

        Examples
        --------
        >>> get_strategy("sensible", bluff=0.1).spec()
        'sensible:aggressive_at=6,continue_early=1,continue_late=4,respect_exposed=1,bluff=0.1'
        >>> get_strategy("random-pass").spec()
        'random-pass'
        """
        if not self.params:
            return self.name
        values = ",".join(f"{k}={v:g}" for k, v in self.param_dict().items())
        if self.win_table:
            # a table of its own (from learning) is named by a digest of its numbers
            digest = hashlib.sha256(np.asarray(self.win_table).tobytes()).hexdigest()[:12]
            values += f",win_table={digest}"
        return f"{self.name}:{values}"

    def param_array(self, players: int | None = None) -> np.ndarray:
        """Parameters as the float64 array the kernels receive (padded).

        ``"learned"``'s parameters depend on the table size: the vector and
        the win table shipped for ``players``
        (:func:`~anaconda_sim.learned.params.shipped_params`) with this
        strategy's parameters (and win table, if it has one) in their place.
        The array is built once per strategy and table size (the engines ask
        for it at every decision); each call returns a copy.

        Examples
        --------
        >>> from anaconda_sim.learned.params import BLUFF
        >>> float(get_strategy("learned", bluff=0.25).param_array(6)[BLUFF])
        0.25
        """
        return _param_array(self, None if players is None else int(players)).copy()

    @classmethod
    def custom(
        cls,
        name: str,
        *,
        bet: Callable[..., Any] | None = None,
        pass_cards: Callable[..., Any] | None = None,
        discard: Callable[..., Any] | None = None,
        params: Mapping[str, float] | None = None,
    ) -> Strategy:
        """A user strategy from numba functions with the signatures of this module.

        A decision left as ``None`` falls back to ``"sensible"`` card play or
        passive betting.
        """
        params = dict(params or {})
        if len(params) > PARAM_SLOTS:
            raise ValueError(
                f"strategy {name!r} has {len(params)} parameters; at most {PARAM_SLOTS} fit"
            )
        for label, fn in (("bet", bet), ("pass_cards", pass_cards), ("discard", discard)):
            if fn is not None and not hasattr(fn, "py_func"):
                raise TypeError(
                    f"custom {label} function {fn!r} is not compiled with numba; "
                    "decorate it with @numba.njit"
                )
        return cls(
            name, KIND_CUSTOM, tuple(float(v) for v in params.values()), tuple(params),
            bet, pass_cards, discard,
        )  # fmt: skip

    # Engines call these three; they run the same numba code as the kernels.
    def decide_bet(self, pub, own, rng) -> int:
        """Betting intent for the seat whose view is ``(pub, own)``."""
        if self.kind == KIND_CUSTOM:
            fn = self.bet_fn or no_custom_bet
            return int(fn(pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng))
        return int(builtin_bet(self.kind, pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng))

    def decide_pass(self, pub, own, rng) -> np.ndarray:
        """The cards to pass, as an int64 array of ``pub[P_PASS_COUNT]`` cards."""
        out = np.full(7, -1, dtype=np.int64)
        if self.kind == KIND_CUSTOM and self.pass_fn is not None:
            self.pass_fn(pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng, out)
        else:
            kind = KIND_SENSIBLE if self.kind == KIND_CUSTOM else self.kind
            builtin_pass(kind, pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng, out,
                         *kernel_extras(bool(pub[V.P_HILO]), [kind]))  # fmt: skip
        return out[: pub[V.P_PASS_COUNT]].copy()

    def decide_discard(self, pub, own, rng) -> tuple[np.ndarray, np.ndarray]:
        """``(discards, reveal_order)`` as int64 arrays of 2 and 5 cards."""
        out = np.full(7, -1, dtype=np.int64)
        if self.kind == KIND_CUSTOM and self.discard_fn is not None:
            self.discard_fn(pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng, out)
        else:
            kind = KIND_SENSIBLE if self.kind == KIND_CUSTOM else self.kind
            builtin_discard(kind, pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng, out,
                            *kernel_extras(bool(pub[V.P_HILO]), [kind]))  # fmt: skip
        return out[:2].copy(), out[2:7].copy()


def get_strategy(spec: str | Strategy, **params: float) -> Strategy:
    """A built-in strategy by name (with parameter overrides), or ``spec`` itself.

    Examples
    --------
    >>> get_strategy("sensible", aggressive_at=5).param_dict()["aggressive_at"]
    5.0
    >>> get_strategy("bluffer")
    Traceback (most recent call last):
    ...
    ValueError: unknown strategy 'bluffer'; built-ins are 'random', 'call-down', ...
    """
    if isinstance(spec, Strategy):
        if params:
            raise ValueError("parameters can only be given with a built-in strategy name")
        return spec
    if spec not in BUILTIN_NAMES:
        names = ", ".join(repr(n) for n in BUILTIN_NAMES)
        raise ValueError(f"unknown strategy {spec!r}; built-ins are {names}")
    kind = BUILTIN_NAMES[spec]
    defaults = SENSIBLE_DEFAULTS if kind == KIND_SENSIBLE else {}
    if kind == KIND_LEARNED:
        # only the parameters given are fixed; the others are the shipped
        # vector of the table size (Strategy.param_array)
        unknown = set(params) - set(LEARNED_DEFAULTS)
        if unknown:
            raise ValueError(
                f"strategy 'learned' has no parameter {sorted(unknown)[0]!r}; its parameters: "
                f"{', '.join(LEARNED_DEFAULTS)}"
            )
        ordered = {k: float(params[k]) for k in LEARNED_DEFAULTS if k in params}
        return Strategy(spec, kind, tuple(ordered.values()), tuple(ordered))
    unknown = set(params) - set(defaults)
    if unknown:
        allowed = ", ".join(defaults) or "none"
        raise ValueError(
            f"strategy {spec!r} has no parameter {sorted(unknown)[0]!r}; its parameters: {allowed}"
        )
    merged = {**defaults, **{k: float(v) for k, v in params.items()}}
    return Strategy(spec, kind, tuple(merged.values()), tuple(merged))


@functools.lru_cache(maxsize=256)
def _param_array(strategy: Strategy, players: int | None) -> np.ndarray:
    out = np.zeros(PARAM_SLOTS, dtype=np.float64)
    if strategy.kind != KIND_LEARNED:
        out[: len(strategy.params)] = strategy.params
    else:
        given = strategy.param_dict()
        if players is None and (len(given) < len(LEARNED_DEFAULTS) or not strategy.win_table):
            raise ValueError(
                f"strategy {strategy.spec()!r} takes the learned parameters of the table "
                "size; give players= (2-7)"
            )
        if len(given) < len(LEARNED_DEFAULTS):
            given = {**shipped_params(int(players)), **given}  # type: ignore[arg-type]
        if strategy.win_table:
            table = np.asarray(strategy.win_table, dtype=np.float64)
        else:
            table = shipped_win_table(int(players))  # type: ignore[arg-type]
        out = as_array(given, table, PARAM_SLOTS)
    out.setflags(write=False)
    return out


def parse_strategies(text: str) -> list[Strategy]:
    """Strategies written as text, as :meth:`Strategy.spec` writes them.

    ``"name"`` or ``"name:key=value,key=value"``; several strategies are
    separated by commas (an item holding ``=`` continues the parameters of
    the strategy before it).

    Examples
    --------
    >>> [s.spec() for s in parse_strategies("random-pass, call-down")]
    ['random-pass', 'call-down']
    >>> parse_strategies("sensible:bluff=0.1,continue_late=2")[0].param_dict()["continue_late"]
    2.0
    >>> parse_strategies("sensible:bluff")
    Traceback (most recent call last):
    ...
    ValueError: strategy parameter 'bluff' has no value; write it as bluff=VALUE
    """
    if not isinstance(text, str):
        raise TypeError(f"strategies {text!r} must be text like 'sensible:bluff=0.1'")
    entries: list[tuple[str, dict[str, float]]] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, colon, first = item.partition(":")
        if "=" in name:  # another parameter of the previous strategy
            if not entries:
                raise ValueError(f"{item!r} names a parameter before any strategy")
            name, colon, first = "", ":", item
            params = entries[-1][1]
        else:
            params = {}
            entries.append((name.strip(), params))
        if colon and first.strip():
            key, equals, value = first.partition("=")
            if not equals:
                raise ValueError(
                    f"strategy parameter {key.strip()!r} has no value; "
                    f"write it as {key.strip()}=VALUE"
                )
            try:
                params[key.strip()] = float(value)
            except ValueError:
                raise ValueError(
                    f"strategy parameter {key.strip()}={value.strip()!r} is not a number"
                ) from None
    if not entries:
        raise ValueError(f"no strategy in {text!r}; name one, e.g. 'sensible' or 'random-pass'")
    return [get_strategy(name, **params) for name, params in entries]


def short_spec(spec: str) -> str:
    """A strategy spec with only the parameters that differ from the defaults
    (for chart subtitles; tables keep the full spec).

    Examples
    --------
    >>> short_spec(get_strategy("sensible", continue_late=2).spec())
    'sensible:continue_late=2'
    >>> short_spec("random-pass")
    'random-pass'
    """
    name = spec.partition(":")[0]
    if name not in BUILTIN_NAMES:
        return spec
    given = parse_strategies(spec)[0].param_dict()
    defaults = get_strategy(name).param_dict()
    changed = ",".join(f"{k}={v:g}" for k, v in given.items() if defaults.get(k) != v)
    return f"{name}:{changed}" if changed else name


# ---------------------------------------------------------------- declare --
# The hi-lo rules (R21-R26) add a fourth decision: after the last betting
# round every active seat declares high, low or both (R22). A declaration is
# a ``DECLARE_*`` code of :mod:`anaconda_sim.game.views`:
#
#     declare(pub, own, params, rng) -> int


def _low_value_named(ranks: tuple[int, ...]) -> int:
    """Low value of five distinct ace-low ranks (0 = ace .. 12 = king), highest first."""
    return next(v for v, (cat, groups) in enumerate(LOW_CLASS_INFO) if cat == 5 and groups == ranks)


#: ``"sensible"`` declares both only with a straight or better whose low is
#: 6-5-4-3-2 or better (the wheel, a six-high straight, a small flush)
DECLARE_BOTH_CATEGORY = 4
DECLARE_BOTH_LOW = _low_value_named((5, 4, 3, 2, 1))
#: ... otherwise high with two pair or better ...
DECLARE_HIGH_CATEGORY = 2
#: ... otherwise low with a nine-low or better (9-8-7-6-5 at worst), else high
DECLARE_LOW_AT = _low_value_named((8, 7, 6, 5, 4))
#: the worst six-, seven-, eight-, nine- and ten-low, then the worst unpaired
#: low (K-Q-J-10-8): :func:`low_strength` 6, 5, 4, 3, 2, 1
LOW_STRENGTH_AT = np.array(
    [_low_value_named(r) for r in ((5, 4, 3, 2, 1), (6, 5, 4, 3, 2), (7, 6, 5, 4, 3),
                                    (8, 7, 6, 5, 4), (9, 8, 7, 6, 5), (12, 11, 10, 9, 7))],
    dtype=np.int64,
)  # fmt: skip


@jit(inline="always")
def low_hand_value(own):
    """Low value (R23) of the cards a seat holds (best low five of seven, or the kept five)."""
    n = own[V.O_NCARDS]
    b = V.O_CARDS
    if n == 7:
        return low7(
            np.int64(own[b]), np.int64(own[b + 1]), np.int64(own[b + 2]), np.int64(own[b + 3]),
            np.int64(own[b + 4]), np.int64(own[b + 5]), np.int64(own[b + 6]),
        )  # fmt: skip
    if n == 5:
        return low5(
            np.int64(own[b]), np.int64(own[b + 1]), np.int64(own[b + 2]), np.int64(own[b + 3]),
            np.int64(own[b + 4]),
        )  # fmt: skip
    return low_value_of(own[b : b + n], n)


@jit(inline="always")
def declare_by_values(high_category, low):
    """:func:`declare_by_strength` of held cards whose high category is
    ``high_category`` (0..8) and whose low value is ``low`` (the batch
    simulator values a seat's final cards once, for its declaration and
    the showdown)."""
    if high_category >= DECLARE_BOTH_CATEGORY and low >= DECLARE_BOTH_LOW:
        return V.DECLARE_BOTH
    if high_category >= DECLARE_HIGH_CATEGORY:
        return V.DECLARE_HIGH
    if low >= DECLARE_LOW_AT:
        return V.DECLARE_LOW
    return V.DECLARE_HIGH


@jit
def declare_by_strength(own):
    """The declaration of ``"sensible"`` (and every built-in but ``"random"``) from
    the seat's own high and low strength:

    * both: a straight or better (:data:`DECLARE_BOTH_CATEGORY`) that is also a
      six-low or better (:data:`DECLARE_BOTH_LOW`), so it very likely wins
      both halves (R24 gives a failed swinger nothing);
    * high: two pair or better (:data:`DECLARE_HIGH_CATEGORY`);
    * low: an unpaired nine-low or better (:data:`DECLARE_LOW_AT`);
    * high otherwise (a weak hand: its high and its low are both poor).
    """
    return declare_by_values(value_category(hand_value(own)), low_hand_value(own))


@jit(inline="always")
def builtin_declare(kind, pub, own, params, rng):
    """Declaration (``DECLARE_*``) of built-in strategy ``kind`` (hi-lo rules, R22).

    ``"random"`` declares uniformly at random (one draw from its stream);
    every other built-in declares by strength (:func:`declare_by_strength`,
    no random draw).
    """
    if kind == KIND_RANDOM:
        return np.int64(rand_below(rng, 3))
    return np.int64(declare_by_strength(own))


@jit(inline="always")
def builtin_declare_at(kind, rng, high_category, low):
    """:func:`builtin_declare` of a seat whose held cards' high category and
    low value are known (:func:`declare_by_values`)."""
    if kind == KIND_RANDOM:
        return np.int64(rand_below(rng, 3))
    return np.int64(declare_by_values(high_category, low))


def decide_declare(strategy: Strategy, pub: np.ndarray, own: np.ndarray, rng: np.ndarray) -> int:
    """The declaration of ``strategy`` for the seat whose view is ``(pub, own)``.

    Custom strategies declare as ``"sensible"`` (a plain-Python player can
    declare its own way: :class:`anaconda_sim.game.play.Player`'s
    ``choose_declaration``).

    Examples
    --------
    >>> from anaconda_sim.game import views as V
    >>> own = V.new_own(0)
    >>> own[V.O_NCARDS] = 5
    >>> own[V.O_CARDS : V.O_CARDS + 5] = [12, 0, 4, 8, 51]  # 5-4-3-2-A: a wheel straight
    >>> rng = np.zeros(1, np.uint64)
    >>> V.DECLARE_NAMES[decide_declare(get_strategy("sensible"), V.new_pub(), own, rng)]
    'both'
    """
    kind = KIND_SENSIBLE if strategy.kind == KIND_CUSTOM else strategy.kind
    params = strategy.param_array(int(pub[V.P_PLAYERS]))
    return int(builtin_declare(kind, pub, own, params, rng))


__all__ += [
    "DECLARE_BOTH_CATEGORY",
    "DECLARE_BOTH_LOW",
    "DECLARE_HIGH_CATEGORY",
    "DECLARE_LOW_AT",
    "LOW_STRENGTH_AT",
    "best_low_five_into",
    "builtin_declare",
    "builtin_declare_at",
    "decide_declare",
    "declare_by_strength",
    "declare_by_values",
    "low_hand_value",
    "low_strength",
    "plans_low",
    "sensible_strength",
]
