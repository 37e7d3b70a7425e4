"""Strategies: the four decisions of a seat, as numba functions on its view.

The contract
------------
A strategy decides from what its seat may see (:mod:`anaconda_sim.views`)
and from its own random stream, nothing else. It is three numba functions::

    bet(pub, own, params, rng) -> int             # an INTENT_* code
    pass_cards(pub, own, params, rng, out)        # out[:pub[P_PASS_COUNT]] = cards
    discard(pub, own, params, rng, out)           # out[0:2] discards,
                                                  # out[2:7] the kept five in reveal order

``pub`` and ``own`` are int32 arrays (layout in :mod:`anaconda_sim.views`),
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

A user strategy is the same three functions, compiled with ``numba.njit``,
given to :meth:`Strategy.custom`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import views as V
from ._numba import jit
from .evaluator import (
    best_five_into,
    eval_cards,
    exposed_cards_value,
    exposed_value_category,
    value_category,
)
from .rng import rand_below, rand_float

__all__ = [
    "BUILTIN_NAMES",
    "KIND_CALL_DOWN",
    "KIND_CUSTOM",
    "KIND_RANDOM",
    "KIND_RANDOM_PASS",
    "KIND_SENSIBLE",
    "SENSIBLE_DEFAULTS",
    "Strategy",
    "get_strategy",
    "intent_to_action",
]

KIND_RANDOM = 0
KIND_CALL_DOWN = 1
KIND_RANDOM_PASS = 2
KIND_SENSIBLE = 3
KIND_CUSTOM = 4

PARAM_SLOTS = 8

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

# exposed category (R11: none, pair, two pair, trips, quads) -> the least hand
# category the seat showing it can hold
_EXPOSED_FLOOR = np.array([0, 1, 2, 3, 7], dtype=np.int64)


# ---------------------------------------------------------------- helpers --
@jit
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


@jit
def _facing_bet(pub, own):
    return pub[V.P_LEVEL] * pub[V.P_BET_SIZE] > pub[V.P_IN_ROUND + own[V.O_SEAT]]


@jit
def _held(own):
    n = own[V.O_NCARDS]
    cards = np.empty(n, dtype=np.int64)
    for i in range(n):
        cards[i] = own[V.O_CARDS + i]
    return cards


@jit
def _random_subset_into(cards, k, rng, out):
    """k distinct cards of ``cards`` uniformly at random (partial Fisher-Yates)."""
    pool = cards.copy()
    n = pool.shape[0]
    for i in range(k):
        j = i + rand_below(rng, n - i)
        tmp = pool[j]
        pool[j] = pool[i]
        pool[i] = tmp
        out[i] = pool[i]
    return pool


# ------------------------------------------------------------------- pass --
@jit
def _pass_random(pub, own, rng, out):
    _random_subset_into(_held(own), pub[V.P_PASS_COUNT], rng, out)


@jit
def _pass_sensible(pub, own, out):
    """Pass the lowest-scoring cards: groups and made flushes score high."""
    cards = _held(own)
    n = cards.shape[0]
    rank_count = np.zeros(13, dtype=np.int64)
    suit_count = np.zeros(4, dtype=np.int64)
    for i in range(n):
        rank_count[cards[i] >> 2] += 1
        suit_count[cards[i] & 3] += 1
    # score * 64 + card index gives a strict order; lowest scores are passed
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        c = cards[i]
        score = 32 * (rank_count[c >> 2] - 1) + (c >> 2)
        if suit_count[c & 3] >= 5:
            score += 16
        keys[i] = score * 64 + c
    order = np.argsort(keys)
    for i in range(pub[V.P_PASS_COUNT]):
        out[i] = cards[order[i]]


# ---------------------------------------------------------------- discard --
@jit
def _order_hiding_most_telling(five, out):
    """Write ``five`` to ``out[0:5]`` in a reveal order that shows little.

    The hidden (last) card is the one whose absence leaves the weakest four
    exposed cards under R11 (ties: hide the higher card index). The four
    shown cards go singles first, low to high, then grouped cards, so the
    table learns of a pair as late as possible.
    """
    four = np.empty(4, dtype=np.int64)
    best_hide = -1
    best_value = np.int64(1) << 62
    for hide in range(5):
        k = 0
        for i in range(5):
            if i != hide:
                four[k] = five[i]
                k += 1
        value = exposed_cards_value(four, 4)
        if value < best_value or (value == best_value and five[hide] > five[best_hide]):
            best_value = value
            best_hide = hide
    k = 0
    for i in range(5):
        if i != best_hide:
            four[k] = five[i]
            k += 1
    rank_count = np.zeros(13, dtype=np.int64)
    for i in range(4):
        rank_count[four[i] >> 2] += 1
    keys = np.empty(4, dtype=np.int64)
    for i in range(4):
        keys[i] = (rank_count[four[i] >> 2] * 16 + (four[i] >> 2)) * 64 + four[i]
    order = np.argsort(keys)
    for i in range(4):
        out[i] = four[order[i]]
    out[4] = five[best_hide]


@jit
def _discard_best_five(own, out, hide_telling):
    cards = _held(own)
    chosen = np.empty(7, dtype=np.int64)
    best_five_into(cards, cards.shape[0], chosen)
    out[0] = chosen[5]
    out[1] = chosen[6]
    if hide_telling:
        _order_hiding_most_telling(chosen[:5], out[2:7])
    else:
        for i in range(5):
            out[2 + i] = chosen[i]


@jit
def _discard_random(own, rng, out):
    cards = _held(own)
    pool = _random_subset_into(cards, 2, rng, out[0:2])
    kept = pool[2:].copy()
    _random_subset_into(kept, 5, rng, out[2:7])


# -------------------------------------------------------------------- bet --
@jit
def _bet_random(pub, own, rng):
    if _facing_bet(pub, own):
        choices = 3 if pub[V.P_LEVEL] < pub[V.P_MAX_LEVEL] else 2
        pick = rand_below(rng, choices)
        if pick == 0:
            return V.INTENT_FOLD
        return V.INTENT_PASSIVE if pick == 1 else V.INTENT_AGGRESSIVE
    return V.INTENT_PASSIVE if rand_below(rng, 2) == 0 else V.INTENT_AGGRESSIVE


@jit
def _strongest_exposed_category(pub, own):
    """Best R11 exposed category shown by any other active seat (0..4)."""
    best = 0
    me = own[V.O_SEAT]
    revealed = pub[V.P_REVEALED]
    cards = np.empty(4, dtype=np.int64)
    for seat in range(pub[V.P_PLAYERS]):
        if seat == me or pub[V.P_FOLDED + seat] != 0:
            continue
        for j in range(revealed):
            cards[j] = pub[V.P_EXPOSED + 4 * seat + j]
        cat = exposed_value_category(exposed_cards_value(cards, revealed))
        if cat > best:
            best = cat
    return best


@jit
def _bet_sensible(pub, own, params, rng):
    cards = _held(own)
    strength = value_category(eval_cards(cards, cards.shape[0]))
    bluff = params[4] > 0.0 and rand_float(rng) < params[4]
    if strength >= params[0] or bluff:
        return V.INTENT_AGGRESSIVE
    if not _facing_bet(pub, own):
        return V.INTENT_PASSIVE
    late = pub[V.P_REVEALED] > 0
    needed = params[2] if late else params[1]
    if strength < needed:
        return V.INTENT_FOLD
    if late and params[3] > 0.0:
        if _EXPOSED_FLOOR[_strongest_exposed_category(pub, own)] > strength:
            return V.INTENT_FOLD
    return V.INTENT_PASSIVE


# --------------------------------------------------------------- dispatch --
@jit
def builtin_bet(kind, pub, own, params, rng):
    """Betting intent of built-in strategy ``kind`` (``KIND_*``)."""
    if kind == KIND_RANDOM:
        return _bet_random(pub, own, rng)
    if kind == KIND_SENSIBLE:
        return _bet_sensible(pub, own, params, rng)
    return V.INTENT_PASSIVE


@jit
def builtin_pass(kind, pub, own, params, rng, out):
    """Cards passed by built-in strategy ``kind`` (written to ``out``)."""
    if kind == KIND_RANDOM or kind == KIND_RANDOM_PASS:
        _pass_random(pub, own, rng, out)
    else:
        _pass_sensible(pub, own, out)


@jit
def builtin_discard(kind, pub, own, params, rng, out):
    """Discards and reveal order of built-in strategy ``kind`` (into ``out``)."""
    if kind == KIND_RANDOM:
        _discard_random(own, rng, out)
    else:
        _discard_best_five(own, out, kind != KIND_RANDOM_PASS)


@jit
def _no_custom_bet(pub, own, params, rng):
    return V.INTENT_PASSIVE


@jit
def _no_custom_cards(pub, own, params, rng, out):
    pass


# ----------------------------------------------------------- public layer --
BUILTIN_NAMES = {
    "random": KIND_RANDOM,
    "call-down": KIND_CALL_DOWN,
    "random-pass": KIND_RANDOM_PASS,
    "sensible": KIND_SENSIBLE,
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

    def param_dict(self) -> dict[str, float]:
        """Parameters by name."""
        return dict(zip(self.param_names, self.params, strict=True))

    def param_array(self) -> np.ndarray:
        """Parameters as the float64 array the kernels receive (padded)."""
        out = np.zeros(PARAM_SLOTS, dtype=np.float64)
        out[: len(self.params)] = self.params
        return out

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
            fn = self.bet_fn or _no_custom_bet
            return int(fn(pub, own, self.param_array(), rng))
        return int(builtin_bet(self.kind, pub, own, self.param_array(), rng))

    def decide_pass(self, pub, own, rng) -> np.ndarray:
        """The cards to pass, as an int64 array of ``pub[P_PASS_COUNT]`` cards."""
        out = np.full(7, -1, dtype=np.int64)
        if self.kind == KIND_CUSTOM and self.pass_fn is not None:
            self.pass_fn(pub, own, self.param_array(), rng, out)
        else:
            kind = KIND_SENSIBLE if self.kind == KIND_CUSTOM else self.kind
            builtin_pass(kind, pub, own, self.param_array(), rng, out)
        return out[: pub[V.P_PASS_COUNT]].copy()

    def decide_discard(self, pub, own, rng) -> tuple[np.ndarray, np.ndarray]:
        """``(discards, reveal_order)`` as int64 arrays of 2 and 5 cards."""
        out = np.full(7, -1, dtype=np.int64)
        if self.kind == KIND_CUSTOM and self.discard_fn is not None:
            self.discard_fn(pub, own, self.param_array(), rng, out)
        else:
            kind = KIND_SENSIBLE if self.kind == KIND_CUSTOM else self.kind
            builtin_discard(kind, pub, own, self.param_array(), rng, out)
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
    ValueError: unknown strategy 'bluffer'; built-ins are 'random', 'call-down', 'random-pass', 'sensible'
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
    unknown = set(params) - set(defaults)
    if unknown:
        allowed = ", ".join(defaults) or "none"
        raise ValueError(
            f"strategy {spec!r} has no parameter {sorted(unknown)[0]!r}; its parameters: {allowed}"
        )
    merged = {**defaults, **{k: float(v) for k, v in params.items()}}
    return Strategy(spec, kind, tuple(merged.values()), tuple(merged))
