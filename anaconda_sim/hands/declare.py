"""The three declarations of the hi-lo showdown (R22), as small ints.

Plain constants (no numba), so the seat views (:mod:`anaconda_sim.table.views`,
which re-exports them), the reference engine, the strategies and the numba
kernels all use one encoding.

Examples
--------
>>> DECLARE_NAMES[DECLARE_LOW], DECLARE_NAMES.index("both") == DECLARE_BOTH
('low', True)
"""

from __future__ import annotations

__all__ = ["DECLARE_BOTH", "DECLARE_HIGH", "DECLARE_LOW", "DECLARE_NAMES", "NO_DECLARATION"]

#: contests the high half only
DECLARE_HIGH = 0
#: contests the low half only
DECLARE_LOW = 1
#: contests both halves ("swing"): must win or tie both, or wins nothing (R24)
DECLARE_BOTH = 2
#: names by code
DECLARE_NAMES: tuple[str, ...] = ("high", "low", "both")
#: a seat that has not declared (folded, or before the declaration)
NO_DECLARATION = -1
