"""The batch simulator: millions of complete deals, with error bars (the
public face of :mod:`~anaconda_sim.sim.simulation` and
:mod:`~anaconda_sim.sim.choices`).

:func:`simulate` plays complete deals of Anaconda under any
:class:`~anaconda_sim.table.rules.Rules` (2 to 7 players, the default rules or
Bicycle's) with one strategy per seat, and returns per-seat estimates with
standard errors (:class:`SimulationResult`). :func:`score_choices` scores
several alternative choices of one seat (which cards to pass, which two to
discard, in which order to reveal) on identical deals and identical random
numbers for everyone else (common random numbers), so the differences
between choices are far more precise than the values themselves
(:class:`ChoiceScores`).

How it runs
-----------
Each deal ``d`` of a run uses its own random streams (stream 0 of deal ``d``
for the cards, stream ``1 + seat`` for each seat's decisions;
:mod:`anaconda_sim.rng`), exactly as the reference engine does
(:func:`anaconda_sim.game.play.play_deal`), so any deal can be replayed there and
gives the same moves. Deals are played by a numba kernel in batches with
``prange``; every batch adds into its own row of integer accumulators, which
are summed afterwards. Integer sums are exact, so the results are identical
for any batch size and any number of threads. The run is streamed from
Python in chunks (memory does not grow with the number of deals): a
progress bar can update between chunks, and Ctrl-C stops the run cleanly
after the current chunk, returning what finished (``interrupted=True``).

The dealer button moves one seat clockwise per deal (R6): deal ``d`` has
dealer ``(dealer + d) % n`` (``rotate=False`` keeps it fixed).

Examples
--------
>>> from anaconda_sim.sim.simulator import simulate
>>> result = simulate(4, "sensible", deals=2000, seed=1, progress=False)
>>> result.deals, len(result.mean_net)
(2000, 4)
>>> abs(float(result.mean_net.sum())) < 1e-9   # chips only change hands
True
>>> result.to_frame().columns[:6].tolist()
['seat', 'strategy', 'deals', 'value', 'se', 'ci_low']
"""

from __future__ import annotations

from .choices import ChoiceScores, score_choices
from .simulation import POT_QUANTILES, SimulationResult, simulate

__all__ = ["POT_QUANTILES", "ChoiceScores", "SimulationResult", "score_choices", "simulate"]
