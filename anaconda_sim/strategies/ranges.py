"""What each parameter of a built-in strategy may be: a range, whole
numbers or not, and what the number means; one check that every way of
giving a parameter goes through (:func:`~anaconda_sim.strategies.spec.get_strategy`,
the ``"name:key=value"`` text of the command line, sweeps and histories)."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["ParameterRange", "check_parameter"]


@dataclass(frozen=True)
class ParameterRange:
    """The values a strategy parameter may take: ``low`` to ``high``
    (both included), whole numbers only when ``whole``; ``meaning`` says
    what the number is, for error messages and the documentation.

    Examples
    --------
    >>> bluff = ParameterRange(0.0, 1.0, False, "a probability")
    >>> bluff.describe()
    'a probability, from 0 to 1'
    >>> bluff.admits(0.25), bluff.admits(7.0), bluff.admits(float("nan"))
    (True, False, False)
    """

    low: float
    high: float
    whole: bool
    meaning: str

    def describe(self) -> str:
        """The range in words."""
        kind = "a whole number" if self.whole and "whole" not in self.meaning else ""
        span = f"from {self.low:g} to {self.high:g}"
        return ", ".join(part for part in (self.meaning, kind, span) if part)

    def admits(self, value: float) -> bool:
        """Whether ``value`` is in the range (never NaN or infinite)."""
        if not math.isfinite(value) or not self.low <= value <= self.high:
            return False
        return not self.whole or value == math.floor(value)


def check_parameter(strategy: str, key: str, value: float, allowed: ParameterRange) -> float:
    """``value`` if ``allowed`` admits it, else a one-line :class:`ValueError`
    naming the strategy, the parameter, the value and its range.

    Examples
    --------
    >>> check_parameter("sensible", "bluff", 0.1, ParameterRange(0, 1, False, "a probability"))
    0.1
    >>> check_parameter("sensible", "bluff", 7, ParameterRange(0, 1, False, "a probability"))
    Traceback (most recent call last):
    ...
    ValueError: strategy 'sensible': bluff=7 is outside its range (a probability, from 0 to 1); ...
    """
    if allowed.admits(float(value)):
        return float(value)
    where = "is not a number in" if math.isnan(value) else "is outside"
    raise ValueError(
        f"strategy {strategy!r}: {key}={value:g} {where} its range ({allowed.describe()}); "
        f"choose a value in that range"
    )
