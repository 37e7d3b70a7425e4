"""Sweeps: long tables, reproducible rows, resume, refusals, full disks, CLI."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os

import pandas as pd
import pytest

from anaconda_sim.analysis import discard_values, equity, pass_values
from anaconda_sim.sweep import (
    COORDINATES,
    SweepError,
    SweepSpec,
    compute_sweep,
    load_results,
    run_sweep,
    summarize_classes,
    sweep_status,
)
from anaconda_sim.sweep import store as store_module
from anaconda_sim.sweep.spec import DEFAULT_HERO

HAND = "Qs Qh 9c 8d 3s 4h 2c"


def small_spec(**overrides) -> SweepSpec:
    base = {"kind": "equity", "players": [2, 4], "hands": [HAND],
            "hand_classes": ["AA/K", "QQ/A F4", "777"], "deals": 200, "unit_size": 2}  # fmt: skip
    return SweepSpec.from_dict({**base, **overrides})


def unit_bytes(folder) -> dict[str, bytes]:
    units = folder / "units"
    return {p.name: p.read_bytes() for p in sorted(units.iterdir())}


def leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*.tmp"))


# ------------------------------------------------------------------ tables --
def test_long_table_has_the_grid_coordinates_in_front(tmp_path):
    spec = small_spec()
    report = run_sweep(spec, tmp_path / "r", progress=False)
    assert (report.total, report.resumed, report.computed) == (4, 0, 4)
    table = load_results(tmp_path / "r")
    assert list(table.columns[: len(COORDINATES)]) == list(COORDINATES)
    assert len(table) == 2 * 4  # 2 table sizes x 4 hands, one equity row each
    assert table["players"].tolist() == [2] * 4 + [4] * 4
    assert table["hand_class"].isna().tolist() == [True, False, False, False] * 2
    assert table["class_id"].isna().sum() == 2 and table["sample"].isna().all()
    assert table.attrs["complete"] and table.attrs["units_total"] == 4
    assert table["hero_pass"].str.fullmatch(r"(\w\w ){2}\w\w").all()  # ASCII card text
    assert str(table["target_deals"].dtype) == "Int64"
    table.attrs = {}
    pd.testing.assert_frame_equal(table, compute_sweep(spec))


def test_every_row_is_the_direct_analysis_call(tmp_path):
    spec = small_spec(kind=["equity", "pass", "discard"], players=3, hand_classes=["AA/K"],
                      samples_per_class=2, opponents=["random-pass", "sensible"])  # fmt: skip
    table = compute_sweep(spec)
    for (kind, opponents, hand, seed), rows in table.groupby(
        ["kind", "opponents", "hand", "hand_seed"], sort=False
    ):
        # a spec naming no hero plays the sweeps' own default, not the analyses'
        kwargs = {"opponents": opponents, "hero": DEFAULT_HERO, "deals": 200, "seed": seed,
                  "progress": False}  # fmt: skip
        if kind == "equity":
            direct = equity(hand, 3, **kwargs)
            assert rows["equity"].tolist() == direct["value"].tolist()
            assert rows["se"].tolist() == direct["se"].tolist()
        else:
            fn = pass_values if kind == "pass" else discard_values
            direct = fn(hand, 3, unicode=False, **kwargs)
            label = "pass" if kind == "pass" else "discard"
            assert rows[label].tolist() == direct[label].tolist()
            assert rows["value"].tolist() == direct["value"].tolist()
            assert (rows["deals"] == 200).all()
    samples = table[table["kind"] == "equity"].groupby("opponents")["hand"].apply(list)
    # the same sampled hands play at every grid point
    assert samples.iloc[0] == samples.iloc[1]


def test_numbers_do_not_depend_on_the_unit_size():
    a = compute_sweep(small_spec(unit_size=1))
    b = compute_sweep(small_spec(unit_size=3))
    assert a["unit"].tolist() != b["unit"].tolist()
    pd.testing.assert_frame_equal(a.drop(columns="unit"), b.drop(columns="unit"))


def test_precision_stopping_is_recorded():
    table = compute_sweep(small_spec(deals=None, precision=0.05, max_deals=20_000,
                                     hand_classes=[]))  # fmt: skip
    assert table["target_deals"].isna().all() and (table["target_precision"] == 0.05).all()
    assert (table["se"] < 0.05).all()


def test_summarize_classes_averages_the_samples():
    spec = small_spec(hands=[], players=2, samples_per_class=4, hand_classes=["AA/K", "777"])
    table = compute_sweep(spec)
    summary = summarize_classes(table)
    assert summary["hand_class"].tolist() == ["AA/K", "777"]  # class id order
    assert (summary["hands"] == 4).all() and (summary["deals"] == 800).all()
    for _, row in summary.iterrows():
        hands = table[table["hand_class"] == row["hand_class"]]["equity"]
        assert row["equity"] == pytest.approx(hands.mean())
        assert row["se"] == pytest.approx(hands.std(ddof=1) / 2)
    assert set(summary["family"]) == {"trips", "pair"}
    with pytest.raises(ValueError, match="no equity rows of hand classes"):
        summarize_classes(compute_sweep(small_spec(hand_classes=[], players=2)))


def test_reveal_sweep_equals_direct_calls():
    from anaconda_sim import analysis
    table = compute_sweep({"kind": "reveal", "players": 3, "hands": ["Qs Qh Qd 9c 9d"],
                           "deals": 50, "hero": "call-down"})  # fmt: skip
    assert len(table) == 120 and table["order"].is_unique
    assert (table["opponents"] == "sensible").all()  # the sweep's default for reveal
    direct = analysis.reveal_values("Qs Qh Qd 9c 9d", 3, hero="call-down", fold=False, deals=50,
                                    opponents="sensible",
                                    seed=int(table["hand_seed"].iat[0]), unicode=False,
                                    progress=False)  # fmt: skip
    assert table["order"].tolist() == direct["order"].tolist()
    assert table["value"].tolist() == direct["value"].tolist()


# ------------------------------------------------------------------ resume --
def test_resume_skips_finished_units_and_gives_the_same_files(tmp_path):
    spec = small_spec()
    run_sweep(spec, tmp_path / "full", progress=False)
    partial = tmp_path / "partial"
    run_sweep(spec, partial, progress=False)
    for name in ("unit-000001.parquet", "unit-000003.parquet"):
        (partial / "units" / name).unlink()
    (partial / "units" / ".unit-000001.parquet.999.tmp").write_bytes(b"half a file")
    assert sweep_status(partial).temporary == 1
    messages: list[str] = []
    report = run_sweep(spec, partial, progress=False, echo=messages.append)
    assert messages == ["resuming: 2 of 4 units already done"]
    assert (report.resumed, report.computed) == (2, 2)
    assert unit_bytes(partial) == unit_bytes(tmp_path / "full")
    assert leftovers(partial) == []


def test_a_different_spec_is_refused_with_both_hashes(tmp_path):
    old = small_spec()
    run_sweep(old, tmp_path, progress=False)
    new = small_spec(deals=300)
    with pytest.raises(SweepError) as info:
        run_sweep(new, tmp_path, progress=False)
    message = str(info.value)
    assert old.spec_hash in message and new.spec_hash in message
    assert "changed: deals [200] -> [300]" in message
    assert "4 of 4 units done" in message and "new --out folder" in message
    # a description is not part of the numbers: same hash, resumes
    assert run_sweep(small_spec(description="notes"), tmp_path, progress=False).computed == 0


def test_a_folder_with_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(SweepError, match="is not empty and holds no sweep"):
        run_sweep(small_spec(), tmp_path, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # lock removed


def test_two_runs_cannot_write_to_one_folder(tmp_path):
    spec = small_spec()
    with store_module.SweepStore.open(tmp_path, spec, spec.units()):
        with pytest.raises(SweepError, match="another sweep is writing to"):
            run_sweep(spec, tmp_path, progress=False)
    assert run_sweep(spec, tmp_path, progress=False).computed == 4


def test_edited_or_foreign_manifests_are_reported(tmp_path):
    run_sweep(small_spec(), tmp_path, progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["spec"]["deals"] = [999]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SweepError, match="was edited: its spec hashes to"):
        sweep_status(tmp_path)
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(SweepError, match="cannot read"):
        load_results(tmp_path)
    with pytest.raises(SweepError, match="holds no sweep"):
        sweep_status(tmp_path / "elsewhere")


# -------------------------------------------------------------- disk errors --
def test_full_disk_gives_a_clear_error_and_no_partial_file(tmp_path, monkeypatch):
    spec = small_spec()
    real = store_module._write_chunk
    calls = {"n": 0}

    def fill_up(fd, view):
        calls["n"] += 1
        # the manifest; then per unit its checksum in the manifest and its file:
        # unit 0 fits, unit 1 is recorded, then half of its file fits
        if calls["n"] >= 5:
            real(fd, view[: len(view) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, view)

    monkeypatch.setattr(store_module, "_write_chunk", fill_up)
    with pytest.raises(SweepError) as info:
        run_sweep(spec, tmp_path / "r", progress=False)
    message = str(info.value)
    assert "cannot write unit 1 to" in message and "No space left on device (ENOSPC)" in message
    assert "free some space, then run the same command again" in message
    assert "1 of 4 units are finished and kept" in message
    assert leftovers(tmp_path) == []
    assert sorted(unit_bytes(tmp_path / "r")) == ["unit-000000.parquet"]
    monkeypatch.setattr(store_module, "_write_chunk", real)
    assert run_sweep(spec, tmp_path / "r", progress=False).computed == 3
    run_sweep(spec, tmp_path / "ref", progress=False)
    assert unit_bytes(tmp_path / "r") == unit_bytes(tmp_path / "ref")


def test_crash_between_write_and_rename_leaves_no_unit(tmp_path, monkeypatch):
    spec = small_spec(hand_classes=[])
    real = os.replace

    def crash(src, dst):
        if "unit-000001" in str(dst):
            raise KeyboardInterrupt  # stands in for the process dying here
        return real(src, dst)

    monkeypatch.setattr(store_module.os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, tmp_path, progress=False)
    monkeypatch.setattr(store_module.os, "replace", real)
    assert sorted(unit_bytes(tmp_path)) == ["unit-000000.parquet"]
    assert run_sweep(spec, tmp_path, progress=False).computed == 1


def test_unwritable_folders_give_clear_errors(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SweepError, match=r"cannot write the results folder .*file/r.*Not a dir"):
        run_sweep(small_spec(), blocker / "r", progress=False)

    def denied(fd, view):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(store_module, "_write_chunk", denied)
    expected = r"cannot write the manifest .*Permission denied \(EACCES\); choose a folder you"
    with pytest.raises(SweepError, match=expected):
        run_sweep(small_spec(), tmp_path / "r", progress=False)
    assert leftovers(tmp_path) == [] and not (tmp_path / "r" / "manifest.json").exists()


def test_a_damaged_unit_file_is_named(tmp_path):
    run_sweep(small_spec(), tmp_path, progress=False)
    (tmp_path / "units" / "unit-000002.parquet").write_bytes(b"garbage")
    with pytest.raises(SweepError, match=r"unit-000002\.parquet' cannot be read .*delete it"):
        load_results(tmp_path)


def test_status_of_a_partial_sweep(tmp_path):
    spec = small_spec(description="three classes")
    run_sweep(spec, tmp_path, progress=False)
    (tmp_path / "units" / "unit-000003.parquet").unlink()
    status = sweep_status(tmp_path)
    assert status.done == (0, 1, 2) and not status.complete
    assert status.groups()[["players", "units", "done", "hands"]].values.tolist() == [
        [2, 2, 2, 4], [4, 2, 1, 4],
    ]  # fmt: skip
    text = str(status)
    assert text.startswith(f"sweep {spec.spec_hash} in ") and "3 of 4 units done (75%)" in text
    assert "three classes" in text
    assert load_results(tmp_path).attrs["complete"] is False


# --------------------------------------------------------------------- CLI --
def test_cli_runs_resumes_exports_and_shows_status(tmp_path):
    from anaconda_sim.cli.sweep import main

    spec = tmp_path / "spec.toml"
    spec.write_text('kind = "equity"\nplayers = [2, 3]\nhand_classes = ["AA/K", "777"]\n'
                    'samples_per_class = 2\ndeals = 200\nunit_size = 2\n')  # fmt: skip
    out, err = io.StringIO(), io.StringIO()
    args = [str(spec), "--out", str(tmp_path / "res"), "--quiet"]
    assert main(args, stdout=out, stderr=err) == 0
    (tmp_path / "res" / "units" / "unit-000000.parquet").unlink()
    out = io.StringIO()
    extra = ["--export", str(tmp_path / "all.csv"), "--summary", str(tmp_path / "sum.csv")]
    assert main(args + extra, stdout=out, stderr=err) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "resuming: 3 of 4 units already done"
    assert "(3 already done, 1 computed)" in lines[1]
    assert lines[2] == f"table written to {tmp_path / 'all.csv'}"
    assert len(pd.read_csv(tmp_path / "all.csv")) == 8
    assert len(pd.read_csv(tmp_path / "sum.csv")) == 4
    out = io.StringIO()
    assert main(["--status", str(tmp_path / "res")], stdout=out) == 0
    assert "4 of 4 units done (100%), complete" in out.getvalue()
    assert err.getvalue() == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "give a spec file (sweep SPEC.toml --out FOLDER), or --status FOLDER"),
        (["spec.toml"], "give the results folder: --out FOLDER"),
        (["missing.toml", "--out", "r"], "cannot read sweep spec 'missing.toml'"),
        (["--status", "nowhere"], "'nowhere' holds no sweep (manifest.json is missing)"),
        (["spec.toml", "--status", "r"], "--status FOLDER shows a folder"),
    ],
)
def test_cli_errors_are_one_line(tmp_path, monkeypatch, argv, message):
    from anaconda_sim.cli.sweep import main

    monkeypatch.chdir(tmp_path)
    err = io.StringIO()
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    text = err.getvalue()
    assert text.count("\n") == 1 and text.startswith("anaconda-sim: error: ")
    assert message in text


def test_register_adds_the_subcommand():
    import argparse

    from anaconda_sim.cli.parser import register_sweep

    parser = argparse.ArgumentParser()
    register_sweep(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["sweep", "s.toml", "--out", "r", "--local-cluster", "2"])
    assert args.handler == "sweep:command"
    assert args.local_cluster == 2 and args.scheduler is None
    with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
        parser.parse_args(["sweep", "s.toml", "--scheduler", "tcp://x:1", "--local-cluster", "2"])


def test_backend_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match="at most one of scheduler, local_cluster and client"):
        run_sweep(small_spec(), tmp_path, scheduler="tcp://127.0.0.1:1", local_cluster=2)
    with pytest.raises(ValueError, match="local_cluster=0 must be a number of workers"):
        run_sweep(small_spec(), tmp_path, local_cluster=0)
