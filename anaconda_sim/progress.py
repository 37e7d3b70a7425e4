"""The one progress line of every long run: simulations, analyses, sweeps,
exploitability and the first call's compiles.

:func:`progress_bar` gives a bar that callers update and close the same way
whether it shows or not. What shows is one line on the terminal at a time:

- ``enabled=None`` (automatic) shows a bar only when standard error is a
  terminal, and only once the run has lasted :data:`AUTO_DELAY` seconds, so
  a short run prints nothing and a pipe or a log (``anaconda-sim run
  2>log``) gets no bar and no cursor codes. ``ANACONDA_SIM_PROGRESS=1``
  asks for the bars on a pipe or a log too, ``=0`` switches them off.
  ``enabled=True`` shows the bar at once, wherever standard error goes;
  ``False`` never (no tqdm is loaded).
- A bar opened while another one shows does not open a second line: it
  speaks on the line already there (``reveal orders · compiling the reveal
  kernels 2/4``) and gives it back, as it was, when it closes.
- The line is redrawn twice a second, so its clock runs while a step that
  reports nothing (a kernel compiling) takes its time.
- :func:`watch_compiles` puts numba's first-call compiles on the line
  (``compiling kernels (first call; cached for later calls)``): a first
  call that spends a minute compiling says so.
- A bar closed with ``leave=False`` (the default) clears its line; every
  bar closes when its ``with`` block ends, errors and Ctrl-C included.

Examples
--------
>>> with progress_bar(10, "deals", enabled=False) as bar:
...     bar.update(10)
>>> shows(None) in (True, False)
True
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from typing import Any

__all__ = ["AUTO_DELAY", "progress_bar", "shows", "watch_compiles"]

#: seconds an automatic bar waits before it shows (short runs print nothing)
AUTO_DELAY = 2.0
#: seconds between two redraws of a line that shows
TICK = 0.5
#: seconds between two compiles that make them one session (a first call
#: compiles its kernels one after another: one count and one clock for all)
COMPILE_GRACE = 1.0
#: the environment variable that asks for bars on a pipe or a log (1) or for none (0)
PROGRESS_VARIABLE = "ANACONDA_SIM_PROGRESS"

_ON = {"1", "true", "yes", "on", "always"}
_OFF = {"0", "false", "no", "off", "never"}

#: every line and phase is changed under this lock (the redraw thread changes
#: them too)
_LOCK = threading.RLock()
#: the lines open, the one showing last (only the last one draws)
_LINES: list[_Line] = []


def shows(enabled: bool | None) -> bool:
    """Whether a bar with this ``enabled`` setting shows at all.

    ``True`` and ``False`` are taken as given; ``None``: when standard
    error is a terminal, unless ``ANACONDA_SIM_PROGRESS`` says otherwise.
    """
    if enabled is not None:
        return bool(enabled)
    setting = os.environ.get(PROGRESS_VARIABLE, "").strip().lower()
    if setting in _ON:
        return True
    if setting in _OFF:
        return False
    try:
        return bool(sys.stderr is not None and sys.stderr.isatty())
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


class _NoBar:
    """What a run updates when progress is off."""

    def update(self, _count: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *_exc: object) -> None:
        pass


class _Line:
    """One line on standard error: a tqdm bar made once the line is due
    (after its delay), redrawn by a thread so its clock runs."""

    def __init__(self, total: int | None, desc: str, unit: str, initial: int, delay: float,
                 compiling: bool, options: dict[str, Any]) -> None:  # fmt: skip
        self.total, self.desc, self.unit = total, desc, unit
        self.n = initial
        self.delay = delay
        self.compiling = compiling
        self.options = options
        self.phases: list[_Phase] = []
        self.started = time.time()
        self.bar: Any = None
        self.closed = False
        self._stop = threading.Event()
        _LINES.append(self)
        if delay <= 0:
            self._show()
        self._thread = threading.Thread(target=self._tick, name="anaconda-sim progress",
                                        daemon=True)  # fmt: skip
        self._thread.start()

    def _text(self) -> str:
        return " · ".join([self.desc, *(p.text() for p in self.phases)])

    def _show(self) -> None:
        """Make the tqdm bar (under the lock), its clock started with the line."""
        from tqdm.auto import tqdm

        self.bar = tqdm(total=self.total, initial=self.n, desc=self._text(), unit=self.unit,
                        delay=0.0, **self.options)  # fmt: skip
        self.bar.start_t = self.started
        self.bar.refresh()

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            with _LOCK:
                if self.closed or _LINES[-1:] != [self]:
                    continue
                if self.bar is None:
                    if time.time() - self.started >= self.delay:
                        self._show()
                else:
                    self.bar.refresh()

    def redraw(self) -> None:
        with _LOCK:
            if self.bar is not None:
                self.bar.set_description_str(self._text(), refresh=False)
                self.bar.refresh()

    def update(self, count: int = 1) -> None:
        with _LOCK:
            self.n += count
            if self.bar is not None:
                self.bar.update(count)

    def close(self) -> None:
        with _LOCK:
            if self.closed:
                return
            self.closed = True
            self._stop.set()
            for phase in list(self.phases):
                phase.closed = True
            self.phases.clear()
            if self.bar is not None:
                self.bar.close()
            _LINES.remove(self)
        if threading.current_thread() is not self._thread:
            self._thread.join()

    def __enter__(self) -> _Line:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class _Phase:
    """A bar opened while a line shows: a part of that line's text."""

    def __init__(self, line: _Line, total: int | None, desc: str, unit: str, initial: int,
                 compiling: bool) -> None:  # fmt: skip
        self.line, self.total, self.desc, self.unit = line, total, desc, unit
        self.n = initial
        self.compiling = compiling
        self.closed = False
        line.phases.append(self)
        line.redraw()

    def text(self) -> str:
        if self.total is None:
            return self.desc if not self.n else f"{self.desc} {self.n} {self.unit}s"
        return f"{self.desc} {self.n}/{self.total}"

    def update(self, count: int = 1) -> None:
        with _LOCK:
            self.n += count
            if not self.closed:
                self.line.redraw()

    def close(self) -> None:
        with _LOCK:
            if self.closed:
                return
            self.closed = True
            if self in self.line.phases:
                self.line.phases.remove(self)
                self.line.redraw()

    def __enter__(self) -> _Phase:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def progress_bar(
    total: int | None, desc: str, *, enabled: bool | None = None, unit: str = "deal",
    initial: int = 0, compiling: bool = False, **options: Any,
) -> Any:  # fmt: skip
    """A bar for ``total`` units (``None``: a count without an end) named
    ``desc``: a line on standard error, a part of the line already showing,
    or nothing.

    ``enabled``: ``True`` shows the bar at once, ``None`` on a terminal
    after :data:`AUTO_DELAY` seconds (``delay=`` changes the wait),
    ``False`` never (see :func:`shows`). ``compiling``: the bar counts
    kernels being compiled (the compile watcher then adds nothing to it).
    ``options`` go to tqdm (``leave``, ``unit_scale``...); ``leave`` is
    ``False`` unless given. The bar is a context manager and has
    ``update(count)`` and ``close()``.
    """
    if not shows(enabled):
        return _NoBar()
    delay = float(options.pop("delay", 0.0 if enabled else AUTO_DELAY))
    options.setdefault("leave", False)
    with _LOCK:
        if _LINES:
            return _Phase(_LINES[-1], total, desc, unit, initial, compiling)
        return _Line(total, desc, unit, initial, delay, compiling, options)


class _CompileWatcher:
    """numba's compile events put on the progress line: one line (or one
    part of the line showing) while kernels compile. A run of compiles (each
    starting within :data:`COMPILE_GRACE` seconds of the last one's end) is
    one session: its line counts the session's kernels and its clock runs
    from the session's first compile, so many short compiles that add up to
    a long wait show too; the line is cleared as soon as no kernel compiles,
    so nothing the program prints meets a stale line."""

    def __init__(self) -> None:
        self.depth = 0
        self.bar: Any = None
        self.session = 0.0
        self.last_end = -math.inf
        self.count = 0
        self.installed = False

    def start(self) -> None:
        with _LOCK:
            self.depth += 1
            if self.depth > 1:
                return
            now = time.time()
            if now - self.last_end > COMPILE_GRACE:
                self.session, self.count = now, 0
            if _LINES and (_LINES[-1].compiling or any(p.compiling for p in _LINES[-1].phases)):
                return  # a compile bar counts these kernels already
            self.bar = progress_bar(None, "compiling kernels (first call; cached for later calls)",
                                    unit="kernel", initial=self.count,
                                    compiling=True)  # fmt: skip
            if isinstance(self.bar, _Line):
                self.bar.started = self.session  # the session's clock, and its delay

    def end(self) -> None:
        with _LOCK:
            self.depth = max(self.depth - 1, 0)
            self.count += 1
            if self.bar is not None:
                self.bar.update(1)
            if self.depth == 0:
                self.last_end = time.time()
                if self.bar is not None:
                    self.bar.close()
                    self.bar = None


_WATCHER = _CompileWatcher()


def watch_compiles() -> None:
    """Show numba's compiles on the progress line, from now on in this
    process (once; later calls do nothing). The module that sets up the
    package's kernels calls it: every first-call compile of more than
    :data:`AUTO_DELAY` seconds shows a line on a terminal."""
    with _LOCK:
        if _WATCHER.installed:
            return
        _WATCHER.installed = True
    from numba.core import event

    class _Listener(event.Listener):  # type: ignore[misc]
        def on_start(self, _event: Any) -> None:
            _WATCHER.start()

        def on_end(self, _event: Any) -> None:
            _WATCHER.end()

    event.register("numba:compile", _Listener())
