"""What a seat reads from the table: the board-reading equity estimate.

A seat's *equity* here is its probability of winning the pot at a showdown
against the rivals still in, given everything it may see at a betting
decision (RULES.md, Information): its own cards, what each active rival
shows (R11 groups, four suited, four to a straight), how many rivals are
in, the round, and what each rival did this deal (who bet or raised in
which round, who called). The estimate has two tables, estimated by
simulating a field (:func:`anaconda_sim.learning.estimate_equity`):

- the **factor table** ``F[stage, own, exposure, action]``
  (:data:`FACTOR_SHAPE`): how often a hand of own-strength bucket ``own``
  (:data:`~.winprob.OWN_BUCKET`) ends up beating one rival that shows
  exposure bucket ``exposure`` (:func:`~.winprob.exposure_bucket`) and whose
  betting so far is of class ``action`` (:func:`action_class`), at stage
  ``stage`` (:func:`~.winprob.win_stage`; a tie counts half);
- the **curve table** ``C[stage, rivals - 1, point]`` (:data:`CURVE_SHAPE`):
  the observed probability of winning the pot as a function of the
  geometric mean ``u`` of the active rivals' factors, at
  :data:`CURVE_POINTS` points ``u = (m + 1/2) / CURVE_POINTS``, read by
  linear interpolation (flat beyond the first and last point).

The product of the factors alone would treat the rivals as independent and
their final hands as fixed; the curve maps it, per stage and number of
rivals, to the rate of winning actually observed, which is what makes the
estimate calibrated (:func:`anaconda_sim.analysis.calibration`).

Everything here reads only ``pub`` (the public table) and the seat's own
bucket, so the reference engine and the kernels compute the same number.
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit
from ...table import views as V
from ...table.rules import REVEAL_ROUNDS
from .params import (
    ACTION_CLASSES,
    CURVE_POINTS,
    CURVE_SHAPE,
    EQUITY_SIZE,
    EXPOSURE_BUCKETS,
    FACTOR_SHAPE,
    FACTOR_SIZE,
    OWN_BUCKETS,
    RIVALS,
)
from .winprob import seat_exposure, win_stage

__all__ = [
    "ACTION_CLASSES",
    "ACTION_CLASS_NAMES",
    "CURVE_POINTS",
    "CURVE_SHAPE",
    "EQUITY_SIZE",
    "FACTOR_SHAPE",
    "action_class",
    "action_flags",
    "equity_estimate",
    "equity_rows",
    "factor_mean",
    "table_reads",
]

#: classes of what one rival did this deal before the decision (:func:`action_class`)
ACTION_CLASS_NAMES = (
    "checked only",  # never bet, raised or called
    "called",  # called at least once, never bet or raised
    "bet one earlier round",  # bet or raised in exactly one earlier round, not in this one
    "bet earlier rounds",  # bet or raised in two or more earlier rounds, not in this one
    "bet this round",  # bet or raised in this round, in no earlier one
    "bet this and earlier",  # bet or raised in this round and in an earlier one
)
assert len(ACTION_CLASS_NAMES) == ACTION_CLASSES
#: the first slot of the curve table in an equity array (the factor table first)
CURVE0 = FACTOR_SIZE

#: bits of one seat in :func:`action_flags` (the table's betting summary):
#: a bit per betting round in which it bet or raised, then one bit for a call
_SEAT_BITS = V.SUMMARY_SEAT_BITS
_CALLED_BIT = V.SUMMARY_CALLED_BIT
_ROUND_MASK = (1 << _CALLED_BIT) - 1
# 7 seats x 9 bits fit in an int64
assert (RIVALS + 1) * _SEAT_BITS <= 63
_summary_bit = jit(inline="always")(V.summary_bit)
_summary_words = jit(inline="always")(V.summary_words)
_stored_summary = jit(inline="always")(V.stored_summary)


@jit(inline="always")
def action_flags(pub):
    """Every seat's betting so far this deal as one int64, the table's
    betting summary (:func:`~anaconda_sim.table.views.summary_bit`): bits
    ``9 * seat + r`` (``r < 8``) set when the seat bet or raised in betting
    round ``r``, bit ``9 * seat + 8`` when it called.

    The summary of the log's first ``pub[P_SUMMARY_LEN]`` entries is kept in
    ``pub[P_SUMMARY]``: only the entries logged since are read, and the
    summary of the whole log is written back (the log only grows within a
    deal, and a new deal's table starts with none summed up)."""
    length = pub[V.P_LOG_LEN]
    done = pub[V.P_SUMMARY_LEN]
    flags = np.int64(0)
    if 0 < done <= length:
        flags = np.int64(_stored_summary(pub))
    else:
        done = 0
    if done < length:
        for i in range(done, length):
            flags |= _summary_bit(np.int64(pub[V.P_LOG + i]))
        low, high = _summary_words(flags)
        pub[V.P_SUMMARY] = low
        pub[V.P_SUMMARY + 1] = high
        pub[V.P_SUMMARY_LEN] = length
    return flags


@jit(inline="always")
def action_class(flags, seat, rnd):
    """The class (:data:`ACTION_CLASS_NAMES`) of ``seat``'s betting in
    ``flags`` (:func:`action_flags`) seen from betting round ``rnd``."""
    bits = (flags >> (_SEAT_BITS * seat)) & ((1 << _SEAT_BITS) - 1)
    now_bit = np.int64(1) << min(rnd, _CALLED_BIT - 1)
    earlier = bits & _ROUND_MASK & (now_bit - 1)
    # earlier rounds bet or raised in: none, one (one bit set) or more
    if bits & now_bit:
        return 4 if earlier == 0 else 5
    if earlier != 0:
        return 3 if (earlier & (earlier - 1)) != 0 else 2
    return 1 if (bits >> _CALLED_BIT) & 1 else 0


@jit(inline="always")
def table_reads(pub, me, exposures, actions):
    """What seat ``me`` reads of each active rival: its exposure bucket into
    ``exposures[k]`` and its action class into ``actions[k]``, ``k`` counting
    the active rivals in seat order. Returns the number of active rivals."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    rnd = pub[V.P_ROUND]
    flags = action_flags(pub)
    k = 0
    for seat in range(pub[V.P_PLAYERS]):
        if seat == me or pub[V.P_FOLDED + seat] != 0:
            continue
        e = seat_exposure(pub, seat, revealed) if revealed > 0 else 0
        exposures[k] = e
        actions[k] = action_class(flags, seat, rnd)
        k += 1
    return k


@jit(inline="always")
def curve_value(tables, t0, stage, rivals, u):
    """The curve of ``stage`` and ``rivals`` at ``u``, linearly interpolated."""
    row = t0 + CURVE0 + (stage * RIVALS + rivals - 1) * CURVE_POINTS
    x = u * CURVE_POINTS - 0.5
    if x <= 0.0:
        return tables[row]
    if x >= CURVE_POINTS - 1:
        return tables[row + CURVE_POINTS - 1]
    m = int(x)
    w = x - m
    return tables[row + m] * (1.0 - w) + tables[row + m + 1] * w


@jit(inline="always")
def factor_mean(tables, t0, stage, bucket, rivals, exposures, actions):
    """The geometric mean ``u`` of the active rivals' factors (module
    docstring): the product of the factor table's entries, to the power
    ``1 / rivals``."""
    row = t0 + stage * (OWN_BUCKETS * EXPOSURE_BUCKETS * ACTION_CLASSES) + bucket * (
        EXPOSURE_BUCKETS * ACTION_CLASSES)  # fmt: skip
    product = 1.0
    for k in range(rivals):
        product *= tables[row + exposures[k] * ACTION_CLASSES + actions[k]]
    return product if rivals == 1 else product ** (1.0 / rivals)


@jit(inline="always")
def equity_from_reads(tables, t0, stage, bucket, rivals, exposures, actions):
    """The equity estimate (module docstring) from what a seat read: the
    geometric mean of the rivals' factors through the curve of the stage and
    the number of rivals (certain with no rival left)."""
    if rivals == 0:
        return 1.0
    u = factor_mean(tables, t0, stage, bucket, rivals, exposures, actions)
    return curve_value(tables, t0, stage, rivals, u)


@jit
def equity_rows(tables, stage, bucket, rivals, exposures, actions, u, p):
    """:func:`equity_from_reads` of every row of a
    :class:`~anaconda_sim.sim.decisions.DecisionRows`' columns, into ``p``,
    and each row's factor mean into ``u``."""
    for r in range(stage.shape[0]):
        k = rivals[r]
        u[r] = factor_mean(tables, 0, stage[r], bucket[r], k, exposures[r], actions[r])
        p[r] = curve_value(tables, 0, stage[r], k, u[r])


@jit
def equity_estimate(pub, own, tables, t0, bucket):
    """The estimated equity of the seat ``own`` whose own cards are in
    strength bucket ``bucket``, from the equity tables at ``tables[t0:]``
    (module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from anaconda_sim.table import views as V
    >>> pub, own = V.new_pub(), V.new_own(0)
    >>> pub[V.P_PLAYERS] = 3
    >>> tables = np.full(EQUITY_SIZE, 0.5)
    >>> float(equity_estimate(pub, own, tables, 0, 4))
    0.5
    """
    exposures = np.empty(RIVALS, dtype=np.int64)
    actions = np.empty(RIVALS, dtype=np.int64)
    rivals = table_reads(pub, own[V.O_SEAT], exposures, actions)
    return equity_from_reads(tables, t0, win_stage(pub), bucket, rivals, exposures, actions)
