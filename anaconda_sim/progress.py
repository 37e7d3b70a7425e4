"""The one progress bar of every long run: simulations, analyses and sweeps.

:func:`progress_bar` gives a tqdm bar, or a bar that shows nothing when
progress is off, so callers update and close it the same way either way.
``enabled=None`` (automatic) waits ``delay`` seconds before showing
anything, so a short run prints nothing.

Examples
--------
>>> with progress_bar(10, "deals", enabled=False) as bar:
...     bar.update(10)
"""

from __future__ import annotations

from typing import Any

__all__ = ["AUTO_DELAY", "progress_bar"]

#: seconds an automatic bar waits before it shows (short runs print nothing)
AUTO_DELAY = 2.0


class _NoBar:
    """What a run updates when progress is off."""

    def update(self, _count: int) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *_exc: object) -> None:
        pass


def progress_bar(
    total: int, desc: str, *, enabled: bool | None = None, unit: str = "deal",
    initial: int = 0, **options: Any,
) -> Any:  # fmt: skip
    """A bar for ``total`` units named ``desc``: tqdm's, or one that shows nothing.

    ``enabled``: ``True`` shows the bar at once, ``None`` after
    :data:`AUTO_DELAY` seconds, ``False`` never (no tqdm is loaded).
    ``options`` go to tqdm (``leave``, ``unit_scale``, ``smoothing``...).
    The bar is a context manager and has ``update(count)`` and ``close()``.
    """
    if enabled is False:
        return _NoBar()
    from tqdm.auto import tqdm

    options.setdefault("delay", 0.0 if enabled else AUTO_DELAY)
    return tqdm(total=total, initial=initial, unit=unit, desc=desc, **options)
