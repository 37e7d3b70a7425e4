"""``"sensible"``: its parameters, its pass (lowest cards, keeping groups and
made flushes), its discard (the best five, hiding the card that tells most)
and its betting on the category of its cards against what the table shows."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._numba import jit
from ..hands.evaluator import (
    EXPOSED_FLOOR,
    best_five_into,
    exposed_value_at,
    exposed_value_category,
)
from ..hands.sorting import best_five7_in_place, sorted5, sorted7
from ..limits import HAND_SIZE, KEPT_SIZE
from ..rng import rand_float
from ..table import views as V
from .common import facing_bet
from .ranges import ParameterRange

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


SENSIBLE_AGGRESSIVE_AT = 0


SENSIBLE_CONTINUE_EARLY = 1


SENSIBLE_CONTINUE_LATE = 2


SENSIBLE_RESPECT_EXPOSED = 3


SENSIBLE_BLUFF = 4


#: "sensible"'s default parameters as the kernels' array (the "learned"
#: family bets with them under the hi-lo rules, which it was not learned for)
SENSIBLE_PARAMS = np.array(list(SENSIBLE_DEFAULTS.values()), dtype=np.float64)

_CATEGORY = "a hand category, 0 high card .. 8 straight flush, 9 none"
#: what each parameter may be (:func:`~anaconda_sim.strategies.ranges.check_parameter`)
SENSIBLE_RANGES: dict[str, ParameterRange] = {
    "aggressive_at": ParameterRange(0.0, 9.0, True, _CATEGORY),
    "continue_early": ParameterRange(0.0, 9.0, True, _CATEGORY),
    "continue_late": ParameterRange(0.0, 9.0, True, _CATEGORY),
    "respect_exposed": ParameterRange(0.0, 1.0, True, "1 to fold to exposed cards that beat us"),
    "bluff": ParameterRange(0.0, 1.0, False, "a probability"),
}
assert list(SENSIBLE_RANGES) == list(SENSIBLE_DEFAULTS)


assert list(SENSIBLE_DEFAULTS) == [
    "aggressive_at", "continue_early", "continue_late", "respect_exposed", "bluff",
]  # fmt: skip


@jit(inline="always")
def pass_lowest_keys(pub, n, out):
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
def pass_sensible(pub, own, out):
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
    if n == HAND_SIZE:
        keys = sorted7(out[0], out[1], out[2], out[3], out[4], out[5], out[6])
        for k in range(pub[V.P_PASS_COUNT]):
            out[k] = keys[k] & 63
        return
    pass_lowest_keys(pub, n, out)


@jit(inline="always")
def _rank_count(counts, card):
    return (counts >> (4 * (card >> 2))) & 15


@jit(inline="always")
def order_hiding_most_telling(f0, f1, f2, f3, f4, out):
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
    k0, k1, k2, k3, k4 = sorted5(k0, k1, k2, k3, k4)
    out[2] = k0 & 63
    out[3] = k1 & 63
    out[4] = k2 & 63
    out[5] = k3 & 63
    out[6] = hide


def reveal_order_hiding_most_telling(five: Sequence[int]) -> list[int]:
    """The reveal order of the built-in strategies for a kept ``five``
    (:func:`order_hiding_most_telling`): the last card is hidden.

    Examples
    --------
    >>> from anaconda_sim.cards import format_cards, parse_cards
    >>> format_cards(reveal_order_hiding_most_telling(parse_cards("Qs Qh 9c 9d 2c")))
    '2c Qh 9c 9d Qs'
    """
    if len(five) != KEPT_SIZE:
        raise ValueError(f"a reveal order has {KEPT_SIZE} cards, got {len(five)}")
    out = np.empty(HAND_SIZE, dtype=np.int64)
    order_hiding_most_telling(*(np.int64(c) for c in five), out)
    return [int(c) for c in out[V.OUT_FIVE :]]


@jit(inline="always")
def discard_best_five(own, out, hide_telling):
    """Discard the two cards outside the best five; reveal order as
    :func:`order_hiding_most_telling` when ``hide_telling``, else the five
    in descending card index order. Returns the kept five's value when it
    came with the choice (from seven cards), else -1."""
    n = own[V.O_NCARDS]
    value = np.int64(-1)
    if n == HAND_SIZE:
        for i in range(HAND_SIZE):
            out[i] = own[V.O_CARDS + i]
        value = best_five7_in_place(out)
    else:
        best_five_into(own[V.O_CARDS : V.O_CARDS + n], n, out)
    f0, f1, f2, f3, f4 = out[0], out[1], out[2], out[3], out[4]
    out[0] = out[5]
    out[1] = out[6]
    if hide_telling:
        order_hiding_most_telling(f0, f1, f2, f3, f4, out)
    else:
        out[2] = f0
        out[3] = f1
        out[4] = f2
        out[5] = f3
        out[6] = f4
    return value


@jit
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
    if not facing_bet(pub, own):
        return V.INTENT_PASSIVE
    late = pub[V.P_REVEALED] > 0
    needed = params[SENSIBLE_CONTINUE_LATE] if late else params[SENSIBLE_CONTINUE_EARLY]
    if strength < needed:
        return V.INTENT_FOLD
    if late and params[SENSIBLE_RESPECT_EXPOSED] > 0.0:
        if EXPOSED_FLOOR[_strongest_exposed_category(pub, own)] > strength:
            return V.INTENT_FOLD
    return V.INTENT_PASSIVE
