"""The readable oracle: the rules, what each seat may see, the reference
engine, hand histories, bots and sessions.

Everything here is plain Python and follows ``docs/rules.md`` move by move;
it is the ground truth the batch simulator (:mod:`anaconda_sim.sim`) is
tested against deal by deal.

Modules
-------
:mod:`~anaconda_sim.game.rules`
    :class:`Rules` and its presets.
:mod:`~anaconda_sim.game.views`
    The ``pub``/``own`` arrays a strategy decides from (shared with the
    kernels: the one contract both engines fill identically).
:mod:`~anaconda_sim.game.engine`
    :class:`Game`, the state machine (R3-R20).
:mod:`~anaconda_sim.game.history`
    :class:`History`: JSON, replay and readable text.
:mod:`~anaconda_sim.game.play`
    Bots and :func:`play_deal`.
:mod:`~anaconda_sim.game.session`
    :class:`Session`: deal after deal with chip stacks.

May import: the top-level modules, :mod:`anaconda_sim.hands`,
:mod:`anaconda_sim.strategies`.
"""

from __future__ import annotations

from .._lazy import lazy_exports

#: public name -> module that defines it (imported on first use: the rules
#: alone need nothing heavy; play and sessions need the random streams)
_LAZY = {
    "BICYCLE": "rules",
    "HILO": "rules",
    "PAGAT": "rules",
    "Action": "engine",
    "Declaration": "engine",
    "Game": "engine",
    "History": "history",
    "HistoryError": "history",
    "HistoryFormatError": "history",
    "Observation": "engine",
    "Phase": "engine",
    "ReplayMismatchError": "history",
    "Rules": "rules",
    "Session": "session",
    "play_deal": "play",
    "replay": "engine",
}
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
