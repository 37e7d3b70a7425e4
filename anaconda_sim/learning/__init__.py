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
    :func:`learn`: the learning loop (iterated best response).
:mod:`~anaconda_sim.learning.tables`
    The tables the loop fits to and their regret; :func:`estimate_win_table`.
:mod:`~anaconda_sim.learning.betting`
    The betting search (a coordinate search against a population field).
:mod:`~anaconda_sim.learning.betexploit`
    :func:`betting_exploitability`.
:mod:`~anaconda_sim.learning.equity`
    :func:`estimate_equity`: the board-reading equity estimate's tables, by
    simulating a field (``python -m anaconda_sim.learning.equity OUT`` against
    any field).
:mod:`~anaconda_sim.learning.reliability`
    :func:`calibration`: an equity estimate's reliability table on fresh deals.
:mod:`~anaconda_sim.learning.readfit`
    The default ``"learned"``'s betting fitted with its equity tables
    (``python -m anaconda_sim.learning.readfit`` regenerates the shipped ones).
:mod:`~anaconda_sim.learning.showfit`
    The reveal order's show table and the discard's keep table fitted with
    the equity tables (:func:`~anaconda_sim.learning.showfit.fit_show`).
:mod:`~anaconda_sim.learning.fieldfit`
    :func:`learn_field`: the default field learned whole (pass, discard and
    order, betting, equity tables), each change kept only when a confirmed,
    Bonferroni-corrected paired gain says so, with a stopping rule and
    checkpoints (``python -m anaconda_sim.learning.fieldfit``).
:mod:`~anaconda_sim.learning.family`
    Strategies of the learned family from parameter vectors; child seeds.

Regenerate the shipped vectors with ``python -m anaconda_sim.learning``.

May import: everything below it (the top-level modules, :mod:`anaconda_sim.hands`,
:mod:`anaconda_sim.table`, :mod:`anaconda_sim.strategies`, :mod:`anaconda_sim.game`,
:mod:`anaconda_sim.sim`, :mod:`anaconda_sim.analysis`).
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY = {
    "LearnResult": "fit",
    "betting_exploitability": "betexploit",
    "estimate_win_table": "tables",
    "exploitability": "exploit",
    "learn": "fit",
    "learn_field": "fieldfit",
    "FieldFit": "fieldfit",
    "calibration": "reliability",
    "estimate_equity": "equity",
    "EquityTables": "equity",
}
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
