"""How much a strategy gives away, and learning one that gives away less.

:func:`exploitability` measures one seat's best one-decision deviation (its
pass, discard or reveal order) against a field playing a strategy;
:func:`betting_exploitability` does the same for its betting, within the
strategy's own parameter family; :func:`learn` fits the ``"learned"``
family by iterated best response on both. They ask their questions of the
analyses' models (:mod:`anaconda_sim.analysis`) and the batch simulator.

Modules
-------
:mod:`~anaconda_sim.learning.exploit`
    :func:`exploitability` and the situations it scores.
:mod:`~anaconda_sim.learning.fit`
    :func:`learn`, :func:`betting_exploitability`, :func:`estimate_win_table`.

Regenerate the shipped vectors with ``python -m anaconda_sim.learning``.

May import: everything below it (the top-level modules, :mod:`anaconda_sim.hands`,
:mod:`anaconda_sim.table`, :mod:`anaconda_sim.strategies`, :mod:`anaconda_sim.game`,
:mod:`anaconda_sim.sim`, :mod:`anaconda_sim.analysis`).
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY = {
    "LearnResult": "fit",
    "betting_exploitability": "fit",
    "estimate_win_table": "fit",
    "exploitability": "exploit",
    "learn": "fit",
}
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
