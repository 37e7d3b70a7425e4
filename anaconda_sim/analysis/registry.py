"""Every analysis kind in one table: its name, its function and its options.

The command line (one subcommand per kind), the main job and sweeps (the
``kind`` of a spec) read this table instead of writing their own list of
kinds. It imports nothing heavy: the ``anaconda-sim`` parser is built from it
without loading numba, pandas or the analyses themselves; a kind's function
is imported only when :meth:`AnalysisKind.load` is called.

Each kind states the keyword-only options of its function, in signature
order, with their defaults, then the sampling keywords every analysis
takes, read from :class:`~anaconda_sim.analysis.request.Request`;
``tests/cli/test_registry.py`` checks them against the real signatures, so
the two cannot drift apart.

Examples
--------
>>> kind("pass").function
'anaconda_sim.analysis.passes:pass_values'
>>> kind("reveal").options["betting"]
True
>>> [k.name for k in KINDS if k.sweep]
['equity', 'pass', 'discard', 'reveal']
>>> kind("fold")
Traceback (most recent call last):
...
ValueError: 'fold' is not an analysis; use one of equity, pass, discard, reveal, declare
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..limits import DEFAULT_DEALS
from .request import Request

__all__ = ["DEFAULT_DEALS", "KINDS", "NAMES", "SAMPLING", "AnalysisKind", "kind"]


#: the sampling keywords every analysis takes last, with their defaults (the
#: fields of :class:`~anaconda_sim.analysis.request.Request`)
SAMPLING: Mapping[str, Any] = MappingProxyType(Request.keywords())


@dataclass(frozen=True)
class AnalysisKind:
    """One analysis: what the command line, the main job and sweeps know of it.

    Attributes
    ----------
    name
        The subcommand (``anaconda-sim pass``) and the sweep ``kind``.
    function
        ``"module:function"``, the public function that runs it.
    summary
        One line: what it scores (the subcommand's help).
    hand
        What its ``hand`` argument is.
    hand_sizes
        The numbers of cards ``hand`` may hold.
    options
        The function's keyword-only options, in signature order, with
        their defaults.
    sweep
        Whether sweeps run it.
    chart
        The name of its chart in :mod:`anaconda_sim.output.plots`.
    """

    name: str
    function: str
    summary: str
    hand: str
    hand_sizes: tuple[int, ...]
    options: Mapping[str, Any]
    sweep: bool
    chart: str

    @property
    def function_name(self) -> str:
        """The function's name (``"pass_values"``)."""
        return self.function.partition(":")[2]

    @property
    def module(self) -> str:
        """The function's module (``"anaconda_sim.analysis.passes"``)."""
        return self.function.partition(":")[0]

    def load(self) -> Callable[..., Any]:
        """Import the function (this loads numba, pandas and the kernels)."""
        function: Callable[..., Any] = getattr(importlib.import_module(self.module),
                                               self.function_name)  # fmt: skip
        return function


def _options(*named: tuple[str, Any]) -> Mapping[str, Any]:
    """The options of a kind: ``named`` in signature order, then :data:`SAMPLING`."""
    return MappingProxyType(dict(named) | dict(SAMPLING))


_SEATS = (("known", None), ("hero", "learned"), ("opponents", "learned"))

#: every analysis kind; sweeps list theirs in this order
KINDS: tuple[AnalysisKind, ...] = (
    AnalysisKind(
        "equity", "anaconda_sim.analysis.discards:equity",
        "showdown equity of a hand at its stage",
        "seven cards (at the deal or after the pass) or five", (7, 5),
        _options(("rules", "pagat"), ("passed", None), ("received", None), *_SEATS),
        True, "plot_equity",
    ),
    AnalysisKind(
        "pass", "anaconda_sim.analysis.passes:pass_values",
        "value of each of the 35 passes of a 7-card hand",
        'seven cards, e.g. "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"', (7,),
        _options(("rules", "pagat"), *_SEATS, ("betting", False), ("confirm", 0)),
        True, "plot_pass_values",
    ),
    AnalysisKind(
        "discard", "anaconda_sim.analysis.discards:discard_values",
        "value of each of the 21 discards after the pass",
        "the seven cards held after the pass", (7,),
        _options(("rules", "pagat"), ("passed", None), ("received", None), *_SEATS,
                 ("confirm", 0), ("fold", True)),
        True, "plot_discard_values",
    ),
    AnalysisKind(
        "reveal", "anaconda_sim.analysis.reveal:reveal_values",
        "value of each of the 120 reveal orders of five",
        "the five cards kept", (5,),
        _options(("rules", "pagat"), ("by", None), ("discards", None), ("passed", None),
                 ("received", None), *_SEATS, ("betting", True), ("dealer", None),
                 ("confirm", 0), ("fold", True)),
        True, "plot_reveal_values",
    ),
    AnalysisKind(
        "declare", "anaconda_sim.analysis.declare:declare_values",
        "hi-lo: value of declaring high, low or both with five",
        "the five cards kept", (5,),
        _options(("rules", "hi-lo"), ("order", None), *_SEATS[1:], ("betting", True)),
        False, "plot_declare_values",
    ),
)  # fmt: skip

#: the kinds' names, in :data:`KINDS` order
NAMES: tuple[str, ...] = tuple(k.name for k in KINDS)
_BY_NAME = {k.name: k for k in KINDS}


def kind(name: str) -> AnalysisKind:
    """The analysis kind called ``name``, or a clear error."""
    found = _BY_NAME.get(name)
    if found is None:
        raise ValueError(f"{name!r} is not an analysis; use one of {', '.join(NAMES)}")
    return found
