"""The results folder of a sweep: a Parquet dataset written unit by unit.

Layout::

    results/
      manifest.json           the spec, its hash, the number of units, and
                              the SHA-256 of every finished unit file
      units/unit-000000.parquet
      units/unit-000001.parquet
      ...
      .lock                   while a sweep writes (see :mod:`.lock`)

A unit's file appears only when the unit is finished: it is written to a
temporary file in the same folder, flushed to disk, then renamed over its
final name (``os.replace``, atomic). Just before, its checksum is recorded in
the manifest (rewritten atomically the same way). A sweep killed at any
moment leaves finished units and, at worst, a temporary file that the next
run deletes, or a recorded unit with no file yet (it is simply not done);
never a partial unit file. Running the same spec into the folder again
resumes: finished units are skipped. A different spec is refused. While a
sweep runs it holds the folder's lock, so two runs cannot write to it at
once.

Integrity
---------
Each unit file carries its unit index, the spec hash and its row count
(Parquet schema metadata, :mod:`.integrity`). Resuming (:func:`run_sweep
<anaconda_sim.sweep.run_sweep>`), :func:`sweep_status` and
:func:`load_results` verify every unit file against its name, the spec and
the manifest's checksum:

* a unit file that fails (truncated, corrupt, from another spec, holding
  another unit than its name says, wrong row count, checksum mismatch, not
  recorded in the manifest) does not count: :attr:`SweepStatus.invalid`
  lists it, a resumed sweep recomputes it (with a :class:`SweepWarning`) and
  :func:`load_results` refuses to load (``invalid="skip"``: loads the rest,
  with a warning);
* any other file under ``units/`` (a copy of a unit file under another name,
  an unknown file) is a *stray*: ignored with a :class:`SweepWarning` by
  resume and :func:`load_results`, listed in :attr:`SweepStatus.stray`, and
  never loaded;
* an edited manifest: a changed spec, unit count, or a checksum entry that
  names no unit of the sweep is a :class:`SweepError` (restore the manifest,
  or start over in a new folder); changed, removed or added checksums of
  units make those units fail verification, so they are recomputed on
  resume (the case above). A recorded unit whose file is gone is simply not
  done (:attr:`SweepStatus.missing`), as after a crash just before its file
  was renamed into place.

Folders of older versions (manifest format 1, no checksums, no records in
the unit files) still load and show their status, with a warning and
``SweepStatus.verified == False``: their files cannot be verified. Running
the same spec into such a folder upgrades it: its unit files are
recomputed (with a warning), which verifies them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from .._version import __version__
from ..provenance import META_KEY, encode, provenance
from .errors import SweepError, SweepWarning, write_error
from .integrity import read_frame, sha256_hex, unit_metadata, unit_problem
from .lock import LOCK, FolderLock
from .spec import SweepSpec, Unit
from .work import COORDINATES

__all__ = [
    "FileProblem",
    "SweepError",
    "SweepStatus",
    "SweepStore",
    "SweepWarning",
    "load_results",
    "sweep_status",
]

MANIFEST = "manifest.json"
UNITS = "units"
FORMAT = "anaconda-sim sweep"
FORMAT_VERSION = 2
#: manifest versions this version reads (1: before checksums; loads unverified)
READABLE_VERSIONS = (1, 2)
_UNIT_FILE = re.compile(r"^unit-(\d+)\.parquet$")
_TEMPORARY = re.compile(r"^\..+\.tmp$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_CHUNK = 1 << 20
_LEGACY = (
    "was written by an older anaconda-sim (sweep format 1) without a checksum, so it cannot "
    "be verified"
)


def unit_path(folder: str | Path, index: int) -> Path:
    """The file of unit ``index`` in a results folder."""
    return Path(folder) / UNITS / f"unit-{index:06d}.parquet"


# ------------------------------------------------------------ atomic write --
def _write_chunk(fd: int, view: memoryview) -> int:
    """One ``os.write`` (a separate function so tests can make the disk fill up)."""
    return os.write(fd, view)


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


def frame_bytes(frame: pd.DataFrame, metadata: dict[bytes, bytes] | None = None) -> bytes:
    """A DataFrame as Parquet bytes (zstd; the same frame gives the same bytes).

    ``metadata`` is added to the schema metadata (a unit's record,
    :func:`~.integrity.unit_metadata`).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    if metadata:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **metadata})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    data: bytes = sink.getvalue().to_pybytes()
    return data


def unit_provenance(spec: SweepSpec, index: int) -> dict[bytes, bytes]:
    """The provenance entry of unit ``index``'s schema metadata, as every Parquet
    file of the library has (:mod:`anaconda_sim.provenance`): the library
    version and the model, here the sweep's spec and the unit's number.

    The time of writing is left out, so that the same unit gives the same
    bytes (the manifest's checksums, resumed and distributed runs).

    Examples
    --------
    >>> from anaconda_sim.provenance import META_KEY, decode
    >>> spec = SweepSpec(kind="equity", players=3, hand_classes=["AA/K"], deals=300)
    >>> model = decode(unit_provenance(spec, 0)[META_KEY], "unit 0")
    >>> model["library_version"] == __version__, model["unit"], model["spec"]["kind"]
    (True, 0, ['equity'])
    """
    record = provenance({"sweep_unit": True, "unit": int(index), "spec_hash": spec.spec_hash,
                         "spec": spec.to_dict()})  # fmt: skip
    del record["written"]
    return {META_KEY: encode(record).encode("utf-8")}


# ----------------------------------------------------------------- manifest --
@dataclass(frozen=True)
class _Manifest:
    """A manifest read and checked: its spec, unit count and checksums."""

    raw: dict[str, Any]
    spec: SweepSpec
    total: int
    checksums: dict[str, str] | None  # None: format 1, before checksums


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
    if manifest.get("format_version") not in READABLE_VERSIONS:
        raise SweepError(
            f"{str(path)!r} has format version {manifest.get('format_version')!r}; this version "
            f"of anaconda-sim reads versions {', '.join(map(str, READABLE_VERSIONS))}"
        )
    return manifest


def _edited(folder: Path, what: str) -> SweepError:
    return SweepError(
        f"{str(folder / MANIFEST)!r} was edited: {what}; restore it, or write the sweep to a "
        f"new --out folder (or delete {str(folder)!r} to start over)"
    )


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


def _checksums(folder: Path, manifest: dict[str, Any], total: int) -> dict[str, str] | None:
    """The manifest's checksums, checked: each names a unit of the sweep."""
    if manifest["format_version"] == 1:
        return None
    found = manifest.get("sha256")
    if not isinstance(found, dict):
        raise _edited(folder, "its 'sha256' checksums are missing")
    for name, digest in found.items():
        match = _UNIT_FILE.match(str(name))
        index = int(match.group(1)) if match else -1
        if not 0 <= index < total or name != unit_path(folder, index).name:
            raise _edited(folder, f"it records a checksum for {name!r}, not a unit of this "
                          f"sweep of {total} units")  # fmt: skip
        if not isinstance(digest, str) or not _SHA256.match(digest):
            raise _edited(folder, f"the checksum of {name!r} is not a SHA-256 ({digest!r})")
    return dict(found)


def _load_manifest(folder: Path) -> _Manifest:
    """Read and check a folder's manifest (:class:`SweepError` if it was edited)."""
    raw = _read_manifest(folder)
    spec = _manifest_spec(folder, raw)
    total = len(spec.units())
    if raw.get("units") != total:
        raise _edited(folder, f"it records {raw.get('units')!r} units, but its spec has {total}")
    return _Manifest(raw, spec, total, _checksums(folder, raw, total))


def _manifest_bytes(manifest: dict[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()


def _named_units(folder: Path, total: int) -> list[int]:
    """Units whose file exists under its own name (not verified)."""
    units = folder / UNITS
    if not units.is_dir():
        return []
    done = []
    for path in units.iterdir():
        match = _UNIT_FILE.match(path.name)
        if match and int(match.group(1)) < total and path == unit_path(folder, int(match[1])):
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


# -------------------------------------------------------------- verification --
@dataclass(frozen=True)
class FileProblem:
    """A file under ``units/`` that does not count, and why."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path.name} {self.reason}"


@dataclass
class _Survey:
    """The files of a results folder, sorted out."""

    done: list[int] = field(default_factory=list)
    invalid: list[FileProblem] = field(default_factory=list)
    stray: list[FileProblem] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    data: dict[int, bytes] = field(default_factory=dict)


def _stray_reason(path: Path, total: int, copies: dict[str, str]) -> str:
    match = _UNIT_FILE.match(path.name)
    if path.is_dir():
        return "is a folder, not a unit file"
    if match and int(match.group(1)) >= total:
        return f"names unit {int(match.group(1))}, but this sweep has {total} units"
    with contextlib.suppress(OSError):
        if path.suffix == ".parquet" and path.stat().st_size < (1 << 30):
            original = copies.get(sha256_hex(path.read_bytes()))
            if original:
                return f"is a copy of {original}"
    if match:
        return "is not named like a unit file (unit-NNNNNN.parquet)"
    return "is not a file of this sweep"


def _survey(folder: Path, manifest: _Manifest, *, keep: bool, resume: bool) -> _Survey:
    """Sort the files under ``units/``: finished (verified), invalid, stray.

    ``keep``: keep the bytes of finished units (to load them). ``resume``: a
    format 1 folder's files count as invalid (to be recomputed) instead of
    finished unverified.
    """
    survey = _Survey()
    checksums = manifest.checksums
    spec_hash, total = manifest.spec.spec_hash, manifest.total
    units = folder / UNITS
    paths = sorted(units.iterdir()) if units.is_dir() else []
    copies = {digest: name for name, digest in (checksums or {}).items()}
    for path in paths:
        if _TEMPORARY.match(path.name):
            continue
        match = _UNIT_FILE.match(path.name)
        index = int(match.group(1)) if match else -1
        if not (0 <= index < total and path == unit_path(folder, index) and path.is_file()):
            survey.stray.append(FileProblem(path, _stray_reason(path, total, copies)))
            continue
        try:
            data = path.read_bytes()
        except OSError as error:
            survey.invalid.append(FileProblem(path, f"cannot be read ({error})"))
            continue
        if checksums is None:
            problem = _LEGACY if resume else None
        else:
            problem = unit_problem(data, index, spec_hash, checksums.get(path.name))
        if problem is not None:
            survey.invalid.append(FileProblem(path, problem))
            continue
        survey.done.append(index)
        if keep:
            survey.data[index] = data
    present = {p.name for p in paths}
    survey.missing = sorted(int(_UNIT_FILE.match(name)[1])  # type: ignore[index]
                            for name in checksums or {} if name not in present)  # fmt: skip
    return survey


def _settled_survey(folder: Path, *, keep: bool) -> tuple[_Manifest, _Survey]:
    """Survey a folder a sweep may be writing to right now.

    A running sweep records a unit in the manifest, then renames its file
    into place; a file that fails against the manifest read first is checked
    again against the manifest as it is now.
    """
    manifest = _load_manifest(folder)
    survey = _survey(folder, manifest, keep=keep, resume=False)
    if survey.invalid and manifest.checksums is not None:
        again = _load_manifest(folder)
        if again.checksums != manifest.checksums:
            return again, _survey(folder, again, keep=keep, resume=False)
    return manifest, survey


def _listing(problems: list[FileProblem], limit: int = 5) -> str:
    shown = "; ".join(str(p) for p in problems[:limit])
    return shown + (f"; and {len(problems) - limit} more" if len(problems) > limit else "")


def _warn(message: str, stacklevel: int) -> None:
    warnings.warn(message, SweepWarning, stacklevel=stacklevel + 1)


def _warn_stray(folder: Path, stray: list[FileProblem], stacklevel: int) -> None:
    if stray:
        _warn(f"{len(stray)} stray file(s) in {str(folder / UNITS)!r} are ignored: "
              f"{_listing(stray)}; move them out of the folder", stacklevel + 1)  # fmt: skip


# -------------------------------------------------------------------- store --
class SweepStore:
    """An open results folder: the manifest checked, the units verified, the
    folder locked.

    Use :meth:`open` (a context manager releases the lock). ``invalid`` and
    ``stray`` list the files found not to count when it was opened (the
    invalid ones are recomputed by the sweep).
    """

    def __init__(self, folder: Path, spec: SweepSpec, total: int, lock: FolderLock) -> None:
        self.folder = folder
        self.spec = spec
        self.total = total
        self.invalid: tuple[FileProblem, ...] = ()
        self.stray: tuple[FileProblem, ...] = ()
        self._lock: FolderLock | None = lock
        self._manifest: dict[str, Any] = {}
        self._checksums: dict[str, str] = {}
        self._done: set[int] = set()

    @classmethod
    def open(cls, folder: str | Path, spec: SweepSpec, units: list[Unit]) -> SweepStore:
        """Create the folder's manifest, or check that it holds the same spec and
        verify its unit files (warning about those that do not count)."""
        need_pyarrow()
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise write_error("the results folder", folder, error) from None
        if not folder.is_dir():
            raise SweepError(f"{str(folder)!r} is not a folder; choose a folder for --out")
        lock = FolderLock.acquire(folder, stacklevel=4)
        try:
            store = cls(folder, spec, len(units), lock)
            store._prepare(units)
        except BaseException:
            lock.release()
            raise
        return store

    def _prepare(self, units: list[Unit]) -> None:
        folder = self.folder
        for path in _temporaries(folder):  # left by a run that was killed
            with contextlib.suppress(OSError):
                path.unlink()
        if (folder / MANIFEST).exists():
            self._resume()
        else:
            self._create(units)
        try:
            (folder / UNITS).mkdir(exist_ok=True)
        except OSError as error:
            raise write_error("the units folder", folder / UNITS, error) from None

    def _create(self, units: list[Unit]) -> None:
        folder, spec = self.folder, self.spec
        others = [p.name for p in folder.iterdir() if p.name not in (LOCK, UNITS)]
        if others or _named_units(folder, 1 << 62) or any((folder / UNITS).glob("*")):
            raise SweepError(
                f"{str(folder)!r} is not empty and holds no sweep ({MANIFEST} is missing); "
                "choose a new or empty folder for --out"
            )

        self._manifest = {
            "format": FORMAT, "format_version": FORMAT_VERSION,
            "spec_hash": spec.spec_hash, "units": len(units), "spec": spec.to_dict(),
            "package_version": __version__,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "sha256": {},
        }  # fmt: skip
        self._write_manifest()

    def _resume(self) -> None:
        folder, spec = self.folder, self.spec
        raw = _read_manifest(folder)
        if raw.get("spec_hash") != spec.spec_hash:
            done = len(_named_units(folder, int(raw.get("units", 0))))
            changed = _differences(raw.get("spec", {}), spec.to_dict())
            raise SweepError(
                f"{str(folder)!r} holds another sweep: spec {raw.get('spec_hash')} "
                f"({done} of {raw.get('units')} units done), but this spec hashes to "
                f"{spec.spec_hash} (changed: {changed}); write to a new --out folder, or "
                f"delete {str(folder)!r} to start over"
            )
        manifest = _load_manifest(folder)
        survey = _survey(folder, manifest, keep=False, resume=True)
        self._manifest = dict(manifest.raw)
        self._checksums = dict(manifest.checksums or {})
        self._done = set(survey.done)
        self.invalid, self.stray = tuple(survey.invalid), tuple(survey.stray)
        if survey.invalid:
            _warn(f"{len(survey.invalid)} unit file(s) in {str(folder / UNITS)!r} do not "
                  f"count and are recomputed: {_listing(survey.invalid)}", 5)  # fmt: skip
        _warn_stray(folder, survey.stray, 5)
        if manifest.checksums is None:  # format 1: upgrade; its units are recomputed
            self._manifest.update(format_version=FORMAT_VERSION, sha256={})
            self._write_manifest()

    def _write_manifest(self) -> None:
        path = self.folder / MANIFEST
        self._manifest["sha256"] = dict(sorted(self._checksums.items()))
        try:
            atomic_write(path, _manifest_bytes(self._manifest))
        except OSError as error:
            message = str(write_error("the manifest", path, error))
            raise SweepError(
                f"{message} ({len(self._done)} of {self.total} units are finished and kept)"
            ) from None

    def done(self) -> list[int]:
        """Indices of the finished (verified or written by this store) units."""
        return sorted(self._done)

    def write_unit(self, index: int, frame: pd.DataFrame) -> Path:
        """Record one finished unit's checksum in the manifest, then write its file
        (both atomically)."""
        path = unit_path(self.folder, index)
        data = frame_bytes(frame, {**unit_metadata(index, self.spec.spec_hash, len(frame)),
                                   **unit_provenance(self.spec, index)})  # fmt: skip
        self._checksums[path.name] = sha256_hex(data)
        self._write_manifest()
        try:
            atomic_write(path, data)
        except OSError as error:
            message = str(write_error(f"unit {index} to", path, error))
            raise SweepError(
                f"{message} ({len(self._done)} of {self.total} units are finished and kept; "
                "no partial file was left)"
            ) from None
        self._done.add(index)
        return path

    def close(self) -> None:
        """Release the folder's lock."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> SweepStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------- read back --
@dataclass(frozen=True)
class SweepStatus:
    """What a results folder holds (:func:`sweep_status`).

    ``done`` lists the verified finished units; ``invalid`` the unit files
    that fail verification (recomputed by the next run); ``stray`` other
    files under ``units/`` (ignored); ``missing`` units recorded in the
    manifest whose file is gone (not done); ``verified`` is ``False`` for a
    folder of an older version, whose files cannot be verified.
    """

    folder: Path
    spec: SweepSpec
    spec_hash: str
    total: int
    done: tuple[int, ...]
    temporary: int
    invalid: tuple[FileProblem, ...] = ()
    stray: tuple[FileProblem, ...] = ()
    missing: tuple[int, ...] = ()
    verified: bool = True

    @property
    def complete(self) -> bool:
        return len(self.done) == self.total

    def groups(self) -> pd.DataFrame:
        """Finished and total units per grid point."""
        done = set(self.done)
        rows = [{**u.coordinates(), "done": u.index in done, "hands": len(u.slots)}
                for u in self.spec.units()]  # fmt: skip
        frame = pd.DataFrame(rows)
        keys = ["kind", "rules", "players", "opponents", "target_deals", "target_precision",
                "seed"]
        keys = [k for k in keys if frame[k].notna().any()]
        out = frame.groupby(keys, sort=False, dropna=False).agg(
            units=("done", "size"), done=("done", "sum"), hands=("hands", "sum")
        )
        return out.reset_index()

    def _problems(self) -> list[str]:
        lines = []
        if not self.verified:
            lines.append("  written by an older anaconda-sim: unit files cannot be verified "
                         "(run the same spec into the folder to recompute them)")  # fmt: skip
        if self.invalid:
            lines.append(f"  {len(self.invalid)} unit file(s) do not count (the next run "
                         "recomputes them):")  # fmt: skip
            lines += [f"    {p}" for p in self.invalid]
        if self.stray:
            lines.append(f"  {len(self.stray)} stray file(s) in units/ are ignored:")
            lines += [f"    {p}" for p in self.stray]
        if self.missing:
            lines.append(f"  {len(self.missing)} recorded unit(s) have no file (not done)")
        return lines

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
        return "\n".join(lines + self._problems())


def _status(folder: Path, manifest: _Manifest, survey: _Survey) -> SweepStatus:
    spec = manifest.spec
    return SweepStatus(folder, spec, spec.spec_hash, manifest.total, tuple(survey.done),
                       len(_temporaries(folder)), tuple(survey.invalid), tuple(survey.stray),
                       tuple(survey.missing), manifest.checksums is not None)  # fmt: skip


def sweep_status(folder: str | Path) -> SweepStatus:
    """The spec and progress of a results folder, every unit file verified.

    Reads only (no lock needed; safe while a sweep runs) and warns about
    nothing: the files that do not count are listed in the status
    (``invalid``, ``stray``, ``missing``) and in its text. Reads every unit
    file to check its checksum.
    """
    need_pyarrow()
    folder = Path(folder)
    manifest, survey = _settled_survey(folder, keep=False)
    return _status(folder, manifest, survey)


def _invalid_error(folder: Path, invalid: list[FileProblem]) -> SweepError:
    if len(invalid) == 1:
        path, reason = invalid[0].path, invalid[0].reason
        return SweepError(
            f"unit file {str(path)!r} {reason}; run the same sweep into {str(folder)!r} again "
            "to recompute it (or delete it), or load the other units with invalid='skip'"
        )
    return SweepError(
        f"{len(invalid)} unit files in {str(folder / UNITS)!r} fail verification: "
        f"{_listing(invalid)}; run the same sweep into {str(folder)!r} again to recompute "
        "them (or delete them), or load the other units with invalid='skip'"
    )


def _frames(folder: Path, survey: _Survey) -> list[pd.DataFrame]:
    frames = []
    for index in survey.done:
        try:
            frames.append(read_frame(survey.data[index]))
        except ValueError as error:  # only unverified files of format 1 get here
            raise SweepError(
                f"unit file {str(unit_path(folder, index))!r} cannot be read ({error}); delete "
                "it and run the sweep again to recompute it"
            ) from None
    return frames


def load_results(
    folder: str | Path, *, invalid: Literal["raise", "skip"] = "raise"
) -> pd.DataFrame:
    """Every finished unit of a results folder as one long DataFrame.

    Rows are in unit order, so a complete sweep loads the same whether it ran
    in one go or was interrupted and resumed, on any backend. ``attrs``
    records ``spec_hash``, ``units_done``, ``units_total`` and ``complete``.

    Every unit file is verified first (see the module's *Integrity*). Stray
    files under ``units/`` are ignored with a :class:`SweepWarning` (never
    loaded, so never counted twice); a folder of an older version loads
    unverified, with a warning.

    Parameters
    ----------
    folder
        The results folder.
    invalid
        What to do when unit files fail verification: ``"raise"`` a
        :class:`SweepError` naming them, or ``"skip"`` them (with a
        :class:`SweepWarning`) and load the verified units.
    """
    if invalid not in ("raise", "skip"):
        raise ValueError(f"invalid={invalid!r} must be 'raise' or 'skip'")
    need_pyarrow()
    folder = Path(folder)
    manifest, survey = _settled_survey(folder, keep=True)
    _warn_stray(folder, survey.stray, 2)
    if survey.invalid and invalid == "raise":
        raise _invalid_error(folder, survey.invalid)
    if survey.invalid:
        _warn(f"{len(survey.invalid)} unit file(s) in {str(folder / UNITS)!r} fail verification "
              f"and are left out: {_listing(survey.invalid)}", 2)  # fmt: skip
    if manifest.checksums is None and survey.done:
        _warn(f"{str(folder)!r} was written by an older anaconda-sim (sweep format 1): its "
              f"{len(survey.done)} unit files are loaded unverified; run the same spec into it "
              "again to recompute and verify them", 2)  # fmt: skip
    frames = _frames(folder, survey)
    if frames:
        frame = pd.concat(frames, ignore_index=True)
    else:

        frame = pd.DataFrame({k: pd.Series(dtype=v) for k, v in COORDINATES.items()})
    status = _status(folder, manifest, survey)
    frame.attrs = {
        "spec_hash": status.spec_hash, "units_done": len(status.done),
        "units_total": status.total, "complete": status.complete,
    }  # fmt: skip
    return frame
