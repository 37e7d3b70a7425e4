"""The lock of a results folder: one sweep at a time writes to it.

The lock is the file ``.lock`` in the folder, created with
``O_CREAT | O_EXCL`` (atomic: of two sweeps starting together exactly one
creates it; this also holds on NFS) and holding a one-line JSON record of the
sweep that holds it: pid, host name, start time and a random token. The
sweep removes it when it ends (normally, on an error or on Ctrl-C).

A sweep killed outright (SIGKILL, power cut) leaves its lock behind. Such a
lock is *stale* when it was taken on this host and its pid no longer runs,
or when its record cannot be read and the file is older than
:data:`UNREADABLE_AFTER` seconds: the next sweep takes it over with a
:class:`~anaconda_sim.sweep.errors.SweepWarning`. A lock of a running pid,
or of another host (whose pids cannot be checked from here), is respected:
the error names the holder and the file to delete if no sweep runs there.
On Windows, where a pid cannot be probed safely, every lock is respected.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SweepError, SweepWarning, write_error

__all__ = ["LOCK", "UNREADABLE_AFTER", "FolderLock", "pid_running"]

LOCK = ".lock"
#: seconds after which a lock file whose record cannot be read is stale (its
#: sweep died between creating the file and writing the record)
UNREADABLE_AFTER = 30.0
_ATTEMPTS = 5


@dataclass(frozen=True)
class _Holder:
    """What a lock file says about the sweep holding it."""

    raw: bytes
    age: float
    pid: int | None = None
    host: str | None = None
    started: str | None = None
    token: str | None = None

    def describe(self) -> str:
        if self.pid is None:
            return "its lock record cannot be read"
        return f"pid {self.pid} on {self.host}, since {self.started}"


def pid_running(pid: int) -> bool:
    """Whether process ``pid`` runs on this host (``True`` when it cannot be told).

    Examples
    --------
    >>> pid_running(os.getpid())
    True
    """
    if pid <= 0:
        return False
    if sys.platform == "win32":  # pragma: no cover - os.kill would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it runs, as another user
        return True
    return True


def _read_holder(path: Path) -> _Holder | None:
    """The lock file's record; ``None`` when the file is gone."""
    try:
        raw = path.read_bytes()
        age = time.time() - path.stat().st_mtime
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SweepError(
            f"cannot read the lock file {str(path)!r}: {error}; if no sweep is writing to this "
            "folder, delete it"
        ) from None
    try:
        record: Any = json.loads(raw.decode("utf-8"))
        return _Holder(raw, age, int(record["pid"]), str(record["host"]),
                       str(record["started"]), str(record["token"]))  # fmt: skip
    except (ValueError, KeyError, TypeError):
        return _Holder(raw, age)


def _stale(holder: _Holder) -> str | None:
    """Why the holder's lock is stale; ``None`` when it may still be running."""
    if holder.pid is None:
        if holder.age > UNREADABLE_AFTER:
            return f"its lock record cannot be read and is {holder.age:.0f} s old"
        return None
    if holder.host != socket.gethostname() or pid_running(holder.pid):
        return None
    return f"pid {holder.pid} on {holder.host}, started {holder.started}, is not running"


def _break(path: Path, holder: _Holder) -> bool:
    """Remove a stale lock unless another sweep got there first.

    The lock is renamed aside (atomic: one sweep wins), then its bytes are
    compared with the stale record read before: a fresh lock taken in between
    is put back.
    """
    aside = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return False  # another sweep removed it first
    except OSError as error:
        raise SweepError(
            f"cannot remove the stale lock {str(path)!r}: {error}; delete it by hand"
        ) from None
    try:
        if aside.read_bytes() != holder.raw:  # a sweep took the lock meanwhile
            with contextlib.suppress(OSError):
                os.link(aside, path)
            return False
        return True
    finally:
        with contextlib.suppress(OSError):
            aside.unlink()


def _held(folder: Path, path: Path, holder: _Holder) -> SweepError:
    return SweepError(
        f"another sweep is writing to {str(folder)!r} right now ({holder.describe()}; lock "
        f"file {str(path)!r}); wait for it to finish, or use another --out folder. If no "
        f"sweep is running there, delete {str(path)!r}"
    )


class FolderLock:
    """The lock on a results folder, held by this process until :meth:`release`.

    Examples
    --------
    >>> import tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> lock = FolderLock.acquire(Path(tmp.name))
    >>> FolderLock.acquire(Path(tmp.name))
    Traceback (most recent call last):
    ...
    anaconda_sim.sweep.errors.SweepError: another sweep is writing to '...' right now ...
    >>> lock.release()
    >>> FolderLock.acquire(Path(tmp.name)).release()
    >>> tmp.cleanup()
    """

    def __init__(self, path: Path, token: str) -> None:
        self.path = path
        self.token = token

    @classmethod
    def acquire(cls, folder: Path, *, stacklevel: int = 2) -> FolderLock:
        """Take the lock of ``folder``, taking over a stale one (with a warning).

        Raises
        ------
        SweepError
            When a running sweep holds it, or the lock file cannot be written.
        """
        path = folder / LOCK
        token = secrets.token_hex(8)
        started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        record = {"pid": os.getpid(), "host": socket.gethostname(), "started": started,
                  "token": token}  # fmt: skip
        data = (json.dumps(record) + "\n").encode()
        for _ in range(_ATTEMPTS):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                holder = _read_holder(path)
                if holder is None:
                    continue  # released meanwhile: try again
                stale = _stale(holder)
                if stale is None:
                    raise _held(folder, path, holder) from None
                if _break(path, holder):
                    warnings.warn(
                        f"took over the lock {str(path)!r} of a sweep that is no longer "
                        f"running ({stale}); its finished units are kept",
                        SweepWarning, stacklevel=stacklevel + 1,
                    )  # fmt: skip
                continue
            except OSError as error:
                raise write_error("the lock file", path, error) from None
            _write_record(fd, path, data)
            return cls(path, token)
        raise SweepError(
            f"cannot take the lock {str(path)!r}: other sweeps keep taking it; wait for them "
            "to finish, or use another --out folder"
        )

    def release(self) -> None:
        """Remove the lock file if it is still this lock's (idempotent)."""
        try:
            holder = _read_holder(self.path)
        except SweepError:
            return
        if holder is not None and holder.token == self.token:
            with contextlib.suppress(OSError):
                self.path.unlink()


def _write_record(fd: int, path: Path, data: bytes) -> None:
    """Write the lock record into the new lock file (removed again on error)."""
    try:
        view = memoryview(data)
        while len(view):
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError as error:
        with contextlib.suppress(OSError):
            path.unlink()
        raise write_error("the lock file", path, error) from None
    finally:
        os.close(fd)
