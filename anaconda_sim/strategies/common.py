"""Primitives every built-in decision uses: the betting intent's legal action,
the held cards' value and category, a partial shuffle.

The decision functions of this package run millions of times per second
inside the batch simulator, so none of them allocates: they read the cards
straight from ``own``/``pub``, keep small counts packed in integers, and use
the caller's ``out`` array (at least 7 slots) as scratch space. Each is
semantically identical to the plain version described in its docstring
(``tests/sim/test_strategies.py`` checks them against readable twins).
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ..hands.evaluator import eval5, eval7, eval_cards, mask_category
from ..limits import HAND_SIZE, KEPT_SIZE
from ..rng import card_bit, rand_below
from ..table import views as V


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
def facing_bet(pub, own):
    return pub[V.P_LEVEL] * pub[V.P_BET_SIZE] > pub[V.P_IN_ROUND + own[V.O_SEAT]]


@jit(inline="always")
def hand_value(own):
    """Value of the cards a seat holds (best five of seven, or the kept five)."""
    n = own[V.O_NCARDS]
    b = V.O_CARDS
    if n == HAND_SIZE:
        return eval7(
            np.int64(own[b]), np.int64(own[b + 1]), np.int64(own[b + 2]), np.int64(own[b + 3]),
            np.int64(own[b + 4]), np.int64(own[b + 5]), np.int64(own[b + 6]),
        )  # fmt: skip
    if n == KEPT_SIZE:
        return eval5(
            np.int64(own[b]), np.int64(own[b + 1]), np.int64(own[b + 2]), np.int64(own[b + 3]),
            np.int64(own[b + 4]),
        )  # fmt: skip
    return eval_cards(own[b : b + n], n)


@jit(inline="always")
def held_mask(own):
    """The uint64 mask (:func:`~anaconda_sim.rng.card_bit`) of the cards a seat holds."""
    mask = np.uint64(0)
    for i in range(own[V.O_NCARDS]):
        mask |= card_bit(own[V.O_CARDS + i])
    return mask


@jit(inline="always")
def hand_category(own):
    """Category of the cards a seat holds: ``value_category(hand_value(own))``
    from their rank and suit bit patterns (:func:`mask_category`), without
    the evaluator's tables, whose lookups miss the cache in a deal loop."""
    return mask_category(held_mask(own))


@jit
def shuffle_prefix(out, start, n, k, rng):
    """Partial Fisher-Yates: ``out[start:start+k]`` become k distinct random
    cards of ``out[start:start+n]`` (the rest keep the remaining ones)."""
    for i in range(k):
        j = i + rand_below(rng, n - i)
        tmp = out[start + j]
        out[start + j] = out[start + i]
        out[start + i] = tmp
