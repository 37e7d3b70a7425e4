"""Strong, self-consistent opponents: the ``"learned"`` strategy family
(:mod:`~anaconda_sim.learned.params`, :mod:`~anaconda_sim.learned.play`) and
its learning by iterated best response (:func:`learn`)."""

from __future__ import annotations

from typing import Any

__all__ = ["betting_exploitability", "learn"]


def __getattr__(name: str) -> Any:
    # the learning loop imports the analyses; the strategy kernels must not
    if name in __all__:
        from . import fit

        return getattr(fit, name)
    raise AttributeError(f"module 'anaconda_sim.learned' has no attribute {name!r}")
