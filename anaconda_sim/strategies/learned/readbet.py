"""The board-reading betting of the ``"learned"`` family: fold, call, bet and
raise from its equity estimate against the pot odds of each action.

The estimate ``p`` (:mod:`~anaconda_sim.strategies.learned.reads`) is the
seat's probability of winning the pot against the ``k`` active rivals, given
its cards, what each shows and what each did this deal. With ``k + 1``
seats in, a bet that everyone calls returns ``p (k + 1)`` bets for the one
put in, so (per group of rounds ``g``: before the reveals, reveal rounds
1-2, reveal rounds 3-4):

- with nothing to call, **bet** when ``p (k + 1) >= 1 + bet_margin_g``;
- facing a bet, **raise** when ``p (k + 1) >= 1 + raise_margin_g``,
  **call** when ``p (pot + to_call) >= call_factor_g * to_call`` (the pot
  odds; 1 is break-even), **fold** otherwise;
- **bluff** (bet or raise whatever the estimate) with a probability by what
  the seat itself shows: nothing yet (before the reveals), nothing of note,
  a four-card draw, a pair or better (``bluff_hidden``, ``bluff_weak``,
  ``bluff_draw``, ``bluff_strong``; R11). The random number is drawn only
  when that probability is above 0.

Thirteen parameters (:data:`~.params.READ_BET_NAMES`), fitted by the paired
best-response search of :mod:`anaconda_sim.learning.betting`.

The kernels' bet (:func:`bet_reads_from`) first draws the bluff, then reads
the least and the most estimate the seat's win stage, own bucket and number
of active rivals allow (:func:`bounded_intent`): where both give the same
intent, that is the intent, and the rivals' reads are not made. Else it
multiplies the rivals' factors, and where the product is past a *cut* of
the test it faces (to bet, or to raise) it passes or fails that test without
the root and the curve (:func:`read_intent`); a seat that does not raise
reads the cuts of the call at the bin of its price (the least estimate that
calls; bins :data:`~.params.CALL_PRICE_STEP` wide) the same way. Bounds and
cuts are derived from the equity tables and the margins when a strategy's
array is built (:func:`fill_bet_bounds`), widened far beyond the kernel's
roundings, so the intent is the one :func:`bet_reads` computes in full, bit
for bit.
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit
from ...limits import MAX_PLAYERS
from ...rng import rand_float
from ...table import views as V
from ...table.rules import REVEAL_ROUNDS
from .params import (
    ACTION_CLASSES,
    BET_BOUNDS0,
    BET_BOUNDS_MODE,
    BET_BOUNDS_SHAPE,
    BET_CUTS0,
    BET_CUTS_SHAPE,
    BET_MARGIN0,
    BET_STATES,
    BOARD_BLUFF0,
    CALL_CUTS0,
    CALL_CUTS_SHAPE,
    CALL_FACTOR0,
    CALL_PRICE_BINS,
    CALL_PRICE_STEP,
    EQUITY0,
    EQUITY_SIZE,
    EXPOSURE_BUCKETS,
    FACTOR_SHAPE,
    FACTOR_SIZE,
    OWN_BUCKETS,
    RAISE_MARGIN0,
    READ_GROUPS,
    RIVALS,
)
from .reads import CURVE_POINTS, CURVE_SHAPE, action_class, action_flags, curve_value
from .winprob import seat_exposure, win_stage

__all__ = [
    "UNDECIDED",
    "bet_reads",
    "bet_reads_decided",
    "bet_reads_from",
    "bet_state",
    "board_class",
    "bounded_intent",
    "fill_bet_bounds",
    "read_group",
    "read_intent",
    "reads_equity",
    "reads_equity_from",
]

#: what the bounds are widened by, relative to the root ``u`` and absolute
#: on the estimate: far beyond the few roundings between the tables and the
#: kernel's estimate (a product of at most six factors, a root, the curve's
#: interpolation), so no estimate the kernel computes lies outside them
_ROOT_MARGIN = 1e-9
_ESTIMATE_MARGIN = 1e-9
#: :func:`bounded_intent`'s answer when the bounds do not decide
UNDECIDED = -1
_GROUPS = len(READ_GROUPS)
#: the two numbers of a pair of bounds (the least and the most estimate)
#: or of cuts (the product below which a test fails, from which it passes)
_LOW, _HIGH = 0, 1


@jit(inline="always")
def read_group(revealed):
    """The group of rounds of ``revealed`` cards shown: 0 before the
    reveals, 1 in reveal rounds 1-2, 2 in reveal rounds 3-4."""
    if revealed <= 0:
        return 0
    return 1 if revealed <= 2 else 2


@jit(inline="always")
def board_class(exposure, revealed):
    """What a seat shows, for its bluffs: 0 nothing yet, 1 nothing of note,
    2 a four-card draw, 3 a pair or better (its exposure bucket)."""
    if revealed <= 0:
        return 0
    if exposure == 0:
        return 1
    return 2 if exposure <= 2 else 3


@jit(inline="always")
def _equity_of(params, stage, rivals, product):
    """The estimate from the product of ``rivals`` factors (certain with no
    rival left)."""
    if rivals == 0:
        return 1.0, 0
    u = product if rivals == 1 else product ** (1.0 / rivals)
    return curve_value(params, EQUITY0, stage, rivals, u), rivals


@jit(inline="always")
def reads_equity(pub, me, params, bucket):
    """The seat ``me``'s equity estimate (own bucket ``bucket``) from the
    equity tables in ``params`` (from :data:`~.params.EQUITY0`), and the
    number of active rivals: :func:`reads_equity_from` with the rivals'
    exposure buckets computed off the table (the engine keeps no cache)."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    exposures = np.zeros(MAX_PLAYERS, dtype=np.int64)
    if revealed > 0:
        for seat in range(pub[V.P_PLAYERS]):
            if seat != me and pub[V.P_FOLDED + seat] == 0:
                exposures[seat] = seat_exposure(pub, seat, revealed)
    return reads_equity_from(pub, me, params, bucket, exposures)


@jit(inline="always")
def reads_equity_from(pub, me, params, bucket, exposures):
    """The seat ``me``'s equity estimate and the number of active rivals,
    each rival's exposure bucket read from ``exposures[seat]`` (the kernels'
    per-seat cache, valid once a card is shown): the factors multiplied in
    seat order, as :func:`~.reads.factor_mean` does, so the very same number."""
    product, rivals = _rivals_product(pub, me, params, bucket, exposures)
    return _equity_of(params, win_stage(pub), rivals, product)


@jit(inline="always")
def _rivals_product(pub, me, params, bucket, exposures):
    """The product of the active rivals' factors (in seat order) and their number."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    rnd = pub[V.P_ROUND]
    flags = action_flags(pub)
    row = EQUITY0 + (win_stage(pub) * OWN_BUCKETS + bucket) * (EXPOSURE_BUCKETS * ACTION_CLASSES)
    product = 1.0
    rivals = 0
    for seat in range(pub[V.P_PLAYERS]):
        if seat == me or pub[V.P_FOLDED + seat] != 0:
            continue
        e = exposures[seat] if revealed > 0 else 0
        product *= params[row + e * ACTION_CLASSES + action_class(flags, seat, rnd)]
        rivals += 1
    return product, rivals


@jit(inline="always")
def _to_call(pub, seat):
    """The chips ``seat`` must put in to call (0 or less: nothing to call)."""
    return pub[V.P_LEVEL] * pub[V.P_BET_SIZE] - pub[V.P_IN_ROUND + seat]


@jit(inline="always")
def _group_of(pub):
    """The group of rounds of the table's betting (:func:`read_group`)."""
    return read_group(min(pub[V.P_REVEALED], REVEAL_ROUNDS))


@jit(inline="always")
def _bluffs(params, rng, shown, revealed):
    """Whether the seat bluffs (bets or raises whatever its estimate),
    showing exposure bucket ``shown``: one uniform number from ``rng`` when
    its bluff probability is above 0."""
    bluff_p = params[BOARD_BLUFF0 + board_class(shown, revealed)]
    return bluff_p > 0.0 and rand_float(rng) < bluff_p


@jit(inline="always")
def _intent_on(pub, seat, params, p, rivals):
    """The intent (module docstring) of a seat that does not bluff, on the
    estimate ``p`` against ``rivals`` active rivals."""
    g = _group_of(pub)
    edge = p * (rivals + 1)
    to_call = _to_call(pub, seat)
    if to_call <= 0:
        if edge >= 1.0 + params[BET_MARGIN0 + g]:
            return V.INTENT_AGGRESSIVE
        return V.INTENT_PASSIVE
    if edge >= 1.0 + params[RAISE_MARGIN0 + g]:
        return V.INTENT_AGGRESSIVE
    if p * (pub[V.P_POT] + to_call) >= params[CALL_FACTOR0 + g] * to_call:
        return V.INTENT_PASSIVE
    return V.INTENT_FOLD


@jit(inline="always")
def _reads_intent(pub, own, params, rng, p, rivals, shown):
    """The intent (module docstring) on the estimate ``p`` against ``rivals``
    active rivals, the seat showing exposure bucket ``shown``."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    if _bluffs(params, rng, shown, revealed):
        return V.INTENT_AGGRESSIVE
    return _intent_on(pub, own[V.O_SEAT], params, p, rivals)


@jit(inline="always")
def bet_state(pub, to_call):
    """The betting state the bounds are kept for (:data:`~.params.BET_STATES`)
    of a seat with ``to_call`` chips to call: 0 nobody has bet in this round,
    1 the seat faces the round's only bet (one rival bet, nobody raised), 2
    it faces a raise; -1 where it has nothing to call after a bet, which the
    betting never asks of a seat (R13-R17: a round ends once every active
    seat has matched the last bet), so the bounds are not read."""
    level = pub[V.P_LEVEL]
    if to_call <= 0:
        return 0 if level == 0 else -1
    return 1 if level == 1 else 2


@jit(inline="always")
def bounded_intent(pub, own, params, bucket):
    """The intent of a seat that does not bluff, own bucket ``bucket``, when
    the bounds of its estimate (:func:`fill_bet_bounds`) decide it, else
    :data:`UNDECIDED`: the estimate lies within them, and every intent's
    test (module docstring) is monotone in it, so where the least and the
    most estimate pass or fail a test alike, the estimate does too."""
    rivals = pub[V.P_ACTIVE] - 1
    if params[BET_BOUNDS_MODE] == 0.0 or rivals <= 0:
        return UNDECIDED
    seat = own[V.O_SEAT]
    g = _group_of(pub)
    to_call = _to_call(pub, seat)
    state = bet_state(pub, to_call)
    if state < 0:
        return UNDECIDED
    at = BET_BOUNDS0 + (((win_stage(pub) * OWN_BUCKETS + bucket) * RIVALS + rivals - 1)
                        * BET_STATES + state) * 2  # fmt: skip
    least, most = params[at + _LOW], params[at + _HIGH]
    if to_call <= 0:
        bar = 1.0 + params[BET_MARGIN0 + g]
        if most * (rivals + 1) < bar:
            return V.INTENT_PASSIVE
        if least * (rivals + 1) >= bar:
            return V.INTENT_AGGRESSIVE
        return UNDECIDED
    bar = 1.0 + params[RAISE_MARGIN0 + g]
    if least * (rivals + 1) >= bar:
        return V.INTENT_AGGRESSIVE
    if most * (rivals + 1) >= bar:
        return UNDECIDED
    price = params[CALL_FACTOR0 + g] * to_call
    if most * (pub[V.P_POT] + to_call) < price:
        return V.INTENT_FOLD
    if least * (pub[V.P_POT] + to_call) >= price:
        return V.INTENT_PASSIVE
    return UNDECIDED


@jit
def bet_reads(pub, own, params, rng, bucket):
    """Betting intent of a board-reading ``"learned"`` seat whose own cards
    are in strength bucket ``bucket`` (module docstring)."""
    seat = own[V.O_SEAT]
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    p, rivals = reads_equity(pub, seat, params, bucket)
    shown = seat_exposure(pub, seat, revealed) if revealed > 0 else 0
    return _reads_intent(pub, own, params, rng, p, rivals, shown)


@jit(inline="always")
def read_intent(pub, own, params, bucket, exposures):
    """The intent of a seat that does not bluff, own bucket ``bucket``, each
    rival's exposure bucket read from ``exposures[seat]``: the product of
    the rivals' factors, and where the product cuts of its test (bet or
    raise) decide, that; else the estimate from it (module docstring)."""
    seat = own[V.O_SEAT]
    product, rivals = _rivals_product(pub, seat, params, bucket, exposures)
    stage = win_stage(pub)
    if rivals > 0 and params[BET_BOUNDS_MODE] != 0.0:
        g = _group_of(pub)
        to_call = _to_call(pub, seat)
        raising = np.int64(to_call > 0)
        at = BET_CUTS0 + ((((stage * RIVALS + rivals - 1) * _GROUPS + g) * 2 + raising)
                          * 2)  # fmt: skip
        if product >= params[at + _HIGH]:
            return V.INTENT_AGGRESSIVE
        if product < params[at + _LOW]:
            if raising == 0:
                return V.INTENT_PASSIVE
            # no raise: the call's cuts at the bin of its price, where they decide
            price = params[CALL_FACTOR0 + g] * to_call / (pub[V.P_POT] + to_call)
            if price >= 0.0:
                at = CALL_CUTS0 + ((stage * RIVALS + rivals - 1) * CALL_PRICE_BINS
                                   + _price_bin(price)) * 2  # fmt: skip
                if product >= params[at + _HIGH]:
                    return V.INTENT_PASSIVE
                if product < params[at + _LOW]:
                    return V.INTENT_FOLD
    p, rivals = _equity_of(params, stage, rivals, product)
    return _intent_on(pub, seat, params, p, rivals)


@jit(inline="always")
def _price_bin(price):
    """The bin of the call's ``price`` (:data:`~.params.CALL_PRICE_STEP`
    wide, the last holding every price from its start up)."""
    return min(np.int64(price * (1.0 / CALL_PRICE_STEP)), CALL_PRICE_BINS - 1)


@jit(inline="always")
def bet_reads_decided(pub, own, params, rng, bucket, shown):
    """The intent of :func:`bet_reads` where the bluff or the bounds of the
    estimate decide it, else :data:`UNDECIDED` (then :func:`read_intent`'s
    is): the bluff drawn first, the seat showing exposure bucket ``shown``
    (0 before the reveals). Nothing here reads the rivals' exposures, so a
    caller computes them only where this does not decide."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    if _bluffs(params, rng, shown, revealed):
        return V.INTENT_AGGRESSIVE
    return bounded_intent(pub, own, params, bucket)


@jit(inline="always")
def bet_reads_from(pub, own, params, rng, bucket, exposures):
    """:func:`bet_reads` with every seat's exposure bucket read from
    ``exposures[seat]`` (valid once a card is shown), the bluff drawn first,
    and the bounds of the estimate and the cuts of its product read before
    it is computed (module docstring): the same intent. The kernels make
    the same two steps, reading the rivals' exposures from the seats'
    caches only for the second (:func:`~anaconda_sim.strategies.dispatch.seat_bet`)."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    shown = exposures[own[V.O_SEAT]] if revealed > 0 else 0
    intent = bet_reads_decided(pub, own, params, rng, bucket, shown)
    if intent != UNDECIDED:
        return intent
    return read_intent(pub, own, params, bucket, exposures)


def _curve_range(
    curve: np.ndarray, low: np.ndarray, high: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The least and the most of each piecewise linear ``curve`` (rows of
    :data:`~.reads.CURVE_POINTS` points at ``u = (m + 1/2) / CURVE_POINTS``,
    flat beyond the ends) over ``[low, high]``: at an end of the interval
    or at a point inside it."""
    points = (np.arange(CURVE_POINTS) + 0.5) / CURVE_POINTS

    def at(u: np.ndarray) -> np.ndarray:
        x = np.clip(u * CURVE_POINTS - 0.5, 0.0, CURVE_POINTS - 1)
        m = np.minimum(x.astype(np.int64), CURVE_POINTS - 2)
        w = x - m
        left = np.take_along_axis(curve, m[..., None], axis=-1)[..., 0]
        right = np.take_along_axis(curve, m[..., None] + 1, axis=-1)[..., 0]
        return left * (1.0 - w) + right * w

    ends = np.stack([at(low), at(high)], axis=-1)
    inside = (points > low[..., None]) & (points < high[..., None])
    least = np.minimum(ends.min(axis=-1), np.where(inside, curve, np.inf).min(axis=-1))
    most = np.maximum(ends.max(axis=-1), np.where(inside, curve, -np.inf).max(axis=-1))
    return least, most


def fill_bet_bounds(params: np.ndarray) -> None:
    """Write the bounds of the betting's estimate (:data:`~.params.BET_BOUNDS0`,
    :data:`~.params.BET_BOUNDS_SHAPE`) derived from the equity tables in
    ``params``, and set :data:`~.params.BET_BOUNDS_MODE`.

    For each win stage, own bucket ``b``, number of active rivals ``k`` and
    betting state (:func:`bet_state`), the estimate is the curve at ``u``,
    the ``k``-th root of a product of ``k`` factors of the bucket's row: of
    exposure bucket 0 before the reveals (nothing is shown), of any exposure
    later, of the action classes the state allows (R13-R17). Where nobody
    has bet in this round no rival is of class 4 or 5 (bet in this round).
    A seat that faces a bet faces one rival who bet or raised in this round
    (the last to, who is still in), so one of its factors is of class 4 or
    5; facing the round's only bet (no raise), the others are not. Before
    the first pass the round is the deal's first, so no rival bet in an
    earlier one (classes 2, 3 and 5). ``u`` then lies between the root of the
    least such product and the root of the most, and the estimate between
    the least and the most of the curve there; both are widened by a margin
    far beyond the kernel's roundings.

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> from anaconda_sim.strategies.learned.params import BET_BOUNDS_MODE
    >>> float(get_strategy("learned").param_array(6)[BET_BOUNDS_MODE])
    1.0
    """
    tables = params[EQUITY0 : EQUITY0 + EQUITY_SIZE]
    factors = tables[:FACTOR_SIZE].reshape(FACTOR_SHAPE)
    curves = tables[FACTOR_SIZE:].reshape(CURVE_SHAPE)
    stages = FACTOR_SHAPE[0]
    # the factors a rival can read as: exposure 0 before the reveals (stages 0 and 1)
    seen = np.where((np.arange(stages) <= 1)[:, None, None, None]
                    & (np.arange(EXPOSURE_BUCKETS) > 0)[None, None, :, None],
                    np.nan, factors)  # fmt: skip
    k = np.arange(1, RIVALS + 1, dtype=np.float64)[None, :]
    root_low = np.empty((stages, OWN_BUCKETS, RIVALS, BET_STATES))
    root_high = np.empty_like(root_low)
    for stage in range(stages):
        quiet, others, bets = _action_classes(stage)
        for state in range(BET_STATES):
            rest = seen[stage][..., quiet if state < 2 else others]
            low = np.nanmin(rest, axis=(1, 2))[:, None]  # (bucket, 1)
            high = np.nanmax(rest, axis=(1, 2))[:, None]
            if state == 0:  # k factors of the quiet classes
                root_low[stage, ..., state] = np.broadcast_to(low, (OWN_BUCKETS, RIVALS))
                root_high[stage, ..., state] = np.broadcast_to(high, (OWN_BUCKETS, RIVALS))
                continue
            # one factor of a class that bet in this round, k - 1 of the rest
            bet = seen[stage][..., bets]
            low_bet = np.nanmin(bet, axis=(1, 2))[:, None]
            high_bet = np.nanmax(bet, axis=(1, 2))[:, None]
            root_low[stage, ..., state] = (low_bet * low ** (k - 1)) ** (1.0 / k)
            root_high[stage, ..., state] = (high_bet * high ** (k - 1)) ** (1.0 / k)
    root_low = root_low * (1.0 - _ROOT_MARGIN)
    root_high = root_high * (1.0 + _ROOT_MARGIN)
    # the curve of each stage and number of rivals, for every betting state
    curve = np.broadcast_to(curves[:, None, :, None, :],
                            (stages, OWN_BUCKETS, RIVALS, BET_STATES, CURVE_POINTS))  # fmt: skip
    least, most = _curve_range(curve, root_low, root_high)
    bounds = np.stack([least - _ESTIMATE_MARGIN, most + _ESTIMATE_MARGIN], axis=-1)
    assert bounds.shape == BET_BOUNDS_SHAPE
    params[BET_BOUNDS0 : BET_BOUNDS0 + bounds.size] = bounds.ravel()
    params[BET_CUTS0 : BET_CUTS0 + int(np.prod(BET_CUTS_SHAPE))] = _product_cuts(params).ravel()
    params[CALL_CUTS0 : CALL_CUTS0 + int(np.prod(CALL_CUTS_SHAPE))] = _call_cuts(params).ravel()
    params[BET_BOUNDS_MODE] = 1.0


#: action classes (:data:`~.reads.ACTION_CLASS_NAMES`) that bet or raised
#: in the current round, and those that did not
_BET_NOW = [4, 5]
_QUIET_NOW = [0, 1, 2, 3]


def _action_classes(stage: int) -> tuple[list[int], list[int], list[int]]:
    """The action classes a rival can be in at win stage ``stage``: when
    nobody bet in this round (or only the one bettor did, for the others),
    when anyone may have, and those of a rival who bet in it. Before the
    first pass (stage 0) the round is the deal's first, so nobody bet in an
    earlier one."""
    if stage == 0:
        return [0, 1], [0, 1, 4], [4]
    return _QUIET_NOW, _QUIET_NOW + _BET_NOW, _BET_NOW


def _crossings(h: np.ndarray, bar: float) -> tuple[float, float]:
    """For a curve of knot values ``h`` (at ``u = (m + 1/2) / len(h)``,
    linear between, flat beyond), the least ``u`` from which it reaches
    ``bar`` somewhere (below it the curve is below ``bar``; ``inf`` when it
    never does) and the most ``u`` up to which it is below ``bar`` somewhere
    (beyond it the curve is at or above ``bar``; 0 when it always is, ``inf``
    when its last knot is below)."""
    points = (np.arange(len(h)) + 0.5) / len(h)

    def solve(m: int) -> float:
        return float(points[m] + (bar - h[m]) / (h[m + 1] - h[m]) * (points[m + 1] - points[m]))

    first = np.inf
    if h[0] >= bar:
        first = 0.0
    else:
        for m in range(len(h) - 1):
            if h[m + 1] >= bar:
                first = solve(m)
                break
    if h[-1] < bar:
        last = np.inf
    elif (h >= bar).all():
        last = 0.0
    else:
        m = int(np.flatnonzero(h < bar)[-1])
        last = solve(m)
    return first, last


def _product_cuts(params: np.ndarray) -> np.ndarray:
    """The cuts of the product of the rivals' factors (:data:`~.params.BET_CUTS_SHAPE`):
    for each stage, number of rivals ``k``, group and test (its bar ``1 +
    margin``, as the kernel forms it), the product below which ``p (k + 1)``
    is below the bar and the product from which it is at or above it. The
    estimate is the curve at the ``k``-th root of the product, so a cut is
    the ``k``-th power of the root where the curve, times ``k + 1``, first
    reaches a bar lowered by a margin (or last stays below a bar raised by
    it), itself moved away by a relative margin: far beyond the kernel's
    roundings, so an estimate past a cut passes or fails the test alike."""
    curves = params[EQUITY0 + FACTOR_SIZE : EQUITY0 + EQUITY_SIZE].reshape(CURVE_SHAPE)
    margins = (params[BET_MARGIN0 : BET_MARGIN0 + _GROUPS],
               params[RAISE_MARGIN0 : RAISE_MARGIN0 + _GROUPS])  # fmt: skip
    cuts = np.empty(BET_CUTS_SHAPE)
    for stage, k, g, test in np.ndindex(*BET_CUTS_SHAPE[:4]):
        bar = 1.0 + float(margins[test][g])
        h = curves[stage, k] * (k + 2)
        fails, _ = _crossings(h, bar - _ESTIMATE_MARGIN)
        _, passes = _crossings(h, bar + _ESTIMATE_MARGIN)
        cuts[stage, k, g, test] = _cuts_of_roots(fails, passes, k + 1)
    return cuts


def _cuts_of_roots(fails: float, passes: float, rivals: int) -> tuple[float, float]:
    """The cuts of a product of ``rivals`` factors whose root fails a test
    below ``fails`` and passes it above ``passes``: each root moved away by
    the relative margin, raised to the ``rivals``-th power and moved again."""
    below = fails * (1.0 - _ROOT_MARGIN)
    above = passes * (1.0 + _ROOT_MARGIN)
    return below**rivals * (1.0 - _ROOT_MARGIN), above**rivals * (1.0 + _ROOT_MARGIN)


def _call_cuts(params: np.ndarray) -> np.ndarray:
    """The cuts of the product of the rivals' factors for the call test
    (:data:`~.params.CALL_CUTS_SHAPE`): for each stage, number of rivals
    ``k`` and bin of the price (the least estimate that calls, from ``lo``
    to ``hi``; the last bin has no ``hi``), the product below which the
    estimate is below ``lo`` (so below the price: fold) and the product from
    which it is at or above ``hi`` (so at or above it: call). As
    :func:`_product_cuts`, the bars are moved by a margin on the estimate
    and the roots by a relative one, far beyond the roundings of the
    kernel's estimate, of its price and of the test ``p (pot + to_call) >=
    call_factor * to_call`` itself."""
    curves = params[EQUITY0 + FACTOR_SIZE : EQUITY0 + EQUITY_SIZE].reshape(CURVE_SHAPE)
    cuts = np.empty(CALL_CUTS_SHAPE)
    for stage, k, b in np.ndindex(*CALL_CUTS_SHAPE[:3]):
        h = curves[stage, k]
        lo = b * CALL_PRICE_STEP
        fails, _ = _crossings(h, lo - _ESTIMATE_MARGIN)
        passes = np.inf  # the last bin: no price is too high to fold at
        if b < CALL_PRICE_BINS - 1:
            _, passes = _crossings(h, (b + 1) * CALL_PRICE_STEP + _ESTIMATE_MARGIN)
        cuts[stage, k, b] = _cuts_of_roots(fails, passes, k + 1)
    return cuts
