"""The readable oracle: the rules, what each seat may see, the reference
engine, hand histories, bots and sessions.

Everything here is plain Python and follows ``docs/rules.md`` move by move;
it is the ground truth the batch simulator (:mod:`anaconda_sim.sim`) is
tested against deal by deal.

The rules and the seat views it fills live one layer down, in
:mod:`anaconda_sim.table`, because the batch simulator fills the same views.

Modules
-------
:mod:`~anaconda_sim.game.engine`
    :class:`Game`, the state machine (R3-R20).
:mod:`~anaconda_sim.game.history`
    :class:`History`: JSON and readable text.
:mod:`~anaconda_sim.game.replayer`
    :func:`replay`: a history played again through the engine, every event
    checked.
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
    "Action": "engine",
    "Declaration": "engine",
    "Game": "engine",
    "History": "history",
    "HistoryError": "history",
    "HistoryFormatError": "history",
    "Observation": "engine",
    "Phase": "engine",
    "ReplayMismatchError": "history",
    "Session": "session",
    "play_deal": "play",
    "load_history": "replayer",
    "replay": "replayer",
    "verify": "replayer",
}
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
