"""The one request shape of the analyses: how many deals, the seed, how the
run goes and how the table shows its cards, validated once.

:func:`~anaconda_sim.analysis.pass_values`,
:func:`~anaconda_sim.analysis.discard_values`,
:func:`~anaconda_sim.analysis.reveal_values`,
:func:`~anaconda_sim.analysis.declare_values` and
:func:`~anaconda_sim.analysis.equity` take these keywords as keywords (as
they always have) or as one :class:`Request` (``request=``), which can be
built once and given to several analyses. The analyses' registry
(:mod:`~anaconda_sim.analysis.registry`) and the command line read the
keywords and their defaults from here. This module imports nothing heavy.

Examples
--------
>>> request = Request(deals=4000, seed=1)
>>> request.deals, request.unicode
(4000, True)
>>> Request(deals=100, precision=0.01)
Traceback (most recent call last):
...
ValueError: give deals= or precision=, not both
>>> Request.of(None, {"deal": 100}, "pass_values")
Traceback (most recent call last):
...
TypeError: pass_values() got an unexpected keyword argument 'deal'; the sampling keywords are ...
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..checks import check_deals, check_int
from ..limits import DEFAULT_DEALS, DEFAULT_MAX_DEALS

if TYPE_CHECKING:
    from .driver import Sampling

__all__ = ["Request"]


@dataclass(frozen=True)
class Request:
    """The sampling and table keywords every analysis takes, validated.

    Attributes
    ----------
    deals
        Deals to run (``None``: :data:`~anaconda_sim.limits.DEFAULT_DEALS`,
        unless ``precision`` is given).
    precision
        Run until every row's standard error is below this (at most
        ``max_deals`` deals) instead of a fixed number of deals.
    max_deals
        The cap of a ``precision`` run.
    seed
        The same seed gives the same table (an int, a
        ``numpy.random.SeedSequence`` or ``None`` for a fresh one).
    batch_size
        Deals per batch (``None``: the analysis's own); the numbers do not
        depend on it.
    threads
        numba threads for the call (``None``: as set); the numbers do not
        depend on it.
    progress
        A progress line: ``None`` on a terminal for a run of more than two
        seconds, ``True`` always, ``False`` never (:mod:`anaconda_sim.progress`).
    unicode
        Cards in the table as ``Q♠`` (``True``) or ``Qs``.
    """

    deals: int | None = None
    precision: float | None = None
    max_deals: int = DEFAULT_MAX_DEALS
    seed: Any = None
    batch_size: int | None = None
    threads: int | None = None
    progress: bool | None = None
    unicode: bool = True

    def __post_init__(self) -> None:
        if self.deals is not None and self.precision is not None:
            raise ValueError("give deals= or precision=, not both")
        if self.precision is not None:
            precision = self.precision
            if isinstance(precision, bool) or not isinstance(precision, numbers.Real):
                raise TypeError(f"precision={precision!r} must be a positive number")
            if not precision > 0 or not math.isfinite(precision):
                raise ValueError(f"precision={precision} must be a positive standard error")
            self._set("precision", float(precision))
            self._set("max_deals", check_deals(self.max_deals, "max_deals"))
        elif self.deals is not None:
            self._set("deals", check_deals(self.deals, low=2))  # an SE needs two deals
        if self.batch_size is not None:
            self._set("batch_size", check_int(self.batch_size, "batch_size", low=1))
        if self.progress is not None and not isinstance(self.progress, bool):
            raise TypeError(f"progress={self.progress!r} must be True, False or None (automatic)")
        if not isinstance(self.unicode, bool):
            raise TypeError(f"unicode={self.unicode!r} must be True (Q♠) or False (Qs)")
        if self.threads is not None:
            self._set("threads", check_int(self.threads, "threads", low=1))

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)  # a checked value, in its plain type

    @classmethod
    def keywords(cls) -> dict[str, Any]:
        """The keywords and their defaults, in order (what the registry lists)."""
        return {f.name: f.default for f in dataclasses.fields(cls)}

    @classmethod
    def of(cls, request: Request | None, keywords: Mapping[str, Any], function: str) -> Request:
        """The request of a call to ``function``: ``request`` or the keywords given.

        Unknown keywords are refused as Python refuses them, naming the
        accepted ones; a request and keywords together are refused.
        """
        known = cls.keywords()
        unknown = [name for name in keywords if name not in known]
        if unknown:
            raise TypeError(
                f"{function}() got an unexpected keyword argument {unknown[0]!r}; the sampling "
                f"keywords are {', '.join(known)}"
            )
        if request is None:
            return cls(**keywords)
        if not isinstance(request, Request):
            raise TypeError(f"request={request!r} must be an anaconda_sim.analysis.Request")
        if keywords:
            raise TypeError(
                f"give request= or the sampling keywords ({', '.join(keywords)}), not both; "
                "use request.replace(...) to change a request"
            )
        return request

    def replace(self, **changes: Any) -> Request:
        """A copy with ``changes`` (checked again).

        Examples
        --------
        >>> Request(deals=1000, seed=3).replace(seed=4).seed
        4
        """
        return dataclasses.replace(self, **changes)

    def fixed_deals(self, function: str, default: int) -> int:
        """The deals of a function that draws a fixed number of them (a spot's
        :func:`~anaconda_sim.spots.action_values`): ``deals`` or its own
        ``default``; a ``precision``, ``max_deals`` or ``batch_size`` it could
        not honour is refused, not ignored.

        Examples
        --------
        >>> Request(seed=1).fixed_deals("action_values", 10_000)
        10000
        >>> Request(precision=0.1).fixed_deals("action_values", 10_000)
        Traceback (most recent call last):
        ...
        ValueError: action_values draws a fixed number of deals: give the request deals=, not ...
        """
        unused = [name for name in ("precision", "batch_size") if getattr(self, name) is not None]
        unused += ["max_deals"] if self.max_deals != DEFAULT_MAX_DEALS else []
        if unused:
            raise ValueError(
                f"{function} draws a fixed number of deals: give the request deals=, not "
                f"{', '.join(unused)}"
            )
        return default if self.deals is None else self.deals

    @property
    def limit(self) -> int:
        """The number of deals to run: ``deals``, else ``max_deals`` with a
        ``precision``, else :data:`~anaconda_sim.limits.DEFAULT_DEALS`."""
        if self.precision is not None:
            return self.max_deals
        return DEFAULT_DEALS if self.deals is None else self.deals

    def sampling(self) -> Sampling:
        """The run this request asks for (:class:`~anaconda_sim.analysis.driver.Sampling`:
        the deal limit, the root key of the random streams...)."""
        from ..rng import root_key  # late: loads numba (the random streams' keys)
        from .driver import Sampling  # late: loads numba and pandas (the analyses' driver)

        return Sampling(self.limit, self.precision or 0.0, self.seed, root_key(self.seed),
                        self.batch_size, self.progress, self.unicode, self.threads)  # fmt: skip
