"""Settlement of a hi-lo pot (R24, R25): who takes the high half, who the low half.

One numba function, :func:`split_hilo`, arrays in and arrays out, so the
reference engine and the batch simulator settle a hi-lo showdown with the
same code (the simulator calls its allocation-free core,
:func:`split_hilo_seats`, on columns of its result array). It never
validates (callers pass seats that reached the showdown, each with a
declaration).

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

__all__ = ["SWING_FAILED", "WON_HIGH", "WON_LOW", "split_hilo", "split_hilo_seats"]

#: ``flags`` bit: the seat won or tied the high half
WON_HIGH = 1
#: ``flags`` bit: the seat won or tied the low half
WON_LOW = 2
#: ``flags`` bit: the seat declared both and did not win or tie both halves
SWING_FAILED = 4


@jit(inline="always")
def _share_half(n, values, contest, dealer, half, payout, flags, bit):
    """Give ``half`` chips to the best ``values`` among the seats in the bit
    mask ``contest`` (R19 split, R20 odd chips clockwise from the dealer's left)."""
    best = np.int64(-1)
    winners = 0
    for s in range(n):
        if (contest >> s) & 1:
            v = np.int64(values[s])
            if v > best:
                best = v
                winners = 1
            elif v == best:
                winners += 1
    share = half // winners
    odd = half - share * winners
    seat = dealer
    for _ in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        if (contest >> seat) & 1 and np.int64(values[seat]) == best:
            payout[seat] += share + (1 if odd > 0 else 0)
            odd -= 1
            flags[seat] |= bit


@jit
def split_hilo_seats(n, high, low, declarations, active, dealer, pot, payout, flags):
    """:func:`split_hilo` for seats ``0 .. n - 1`` with the seats at the
    showdown given as the bit mask ``active`` (bit ``s``: seat ``s``).

    The arrays may be longer than ``n`` or strided (columns of a larger
    array); nothing is allocated. :func:`split_hilo` is this function with
    ``n = len(high)`` and the mask of its ``active`` array.
    """
    best_high = np.int64(-1)
    best_low = np.int64(-1)
    for s in range(n):
        payout[s] = 0
        flags[s] = 0
        if (active >> s) & 1:
            d = declarations[s]
            if d != DECLARE_LOW and np.int64(high[s]) > best_high:
                best_high = np.int64(high[s])
            if d != DECLARE_HIGH and np.int64(low[s]) > best_low:
                best_low = np.int64(low[s])
    # R24: a swinger beaten on either side by any declarer of that side fails
    survivors = 0
    for s in range(n):
        if (active >> s) & 1:
            if declarations[s] == DECLARE_BOTH and (
                np.int64(high[s]) < best_high or np.int64(low[s]) < best_low
            ):
                flags[s] = SWING_FAILED
            else:
                survivors += 1
    contest_high = 0  # bit masks of the seats contesting each half
    contest_low = 0
    for s in range(n):
        # [decision] when every seat failed its swing, the swing rule is set aside
        if (active >> s) & 1 and (flags[s] == 0 or survivors == 0):
            d = declarations[s]
            if d != DECLARE_LOW:
                contest_high |= 1 << s
            if d != DECLARE_HIGH:
                contest_low |= 1 << s
    if survivors == 0:
        for s in range(n):
            flags[s] = 0
    # R25: an uncontested side gives the whole pot to the other; odd chip to high
    if contest_low == 0:
        high_half = pot
    elif contest_high == 0:
        high_half = 0
    else:
        high_half = pot - pot // 2
    if high_half > 0:
        _share_half(n, high, contest_high, dealer, high_half, payout, flags, WON_HIGH)
    if pot - high_half > 0:
        _share_half(n, low, contest_low, dealer, pot - high_half, payout, flags, WON_LOW)
    return high_half


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
    mask = 0
    for s in range(n):
        if active[s]:
            mask |= 1 << s
    return split_hilo_seats(n, high, low, declarations, mask, dealer, pot, payout, flags)
