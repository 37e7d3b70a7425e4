"""The argument checks of the public layer: one integer checker, one message style.

Every public function checks its integers here, before any work, so a bad
value gets the same error wherever it is given: the parameter, the value
and the fix (``deals=0 is too small; give deals >= 1``).

* :func:`check_int` refuses ``bool`` (``True`` is not a count), floats
  (``2.0`` and ``2.5`` alike), text and numpy non-integers; it accepts
  ``int`` and numpy integers and returns a plain ``int``.
* :func:`check_players`: a table size, 2 to 7 (R2;
  :data:`~anaconda_sim.limits.MIN_PLAYERS`, :data:`~anaconda_sim.limits.MAX_PLAYERS`).
* :func:`check_deals`: a sample size, at most :data:`~anaconda_sim.limits.MAX_DEALS`
  (what the kernels count exactly in one call).
* :func:`check_deal_index`: a deal's index, 0 to
  :data:`~anaconda_sim.limits.MAX_DEAL_INDEX` (the random streams' range).

Examples
--------
>>> check_int(5, "batch_size", low=1)
5
>>> check_int(True, "batch_size", low=1)
Traceback (most recent call last):
...
TypeError: batch_size=True must be an int, not bool; give batch_size >= 1
>>> check_players(8)
Traceback (most recent call last):
...
ValueError: players=8 is too large: Anaconda is played by 2 to 7 players (R2); give 2 <= ...
"""

from __future__ import annotations

import operator
from typing import Any

from .limits import MAX_DEAL_INDEX, MAX_DEALS, MAX_PLAYERS, MIN_PLAYERS

__all__ = ["check_deal_index", "check_deals", "check_int", "check_players"]


def _bounds(name: str, low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low} <= {name} <= {high}"
    if low is not None:
        return f"{name} >= {low}"
    if high is not None:
        return f"{name} <= {high}"
    return f"{name} as a whole number"


def check_int(
    value: Any,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    why: str | None = None,
    fix: str | None = None,
) -> int:
    """``value`` as a plain ``int`` in ``low..high`` (either end optional), or a clear error.

    Parameters
    ----------
    value
        What the caller gave.
    name
        The parameter's name as the caller wrote it (``"deals"``, ``"dealer"``).
    low, high
        The smallest and largest allowed values, inclusive (``None``: no bound).
    why
        What the bounds mean, said when the value is outside them
        (``"seats are 0..5"``).
    fix
        What to give instead, ending the message (default:
        ``"give LOW <= NAME <= HIGH"``).

    Raises
    ------
    TypeError
        ``value`` is not an integer: a ``bool``, a float (even ``2.0``), text,
        ``None``, a numpy float, anything without ``__index__``.
    ValueError
        ``value`` is below ``low`` or above ``high``.

    Examples
    --------
    >>> import numpy as np
    >>> check_int(np.int32(3), "dealer", low=0, high=5)
    3
    >>> check_int(2.5, "deals", low=1)
    Traceback (most recent call last):
    ...
    TypeError: deals=2.5 must be an int, not float; give deals >= 1
    >>> check_int(-1, "dealer", low=0, high=5, why="seats are 0..5")
    Traceback (most recent call last):
    ...
    ValueError: dealer=-1 is too small: seats are 0..5; give 0 <= dealer <= 5
    """
    fix = fix or f"give {_bounds(name, low, high)}"
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise TypeError(
            f"{name}={value!r} must be an int, not {type(value).__name__}; {fix}"
        ) from None
    side = "small" if low is not None and number < low else None
    side = "large" if high is not None and number > high else side
    if side:
        reason = f": {why}" if why else ""
        raise ValueError(f"{name}={number} is too {side}{reason}; {fix}")
    return int(number)


def check_players(value: Any, name: str = "players") -> int:
    """A table size: an int from 2 to 7 (R2), or a clear error.

    Examples
    --------
    >>> check_players(6)
    6
    >>> check_players("6")
    Traceback (most recent call last):
    ...
    TypeError: players='6' must be an int, not str; give 2 <= players <= 7
    """
    return check_int(
        value, name, low=MIN_PLAYERS, high=MAX_PLAYERS,
        why=f"Anaconda is played by {MIN_PLAYERS} to {MAX_PLAYERS} players (R2)",
    )  # fmt: skip


def check_deals(value: Any, name: str = "deals", *, low: int = 1) -> int:
    """A sample size: an int from ``low`` to :data:`~anaconda_sim.limits.MAX_DEALS`.

    Examples
    --------
    >>> check_deals(0)
    Traceback (most recent call last):
    ...
    ValueError: deals=0 is too small; give deals >= 1
    >>> check_deals(2**63)
    Traceback (most recent call last):
    ...
    ValueError: deals=9223372036854775808 is too large: the kernels count at most 8589934592 deals
    per call; give deals <= 8589934592 or split the run
    """
    number = check_int(value, name, low=low)
    return check_int(
        number, name, high=MAX_DEALS,
        why=f"the kernels count at most {MAX_DEALS} deals per call",
        fix=f"give {name} <= {MAX_DEALS} or split the run",
    )  # fmt: skip


def check_deal_index(value: Any, name: str = "deal_index") -> int:
    """A deal's index in its run: an int from 0 to
    :data:`~anaconda_sim.limits.MAX_DEAL_INDEX` (the random streams' range).

    Examples
    --------
    >>> check_deal_index(-1)
    Traceback (most recent call last):
    ...
    ValueError: deal_index=-1 is too small: the random streams number deals 0 to
    9223372036854775807; give 0 <= deal_index <= 9223372036854775807
    """
    return check_int(
        value, name, low=0, high=MAX_DEAL_INDEX,
        why=f"the random streams number deals 0 to {MAX_DEAL_INDEX}",
    )  # fmt: skip
