"""The registry of strategy families: what the code outside the kernels needs
to know of each, in one line per family.

The kernels reach a family's decisions through
:mod:`~anaconda_sim.strategies.dispatch`; the spot samplers and other Python
code read the facts below instead of branching on kinds, so adding a family
is its module, its branch in the dispatch and its line here.

Examples
--------
>>> family_of_kind(KIND_CALL_DOWN).passive_betting
True
>>> [f.name for f in FAMILIES if V.D_PASS in f.free_decisions]
['random', 'random-pass']
"""

from __future__ import annotations

from dataclasses import dataclass

from ..table import views as V
from .kinds import (
    KIND_CALL_DOWN,
    KIND_CUSTOM,
    KIND_LEARNED,
    KIND_RANDOM,
    KIND_RANDOM_PASS,
    KIND_SENSIBLE,
)

__all__ = ["FAMILIES", "Family", "family_of_kind"]


@dataclass(frozen=True)
class Family:
    """What a strategy family is, to the code around its decisions.

    Attributes
    ----------
    name
        The family's name (a strategy spec's family).
    kind
        Its ``KIND_*`` code in the kernels.
    free_decisions
        The decisions (``views.D_*``) whose probability does not depend on
        the cards held: drawn uniformly or read off the public table. A
        spot's posterior over hidden cards skips them (a constant factor).
    passive_betting
        It only ever checks or calls, whatever it holds.
    reads_packets
        Its decisions may read which of its cards it received in a pass or
        passed (the built-in families read only the cards held).
    """

    name: str
    kind: int
    free_decisions: tuple[int, ...] = ()
    passive_betting: bool = False
    reads_packets: bool = False


#: every family, built-in first, then the user's own code (``custom``)
FAMILIES: tuple[Family, ...] = (
    Family("random", KIND_RANDOM, (V.D_BET, V.D_PASS, V.D_DISCARD)),
    Family("call-down", KIND_CALL_DOWN, (V.D_BET,), passive_betting=True),
    Family("random-pass", KIND_RANDOM_PASS, (V.D_BET, V.D_PASS), passive_betting=True),
    Family("sensible", KIND_SENSIBLE),
    Family("learned", KIND_LEARNED),
    Family("custom", KIND_CUSTOM, reads_packets=True),
)
_BY_KIND = {family.kind: family for family in FAMILIES}


def family_of_kind(kind: int) -> Family:
    """The family of a ``KIND_*`` code."""
    return _BY_KIND[int(kind)]
