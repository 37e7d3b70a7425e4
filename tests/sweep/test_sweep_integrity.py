"""Sweep integrity: damaged, foreign, stray and copied unit files, edited
manifests, old folders and the folder lock."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from anaconda_sim.sweep import (
    SweepError,
    SweepSpec,
    SweepWarning,
    load_results,
    run_sweep,
    sweep_status,
)
from anaconda_sim.sweep.integrity import METADATA_KEY

HAND = "Qs Qh 9c 8d 3s 4h 2c"


def small_spec(**overrides) -> SweepSpec:
    base = {"kind": "equity", "players": [2, 3], "hands": [HAND], "hand_classes": ["AA/K"],
            "deals": 100, "unit_size": 1}  # fmt: skip
    return SweepSpec.from_dict({**base, **overrides})  # 4 units, one hand each


def unit(folder, index: int):
    return folder / "units" / f"unit-{index:06d}.parquet"


def unit_bytes(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "units").iterdir())}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A complete sweep to copy from (and compare with)."""
    folder = tmp_path_factory.mktemp("reference")
    run_sweep(small_spec(), folder, progress=False)
    return folder


@pytest.fixture
def done(tmp_path, reference):
    """A fresh copy of the complete sweep."""
    folder = tmp_path / "r"
    shutil.copytree(reference, folder)
    return folder


def resume_redoes(folder, reference, index: int, match: str) -> None:
    """Resume: the bad unit is named in a warning, recomputed, and the files end right."""
    with pytest.warns(SweepWarning, match=match):
        report = run_sweep(small_spec(), folder, progress=False)
    assert (report.resumed, report.computed) == (3, 1)
    assert [p.path.name for p in report.invalid] == [unit(folder, index).name]
    assert unit_bytes(folder) == unit_bytes(reference)
    assert sweep_status(folder).complete and sweep_status(folder).invalid == ()


# ------------------------------------------------------------- the records --
def test_unit_files_carry_their_record_and_the_manifest_their_checksums(done):
    import hashlib

    import pyarrow.parquet as pq

    manifest = json.loads((done / "manifest.json").read_text())
    assert manifest["format_version"] == 2
    for index in range(4):
        meta = pq.read_metadata(unit(done, index))
        record = json.loads(meta.metadata[METADATA_KEY])
        assert record == {"unit": index, "spec_hash": manifest["spec_hash"],
                          "rows": meta.num_rows}  # fmt: skip
        digest = hashlib.sha256(unit(done, index).read_bytes()).hexdigest()
        assert manifest["sha256"][unit(done, index).name] == digest


def test_unit_files_carry_the_library_version_like_every_parquet_file_of_the_library(done):
    import pyarrow.parquet as pq

    from anaconda_sim import __version__
    from anaconda_sim.provenance import META_KEY, decode

    manifest = json.loads((done / "manifest.json").read_text())
    for index in range(4):
        metadata = pq.read_schema(unit(done, index)).metadata
        model = decode(metadata[META_KEY], f"unit {index}")
        assert model["library_version"] == __version__
        assert (model["unit"], model["spec_hash"]) == (index, manifest["spec_hash"])
        assert model["spec"]["deals"] == [100] and "written" not in json.loads(metadata[META_KEY])


# --------------------------------------------------------------- bad units --
def test_a_truncated_unit_file_is_not_done_and_is_recomputed(done, reference):
    path = unit(done, 1)
    path.write_bytes(path.read_bytes()[:-40])
    status = sweep_status(done)
    assert status.done == (0, 2, 3) and not status.complete
    assert [p.path for p in status.invalid] == [path]
    assert "cannot be read (truncated" in status.invalid[0].reason
    assert "1 unit file(s) do not count" in str(status)
    with pytest.raises(SweepError, match=r"unit-000001\.parquet' cannot be read .*delete it"):
        load_results(done)
    with pytest.warns(SweepWarning, match="fail verification and are left out"):
        assert load_results(done, invalid="skip").attrs["units_done"] == 3
    resume_redoes(done, reference, 1, r"unit-000001\.parquet cannot be read")


def test_flipped_bytes_fail_the_checksum(done, reference):
    path = unit(done, 2)
    import pyarrow.parquet as pq

    # a byte inside the first column chunk: the footer still reads
    column = pq.ParquetFile(path).metadata.row_group(0).column(0)
    data = bytearray(path.read_bytes())
    data[column.data_page_offset + column.total_compressed_size // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    status = sweep_status(done)
    assert status.done == (0, 1, 3)
    assert status.invalid[0].reason == (
        "does not match its checksum in the manifest (its bytes changed)"
    )
    with pytest.raises(SweepError, match=r"unit-000002\.parquet' does not match its checksum"):
        load_results(done)
    resume_redoes(done, reference, 2, "do not count and are recomputed")


def test_a_unit_of_another_spec_is_foreign(done, reference, tmp_path):
    other = tmp_path / "other"
    run_sweep(small_spec(deals=150), other, progress=False)
    shutil.copyfile(unit(other, 3), unit(done, 3))
    status = sweep_status(done)
    assert status.done == (0, 1, 2)
    assert status.invalid[0].reason.startswith(
        f"belongs to another sweep (spec {small_spec(deals=150).spec_hash}"
    )
    resume_redoes(done, reference, 3, "belongs to another sweep")


def test_a_unit_copied_under_the_name_of_another_is_foreign(done, reference):
    unit(done, 0).unlink()
    shutil.copyfile(unit(done, 1), unit(done, 0))  # same spec, same bytes as unit 1
    status = sweep_status(done)
    assert status.done == (1, 2, 3)
    assert status.invalid[0].reason == "holds unit 1, not unit 0 (a copy under another name?)"
    resume_redoes(done, reference, 0, "holds unit 1, not unit 0")


def test_a_wrong_row_count_is_caught(done, reference):
    import pyarrow.parquet as pq

    path = unit(done, 1)
    table = pq.read_table(path)
    pq.write_table(table.slice(0, 0), path)  # keeps the schema metadata: the record says 1 row
    assert sweep_status(done).invalid[0].reason == "holds 0 rows, but its record says 1"
    resume_redoes(done, reference, 1, "holds 0 rows")


# ------------------------------------------------------------ stray files --
def test_a_copy_under_another_name_is_stray_and_never_loaded_twice(done):
    shutil.copyfile(unit(done, 2), done / "units" / "unit-2.parquet")
    shutil.copyfile(unit(done, 2), done / "units" / "unit-000002 (copy).parquet")
    (done / "units" / "notes.txt").write_text("mine")
    shutil.copyfile(unit(done, 2), done / "units" / "unit-000009.parquet")  # past the end
    status = sweep_status(done)
    assert status.done == (0, 1, 2, 3) and status.complete and status.invalid == ()
    reasons = {p.path.name: p.reason for p in status.stray}
    assert reasons == {
        "notes.txt": "is not a file of this sweep",
        "unit-000002 (copy).parquet": "is a copy of unit-000002.parquet",
        "unit-000009.parquet": "names unit 9, but this sweep has 4 units",
        "unit-2.parquet": "is a copy of unit-000002.parquet",
    }
    assert "4 stray file(s) in units/ are ignored" in str(status)
    with pytest.warns(SweepWarning, match=r"4 stray file\(s\) .* are ignored"):
        table = load_results(done)
    assert len(table) == 4 and table["unit"].tolist() == [0, 1, 2, 3]
    with pytest.warns(SweepWarning, match="stray"):
        report = run_sweep(small_spec(), done, progress=False)
    assert report.computed == 0 and len(report.stray) == 4
    assert "4 stray file(s) ignored" in str(report)


# -------------------------------------------------------- edited manifest --
def edit_manifest(folder, change) -> None:
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest, indent=2))


def test_edited_checksums_redo_their_units_and_edited_structure_is_an_error(done, reference):
    def drop_and_change(manifest):
        del manifest["sha256"]["unit-000000.parquet"]  # a unit removed
        manifest["sha256"]["unit-000003.parquet"] = "0" * 64  # a checksum changed

    edit_manifest(done, drop_and_change)
    status = sweep_status(done)
    assert status.done == (1, 2)
    assert {p.path.name: p.reason for p in status.invalid} == {
        "unit-000000.parquet": "is not recorded in the manifest (the manifest was edited)",
        "unit-000003.parquet": "does not match its checksum in the manifest (its bytes changed)",
    }
    with pytest.warns(SweepWarning, match="2 unit file"):
        report = run_sweep(small_spec(), done, progress=False)
    assert (report.resumed, report.computed) == (2, 2)
    assert unit_bytes(done) == unit_bytes(reference)
    assert json.loads((done / "manifest.json").read_text()) == json.loads(
        (reference / "manifest.json").read_text()
    )
    # a unit added that the sweep does not have; a unit count changed; the spec changed
    edit_manifest(done, lambda m: m["sha256"].update({"unit-000004.parquet": "0" * 64}))
    expected = r"it records a checksum for 'unit-000004.parquet', not a unit of this sweep of 4"
    with pytest.raises(SweepError, match=rf"was edited: {expected} units; restore"):
        sweep_status(done)
    with pytest.raises(SweepError, match="was edited"):
        run_sweep(small_spec(), done, progress=False)
    edit_manifest(done, lambda m: (m["sha256"].pop("unit-000004.parquet"), m.update(units=5)))
    with pytest.raises(SweepError, match="was edited: it records 5 units, but its spec has 4"):
        load_results(done)
    edit_manifest(done, lambda m: (m.update(units=4), m["spec"].update(deals=[999])))
    with pytest.raises(SweepError, match="was edited: its spec hashes to"):
        run_sweep(small_spec(), done, progress=False)


def test_a_recorded_unit_without_its_file_is_just_not_done(done):
    unit(done, 3).unlink()  # as after a crash between recording and renaming
    status = sweep_status(done)
    assert status.done == (0, 1, 2) and status.missing == (3,) and status.invalid == ()
    assert run_sweep(small_spec(), done, progress=False).computed == 1  # no warning


# ------------------------------------------------------------ old folders --
def test_a_folder_of_the_previous_format_loads_unverified_then_upgrades(done, reference):
    import pyarrow.parquet as pq

    for index in range(4):  # as written before this change: no records, no checksums
        table = pq.read_table(unit(done, index))
        metadata = {k: v for k, v in table.schema.metadata.items() if k != METADATA_KEY}
        pq.write_table(table.replace_schema_metadata(metadata), unit(done, index),
                       compression="zstd")  # fmt: skip
    edit_manifest(done, lambda m: (m.update(format_version=1), m.pop("sha256")))
    status = sweep_status(done)
    assert status.complete and not status.verified
    assert "cannot be verified" in str(status)
    with pytest.warns(SweepWarning, match=r"older anaconda-sim \(sweep format 1\).*unverified"):
        assert len(load_results(done)) == 4
    with pytest.warns(SweepWarning, match=r"4 unit file\(s\) .* format 1"):
        report = run_sweep(small_spec(), done, progress=False)
    assert report.computed == 4
    assert unit_bytes(done) == unit_bytes(reference)
    assert sweep_status(done).verified and sweep_status(done).complete


# ------------------------------------------------------------------- lock --
HOLD = """\
import sys, time
from anaconda_sim.sweep import SweepSpec
from anaconda_sim.sweep.store import SweepStore
spec = SweepSpec.from_dict({spec!r})
with SweepStore.open(sys.argv[1], spec, spec.units()):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_second_sweep_is_refused_while_another_process_holds_the_lock(tmp_path):
    spec = small_spec()
    code = HOLD.format(spec=spec.to_dict())
    holder = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout.readline() == "held\n"
        record = json.loads((tmp_path / ".lock").read_text())
        assert record["pid"] == holder.pid
        with pytest.raises(SweepError, match=rf"another sweep is writing to .*pid {holder.pid}"):
            run_sweep(spec, tmp_path, progress=False)
        assert not list((tmp_path / "units").iterdir())
    finally:
        holder.kill()
        holder.wait()
    # killed: its lock is stale (pid gone) and is taken over with a warning
    with pytest.warns(SweepWarning, match=rf"took over the lock .*pid {holder.pid} .*not running"):
        assert run_sweep(spec, tmp_path, progress=False).computed == 4
    assert not (tmp_path / ".lock").exists()


def test_a_lock_of_a_dead_pid_is_taken_over_and_a_live_one_respected(tmp_path):
    import socket

    spec = small_spec()
    run_sweep(spec, tmp_path, progress=False)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a pid that no longer runs
    lock = tmp_path / ".lock"

    def write_lock(pid: int, host: str | None = None) -> None:
        lock.write_text(json.dumps({"pid": pid, "host": host or socket.gethostname(),
                                    "started": "2026-01-01T00:00:00Z", "token": "x"}))  # fmt: skip

    write_lock(gone.pid)
    with pytest.warns(SweepWarning, match=rf"took over the lock .*pid {gone.pid}"):
        assert run_sweep(spec, tmp_path, progress=False).computed == 0
    assert not lock.exists()
    write_lock(os.getppid())  # a running process
    with pytest.raises(SweepError, match=rf"pid {os.getppid()} .*delete '.*\.lock'"):
        run_sweep(spec, tmp_path, progress=False)
    write_lock(gone.pid, host="elsewhere.example")  # another host: cannot be checked
    with pytest.raises(SweepError, match="another sweep is writing to"):
        run_sweep(spec, tmp_path, progress=False)
    lock.write_text("")  # a sweep is writing its record right now
    with pytest.raises(SweepError, match="its lock record cannot be read"):
        run_sweep(spec, tmp_path, progress=False)
    old = time.time() - 120  # ... or died doing so
    os.utime(lock, (old, old))
    with pytest.warns(SweepWarning, match="cannot be read and is 1[0-9]{2} s old"):
        assert run_sweep(spec, tmp_path, progress=False).computed == 0
    # status and loading never need the lock
    write_lock(os.getppid())
    assert sweep_status(tmp_path).complete and len(load_results(tmp_path)) == 4
