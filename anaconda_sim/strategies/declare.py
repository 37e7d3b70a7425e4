"""Declarations under the hi-lo rules (R21-R26).

After the last betting round every active seat declares high, low or both
(R22). A declaration is a ``DECLARE_*`` code of
:mod:`anaconda_sim.table.views`::

    declare(pub, own, params, rng) -> int
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from ..hands.evaluator import value_category
from ..rng import rand_below
from ..table import views as V
from .common import hand_value
from .hilo import low_hand_value, low_value_named
from .kinds import KIND_CUSTOM, KIND_RANDOM, KIND_SENSIBLE
from .spec import Strategy

#: ``"sensible"`` declares both only with a straight or better whose low is
#: 6-5-4-3-2 or better (the wheel, a six-high straight, a small flush)
DECLARE_BOTH_CATEGORY = 4


DECLARE_BOTH_LOW = low_value_named((5, 4, 3, 2, 1))


#: ... otherwise high with two pair or better ...
DECLARE_HIGH_CATEGORY = 2


#: ... otherwise low with a nine-low or better (9-8-7-6-5 at worst), else high
DECLARE_LOW_AT = low_value_named((8, 7, 6, 5, 4))


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
    >>> from anaconda_sim.strategies.spec import get_strategy
    >>> from anaconda_sim.table import views as V
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
