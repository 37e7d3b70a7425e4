"""The results folder of a sweep: a Parquet dataset written unit by unit.

Layout::

    results/
      manifest.json           the spec, its hash, the number of units
      units/unit-000000.parquet
      units/unit-000001.parquet
      ...

A unit's file appears only when the unit is finished: it is written to a
temporary file in the same folder, flushed to disk, then renamed over its
final name (``os.replace``, atomic). A sweep killed at any moment leaves
finished units and, at worst, a temporary file that the next run deletes;
never a partial unit file. Running the same spec into the folder again
resumes: finished units are skipped. A different spec is refused. While a
sweep runs it holds a lock on the folder, so two runs cannot write to it at
once.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .spec import SweepSpec, Unit

__all__ = ["SweepError", "SweepStatus", "SweepStore", "load_results", "sweep_status"]

MANIFEST = "manifest.json"
UNITS = "units"
LOCK = ".lock"
FORMAT = "anaconda-sim sweep"
FORMAT_VERSION = 1
_UNIT_FILE = re.compile(r"^unit-(\d+)\.parquet$")
_TEMPORARY = re.compile(r"^\..+\.tmp$")
_CHUNK = 1 << 20


class SweepError(ValueError):
    """A sweep cannot go on: another spec in the folder, an unwritable folder,
    a full disk, a damaged manifest. The message says what to do."""


def unit_path(folder: str | Path, index: int) -> Path:
    """The file of unit ``index`` in a results folder."""
    return Path(folder) / UNITS / f"unit-{index:06d}.parquet"


# ------------------------------------------------------------ atomic write --
def _write_chunk(fd: int, view: memoryview) -> int:
    """One ``os.write`` (a separate function so tests can make the disk fill up)."""
    return os.write(fd, view)


def _hint(error: OSError) -> str:
    if error.errno == errno.ENOSPC or error.errno == getattr(errno, "EDQUOT", -1):
        return "the disk is full: free some space, then run the same command again to resume"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "choose a folder you can write to (--out)"
    if error.errno in (errno.ENOTDIR, errno.EEXIST):
        return "a file is in the way: choose another folder (--out)"
    return "check the folder, then run the same command again to resume"


def _os_error(what: str, path: Path, error: OSError) -> SweepError:
    reason = error.strerror or str(error)
    code = errno.errorcode.get(error.errno or 0, "")
    code = f" ({code})" if code else ""
    return SweepError(f"cannot write {what} {str(path)!r}: {reason}{code}; {_hint(error)}")


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` all at once or not at all.

    The bytes go to a temporary file beside ``path``, are flushed to disk and
    the file is renamed over ``path``. On any error (or interruption) the
    temporary file is removed and the error re-raised; ``path`` is either
    untouched or complete.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = None
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        view = memoryview(data)
        while len(view):
            view = view[_write_chunk(fd, view[:_CHUNK]) :]
        os.fsync(fd)
        os.close(fd)
        fd = None
        os.replace(tmp, path)
    except BaseException:
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def need_pyarrow() -> None:
    """Raise a clear error when pyarrow (the Parquet writer) is missing."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # pragma: no cover - pyarrow is in the test extras
        raise SweepError(
            "sweeps read and write Parquet, which needs pyarrow: "
            "pip install 'anaconda-sim[parquet]'"
        ) from None


def frame_bytes(frame: pd.DataFrame) -> bytes:
    """A DataFrame as Parquet bytes (zstd; the same frame gives the same bytes)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    data: bytes = sink.getvalue().to_pybytes()
    return data


def _read_unit(path: Path) -> pd.DataFrame:
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path).to_pandas()
    except Exception as error:  # pyarrow raises its own error types
        raise SweepError(
            f"unit file {str(path)!r} cannot be read ({error}); delete it and run the sweep "
            "again to recompute it"
        ) from None


# ----------------------------------------------------------------- manifest --
def _read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SweepError(
            f"{str(folder)!r} holds no sweep ({MANIFEST} is missing); run "
            "'anaconda-sim sweep SPEC --out FOLDER' first"
        ) from None
    except (OSError, ValueError) as error:
        raise SweepError(f"cannot read {str(path)!r}: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise SweepError(f"{str(path)!r} is not the manifest of an anaconda-sim sweep")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise SweepError(
            f"{str(path)!r} has format version {manifest.get('format_version')!r}; this version "
            f"of anaconda-sim reads version {FORMAT_VERSION}"
        )
    return manifest


def _manifest_spec(folder: Path, manifest: dict[str, Any]) -> SweepSpec:
    try:
        spec = SweepSpec.from_dict(manifest["spec"])
    except (KeyError, TypeError, ValueError) as error:
        raise SweepError(f"the spec in {str(folder / MANIFEST)!r} is not valid: {error}") from None
    if spec.spec_hash != manifest.get("spec_hash"):
        raise SweepError(
            f"{str(folder / MANIFEST)!r} was edited: its spec hashes to {spec.spec_hash}, "
            f"not the recorded {manifest.get('spec_hash')}"
        )
    return spec


def _finished(folder: Path, total: int) -> list[int]:
    units = folder / UNITS
    if not units.is_dir():
        return []
    done = []
    for path in units.iterdir():
        match = _UNIT_FILE.match(path.name)
        if match and int(match.group(1)) < total:
            done.append(int(match.group(1)))
    return sorted(done)


def _temporaries(folder: Path) -> list[Path]:
    found = [p for p in folder.iterdir() if _TEMPORARY.match(p.name)] if folder.is_dir() else []
    units = folder / UNITS
    if units.is_dir():
        found += [p for p in units.iterdir() if _TEMPORARY.match(p.name)]
    return found


def _differences(old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = [k for k in new if k != "description" and old.get(k) != new.get(k)]
    parts = []
    for key in keys[:3]:
        a, b = json.dumps(old.get(key)), json.dumps(new.get(key))
        if len(a) + len(b) > 80:
            parts.append(key)
        else:
            parts.append(f"{key} {a} -> {b}")
    return "; ".join(parts) + ("; ..." if len(keys) > 3 else "")


# -------------------------------------------------------------------- store --
class SweepStore:
    """An open results folder: the manifest checked, the folder locked.

    Use :meth:`open` (a context manager releases the lock).
    """

    def __init__(self, folder: Path, spec: SweepSpec, total: int, lock_fd: int | None):
        self.folder = folder
        self.spec = spec
        self.total = total
        self._lock_fd = lock_fd

    @classmethod
    def open(cls, folder: str | Path, spec: SweepSpec, units: list[Unit]) -> SweepStore:
        """Create the folder's manifest, or check that it holds the same spec."""
        need_pyarrow()
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise _os_error("the results folder", folder, error) from None
        if not folder.is_dir():
            raise SweepError(f"{str(folder)!r} is not a folder; choose a folder for --out")
        lock_fd = _lock(folder)
        try:
            store = cls(folder, spec, len(units), lock_fd)
            store._prepare(units)
        except BaseException:
            _unlock(lock_fd)
            raise
        return store

    def _prepare(self, units: list[Unit]) -> None:
        folder, spec = self.folder, self.spec
        manifest_path = folder / MANIFEST
        for path in _temporaries(folder):  # left by a run that was killed
            with contextlib.suppress(OSError):
                path.unlink()
        if manifest_path.exists():
            manifest = _read_manifest(folder)
            if manifest["spec_hash"] != spec.spec_hash:
                done = len(_finished(folder, int(manifest.get("units", 0))))
                changed = _differences(manifest.get("spec", {}), spec.to_dict())
                raise SweepError(
                    f"{str(folder)!r} holds another sweep: spec {manifest['spec_hash']} "
                    f"({done} of {manifest.get('units')} units done), but this spec hashes to "
                    f"{spec.spec_hash} (changed: {changed}); write to a new --out folder, or "
                    f"delete {str(folder)!r} to start over"
                )
        else:
            others = [p.name for p in folder.iterdir() if p.name not in (LOCK, UNITS)]
            if others or _finished(folder, 1 << 62):
                raise SweepError(
                    f"{str(folder)!r} is not empty and holds no sweep ({MANIFEST} is missing); "
                    "choose a new or empty folder for --out"
                )
            from .. import __version__

            manifest = {
                "format": FORMAT, "format_version": FORMAT_VERSION,
                "spec_hash": spec.spec_hash, "units": len(units), "spec": spec.to_dict(),
                "package_version": __version__,
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }  # fmt: skip
            data = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()
            try:
                atomic_write(manifest_path, data)
            except OSError as error:
                raise _os_error("the manifest", manifest_path, error) from None
        try:
            (folder / UNITS).mkdir(exist_ok=True)
        except OSError as error:
            raise _os_error("the units folder", folder / UNITS, error) from None

    def done(self) -> list[int]:
        """Indices of the finished units."""
        return _finished(self.folder, self.total)

    def write_unit(self, index: int, frame: pd.DataFrame) -> Path:
        """Write one finished unit (atomically)."""
        path = unit_path(self.folder, index)
        data = frame_bytes(frame)
        try:
            atomic_write(path, data)
        except OSError as error:
            done = len(self.done())
            message = str(_os_error(f"unit {index} to", path, error))
            raise SweepError(
                f"{message} ({done} of {self.total} units are finished and kept; no partial "
                "file was left)"
            ) from None
        return path

    def close(self) -> None:
        """Release the folder's lock."""
        if self._lock_fd is not None:
            _unlock(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> SweepStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lock(folder: Path) -> int | None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks
        return None
    path = folder / LOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise _os_error("the lock file", path, error) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise SweepError(
            f"another sweep is writing to {str(folder)!r} right now; wait for it to finish, "
            "or use another --out folder"
        ) from None
    return fd


def _unlock(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)  # closing the descriptor releases the flock


# --------------------------------------------------------------- read back --
@dataclass(frozen=True)
class SweepStatus:
    """What a results folder holds (:func:`sweep_status`)."""

    folder: Path
    spec: SweepSpec
    spec_hash: str
    total: int
    done: tuple[int, ...]
    temporary: int

    @property
    def complete(self) -> bool:
        return len(self.done) == self.total

    def groups(self) -> pd.DataFrame:
        """Finished and total units per grid point."""
        done = set(self.done)
        rows = [{**u.coordinates(), "done": u.index in done, "hands": len(u.slots)}
                for u in self.spec.units()]  # fmt: skip
        frame = pd.DataFrame(rows)
        keys = ["kind", "players", "opponents", "target_deals", "target_precision", "seed"]
        keys = [k for k in keys if frame[k].notna().any()]
        out = frame.groupby(keys, sort=False, dropna=False).agg(
            units=("done", "size"), done=("done", "sum"), hands=("hands", "sum")
        )
        return out.reset_index()

    def __str__(self) -> str:
        share = 100.0 * len(self.done) / max(self.total, 1)
        state = "complete" if self.complete else "incomplete"
        lines = [
            f"sweep {self.spec_hash} in {str(self.folder)!r}: {len(self.done)} of {self.total} "
            f"units done ({share:.0f}%), {state}",
        ]
        if self.spec.description:
            lines.append(f"  {self.spec.description}")
        table = self.groups()
        lines += ["  " + line.rstrip() for line in table.to_string(index=False).splitlines()]
        if self.temporary:
            lines.append(f"  {self.temporary} temporary file(s) of an interrupted run "
                         "(removed by the next run)")  # fmt: skip
        return "\n".join(lines)


def sweep_status(folder: str | Path) -> SweepStatus:
    """The spec and progress of a results folder (reads only; no lock needed)."""
    folder = Path(folder)
    manifest = _read_manifest(folder)
    spec = _manifest_spec(folder, manifest)
    total = int(manifest["units"])
    return SweepStatus(folder, spec, spec.spec_hash, total, tuple(_finished(folder, total)),
                       len(_temporaries(folder)))  # fmt: skip


def load_results(folder: str | Path) -> pd.DataFrame:
    """Every finished unit of a results folder as one long DataFrame.

    Rows are in unit order, so a complete sweep loads the same whether it ran
    in one go or was interrupted and resumed, on any backend. ``attrs``
    records ``spec_hash``, ``units_done``, ``units_total`` and ``complete``.
    """
    status = sweep_status(folder)
    need_pyarrow()
    frames = [_read_unit(unit_path(status.folder, i)) for i in status.done]
    if frames:
        frame = pd.concat(frames, ignore_index=True)
    else:
        from .work import COORDINATES

        frame = pd.DataFrame({k: pd.Series(dtype=v) for k, v in COORDINATES.items()})
    frame.attrs = {
        "spec_hash": status.spec_hash, "units_done": len(status.done),
        "units_total": status.total, "complete": status.complete,
    }  # fmt: skip
    return frame
