"""Settlement of a hi-lo pot (R24, R25): who takes the high half, who the low half.

One numba function, :func:`split_hilo`, arrays in and arrays out, so the
reference engine and the batch simulator settle a hi-lo showdown with the
same code. It never validates (callers pass seats that reached the showdown,
each with a declaration).

The rules it implements
-----------------------
* **R24** The pot splits into a high half and a low half. The high half goes
  to the best high hand among seats that declared high or both, the low half
  to the best low hand among seats that declared low or both. A seat that
  declared both must win or tie both halves against every other declarer of
  each side (other swingers included, all judged at once); otherwise it
  wins nothing and the halves are decided again without it.
* **R25** If nobody contests one side, the whole pot goes to the other. An
  odd chip between the halves goes to the high half. Ties within a half
  split it (R19), the chips left over going one each to the tied winners in
  clockwise order from the dealer's left (R20).
* **[decision]** When every seat at the showdown declared both and every one
  of them failed (each beaten on one side by another swinger), nobody is
  left to take the pot; the swing rule is then set aside and the halves are
  decided among them as if each had declared both successfully (the best
  high takes the high half, the best low the low half).
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from .declare import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW

__all__ = ["SWING_FAILED", "WON_HIGH", "WON_LOW", "split_hilo"]

#: ``flags`` bit: the seat won or tied the high half
WON_HIGH = 1
#: ``flags`` bit: the seat won or tied the low half
WON_LOW = 2
#: ``flags`` bit: the seat declared both and did not win or tie both halves
SWING_FAILED = 4


@jit
def _share_half(values, contest, dealer, half, payout, flags, bit):
    """Give ``half`` chips to the best ``values`` among seats with ``contest``
    (R19 split, R20 odd chips clockwise from the dealer's left)."""
    n = values.shape[0]
    best = np.int64(-1)
    winners = 0
    for s in range(n):
        if contest[s]:
            v = np.int64(values[s])
            if v > best:
                best = v
                winners = 1
            elif v == best:
                winners += 1
    share = half // winners
    odd = half - share * winners
    for i in range(n):
        s = (dealer + 1 + i) % n
        if contest[s] and np.int64(values[s]) == best:
            payout[s] += share + (1 if odd > 0 else 0)
            odd -= 1
            flags[s] |= bit


@jit
def split_hilo(high, low, declarations, active, dealer, pot, payout, flags):
    """Settle a hi-lo pot of ``pot`` chips among the seats at the showdown (R24, R25).

    Parameters
    ----------
    high, low
        Per seat (length n, any integer dtype): high values (evaluator, higher
        is better) and low values (:mod:`~anaconda_sim.hands.low`, higher is
        a better low). Only active seats are read.
    declarations
        Per seat: ``DECLARE_HIGH`` (0), ``DECLARE_LOW`` (1) or
        ``DECLARE_BOTH`` (2) (:mod:`~anaconda_sim.hands.declare`); only
        active seats are read.
    active
        Per seat: non-zero for the seats at the showdown (at least one).
    dealer
        The dealer seat (odd chips go clockwise from its left, R20).
    pot
        Chips to share.
    payout
        Output (int64, length n): chips each seat takes from the pot
        (overwritten; 0 for every other seat). They sum to ``pot``.
    flags
        Output (int64, length n): bits :data:`WON_HIGH`, :data:`WON_LOW`,
        :data:`SWING_FAILED` (overwritten).

    Returns
    -------
    int
        The chips of the high half (``pot`` when nobody contests low, 0 when
        nobody contests high).

    Examples
    --------
    >>> import numpy as np
    >>> from anaconda_sim.hands.declare import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW
    >>> high = np.array([7000, 3000, 5000]); low = np.array([10, 6000, 5000])
    >>> decl = np.array([DECLARE_HIGH, DECLARE_LOW, DECLARE_BOTH]); active = np.ones(3, np.int64)
    >>> payout = np.zeros(3, np.int64); flags = np.zeros(3, np.int64)
    >>> split_hilo(high, low, decl, active, 0, 9, payout, flags)  # seat 2 swung and failed
    5
    >>> payout.tolist(), flags.tolist()
    ([5, 4, 0], [1, 2, 4])
    """
    n = high.shape[0]
    best_high = np.int64(-1)
    best_low = np.int64(-1)
    for s in range(n):
        payout[s] = 0
        flags[s] = 0
        if active[s]:
            d = declarations[s]
            if d != DECLARE_LOW and np.int64(high[s]) > best_high:
                best_high = np.int64(high[s])
            if d != DECLARE_HIGH and np.int64(low[s]) > best_low:
                best_low = np.int64(low[s])
    # R24: a swinger beaten on either side by any declarer of that side fails
    survivors = 0
    for s in range(n):
        if active[s]:
            if declarations[s] == DECLARE_BOTH and (
                np.int64(high[s]) < best_high or np.int64(low[s]) < best_low
            ):
                flags[s] = SWING_FAILED
            else:
                survivors += 1
    contest_high = np.zeros(n, np.bool_)
    contest_low = np.zeros(n, np.bool_)
    any_high = False
    any_low = False
    for s in range(n):
        # [decision] when every seat failed its swing, the swing rule is set aside
        if active[s] and (flags[s] == 0 or survivors == 0):
            d = declarations[s]
            contest_high[s] = d != DECLARE_LOW
            contest_low[s] = d != DECLARE_HIGH
            any_high |= contest_high[s]
            any_low |= contest_low[s]
    if survivors == 0:
        for s in range(n):
            flags[s] = 0
    # R25: an uncontested side gives the whole pot to the other; odd chip to high
    if not any_low:
        high_half = pot
    elif not any_high:
        high_half = 0
    else:
        high_half = pot - pot // 2
    if high_half > 0:
        _share_half(high, contest_high, dealer, high_half, payout, flags, WON_HIGH)
    if pot - high_half > 0:
        _share_half(low, contest_low, dealer, pot - high_half, payout, flags, WON_LOW)
    return high_half
