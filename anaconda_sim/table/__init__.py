"""The table both engines play at: the rules of a deal and what each seat sees.

This is the contract below the reference engine (:mod:`anaconda_sim.game`),
the batch simulator (:mod:`anaconda_sim.sim`) and the strategies: both
engines fill the same seat views (:mod:`~anaconda_sim.table.views`) under
the same :class:`Rules`, and every strategy decides from those views alone.

Modules
-------
:mod:`~anaconda_sim.table.rules`
    :class:`Rules` and its presets.
:mod:`~anaconda_sim.table.views`
    The ``pub``/``own`` arrays a strategy decides from.

May import: the top-level modules and :mod:`anaconda_sim.hands`.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY = {
    "BICYCLE": "rules",
    "HILO": "rules",
    "PAGAT": "rules",
    "Rules": "rules",
}
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
