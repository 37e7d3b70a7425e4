"""The fast path: the batch simulator and its numba kernels.

:func:`simulate` plays complete deals; :func:`score_choices` scores
alternative choices of one seat on common random numbers. Both are tested
deal by deal against the reference engine (:mod:`anaconda_sim.game`).

Modules
-------
:mod:`~anaconda_sim.sim.simulator`
    The public functions and their result classes, from
    :mod:`~anaconda_sim.sim.simulation` (:func:`simulate`,
    :class:`SimulationResult`) and :mod:`~anaconda_sim.sim.choices`
    (:func:`score_choices`, :class:`ChoiceScores`).
:mod:`~anaconda_sim.sim.driver`
    Input checks, the configuration array, the chunked kernel runs and a
    run's model.
:mod:`~anaconda_sim.sim.layout`
    The name of every slot of every configuration, scratch and accumulator
    array the kernels share with their readers.
:mod:`~anaconda_sim.sim.kernels`
    ``deal`` (complete deals), ``showdown`` (the showdown model of the
    analyses), ``reveal`` (deals from the discard on).
:mod:`~anaconda_sim.sim.models`
    The pass, keep and reveal models of the questions over those kernels.

Public to the layers above: this package, ``simulator``, ``models``, ``spots``,
``records`` and ``layout``; the driver and the kernels are the simulator's
own (``tests/test_architecture.py``).

May import: the top-level modules, :mod:`anaconda_sim.hands`,
:mod:`anaconda_sim.game` (rules and views only), :mod:`anaconda_sim.strategies`.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY = {name: "simulator" for name in ("ChoiceScores", "SimulationResult", "score_choices",
                                         "simulate")}  # fmt: skip
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
