"""Spots: any decision of any deal under way.

Given a game state (a :class:`~anaconda_sim.game.Game`, or a hand history
and a move number) and the field's strategy:

:func:`spot_of`
    What the deciding seat knows: its cards and packets, the board, and
    every decision its rivals took (:class:`Spot`).
:func:`rival_posterior`
    The rivals' hidden cards drawn from their posterior given all of that,
    with importance weights and their effective sample size.
:func:`action_values`
    The value in chips of every legal choice at the spot, with standard
    errors, paired differences from the best and ``p_best``.

May import every layer below :mod:`anaconda_sim.analysis` and that layer
(``tests/test_architecture.py``).
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY = {
    "Spot": "state",
    "spot_of": "state",
    "ImpossibleSpotError": "posterior",
    "Posterior": "posterior",
    "rival_posterior": "posterior",
    "action_values": "values",
}
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
