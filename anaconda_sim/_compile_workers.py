"""The compile workers: interpreters ready to compile kernels on the other cores.

:func:`anaconda_sim.warmup.compile_on_all_cores` hands a round of kernels to
every core. A worker is a fresh interpreter (``python -m
anaconda_sim._compile_workers``, never a fork: a fork would run the caller's
``__main__`` again) and starting one costs about a second and a half
(Python, numba, the package's tables) before it compiles anything. So:

- **Started before they are needed.** A process that finds the kernel cache
  empty (a new installation, a new version of the sources: the first call
  will compile everything) starts its workers when the package's kernel
  module is imported (:func:`prestart`), so they import while the caller
  prepares its call and are waiting when the first round comes.
- **Kept for the next round.** A worker serves round after round and quits
  when its caller closes its input (the caller ended) or after
  :data:`IDLE_SECONDS` without work.
- **Each kernel to whoever is free.** A round is one list of kernels, the
  heaviest first; the caller and every worker walk it and each compiles the
  kernels it is the first to claim (:func:`claim`: a file made exclusively
  in the round's folder), so no core waits while another has work.

The cache's own lock keeps two processes from compiling the same kernel
(:mod:`anaconda_sim._numba`): one that reaches a kernel another is
compiling waits and loads it.
"""

from __future__ import annotations

import atexit
import importlib
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

__all__ = [
    "COMPILE_LOG", "IDLE_SECONDS", "Worker", "claim", "cores", "log_compiles", "prestart",
    "take_workers",
]  # fmt: skip

#: seconds a worker waits for a round before it quits
IDLE_SECONDS = 120.0

#: names a file: every process of the package (the caller and its compile
#: workers, who inherit it) appends a line per kernel it compiles there
#: (:func:`log_compiles`), for ``benchmarks/bench_cold_start.py --timeline``
COMPILE_LOG = "ANACONDA_SIM_COMPILE_LOG"

#: set in a worker's environment: its own imports never start workers
WORKER_FLAG = "ANACONDA_SIM_COMPILE_WORKER"

#: imported by a worker while it waits: where every deal kernel lives
PRELOADED = ("anaconda_sim.sim.kernels.batch",)

#: one kernel of a round: ``(module, function name, argument types)``
Wire = tuple[str, str, tuple[Any, ...]]

_HEADER = struct.Struct("<Q")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def claim(folder: str, index: int) -> bool:
    """Whether this process is the first to claim kernel ``index`` of the round
    whose folder is ``folder`` (made by whoever calls first, atomically).

    Examples
    --------
    >>> import tempfile
    >>> from anaconda_sim._compile_workers import claim
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     claim(folder, 0), claim(folder, 0), claim(folder, 1)
    (True, False, True)
    """
    try:
        os.close(os.open(os.path.join(folder, str(index)), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


class Worker:
    """One compile worker: a child interpreter serving rounds (module docstring)."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        env.setdefault("NUMBA_NUM_THREADS", "1")
        env[WORKER_FLAG] = "1"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "anaconda_sim._compile_workers"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        )  # fmt: skip

    def alive(self) -> bool:
        return self.process.poll() is None

    def send(self, folder: str, wires: Sequence[Wire]) -> bool:
        """Hand the worker a round; False if it has quit."""
        payload = pickle.dumps((folder, list(wires)))
        stdin = self.process.stdin
        try:
            assert stdin is not None
            stdin.write(_HEADER.pack(len(payload)) + payload)
            stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def wait(self) -> int:
        """Wait for the round to end; the kernels the worker compiled (0 if it died)."""
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            line = stdout.readline()
            if not line:
                return 0
            words = line.split()
            if len(words) == 2 and words[0] == b"done":
                return int(words[1])

    def close(self) -> None:
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:  # pragma: no cover - already gone
            pass


_LOCK = threading.Lock()
_POOL: list[Worker] = []


def _close_all() -> None:
    for worker in _POOL:
        worker.close()


atexit.register(_close_all)


def take_workers(count: int) -> list[Worker]:
    """``count`` workers for a round: the waiting ones first, new ones for the rest."""
    with _LOCK:
        _POOL[:] = [worker for worker in _POOL if worker.alive()]
        while len(_POOL) < count:
            _POOL.append(Worker())
        return _POOL[:count]


def prestart(cache_folder: str | None, enabled: bool) -> int:
    """Start the workers now if this process will compile everything: the kernel
    cache ``cache_folder`` holds no compiled kernel yet (a new installation or
    a new version of the sources). Returns how many were started. Nothing in
    a worker, with workers switched off (``enabled`` false), on one core or
    with a cache that has kernels in it (a call then starts its workers when
    it has a round for them)."""
    if not enabled or cache_folder is None or os.environ.get(WORKER_FLAG) or cores() < 2:
        return 0
    folder = Path(cache_folder)
    if folder.is_dir() and any(folder.rglob("*.nbi")):
        return 0
    started = len(take_workers(cores() - 1))
    return started


def log_compiles(path: str | None) -> bool:
    """Append a line ``pid start end kernel`` (seconds since the epoch, so the
    lines of several processes share one clock) to the file ``path`` for each
    kernel this process compiles from now on, its callees compiled inside it
    counted in it; nothing when ``path`` is empty. Returns whether it logs.
    The package's kernel module calls it with :data:`COMPILE_LOG`'s value.

    Examples
    --------
    >>> from anaconda_sim._compile_workers import log_compiles
    >>> log_compiles(None)
    False
    """
    if not path:
        return False
    import time

    target: str = path
    from numba.core import event

    depth = [0]
    started = [0.0]

    class _Logger(event.Listener):  # type: ignore[misc]
        def on_start(self, _event: Any) -> None:
            if depth[0] == 0:
                started[0] = time.time()
            depth[0] += 1

        def on_end(self, event_: Any) -> None:
            depth[0] -= 1
            if depth[0] == 0:
                name = event_.data["dispatcher"].py_func.__qualname__
                with open(target, "a", encoding="utf-8") as log:
                    log.write(f"{os.getpid()} {started[0]:.3f} {time.time():.3f} {name}\n")

    event.register("numba:compile", _Logger())
    return True


def _read(stream: BinaryIO, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _serve(stdin: BinaryIO, stdout: BinaryIO) -> None:  # pragma: no cover - in the workers
    for module in PRELOADED:
        try:
            importlib.import_module(module)
        except Exception:  # a round imports what it needs anyway
            pass
    while True:
        ready, _, _ = select.select([stdin], [], [], IDLE_SECONDS)
        if not ready:
            return
        header = _read(stdin, _HEADER.size)
        if header is None:
            return
        payload = _read(stdin, _HEADER.unpack(header)[0])
        if payload is None:
            return
        folder, wires = pickle.loads(payload)
        compiled = 0
        for index, (module, name, signature) in enumerate(wires):
            if claim(folder, index):
                try:
                    getattr(importlib.import_module(module), name).compile(signature)
                    compiled += 1
                except Exception:  # the caller compiles what a worker could not
                    pass
        stdout.write(b"done %d\n" % compiled)
        stdout.flush()


def _main() -> None:  # pragma: no cover - in the workers
    # the answers go to a copy of standard output; anything an import prints
    # goes to standard error, which the caller discards
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    _serve(sys.stdin.buffer, answers)


if __name__ == "__main__":  # pragma: no cover
    _main()
