"""The Dask backend: worker processes give exactly the local backend's files."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from anaconda_sim.sweep import SweepSpec, load_results, run_sweep

distributed = pytest.importorskip("distributed")

SPEC = SweepSpec(
    kind=["equity", "pass"],
    players=[2, 5],
    hands=["Qs Qh 9c 8d 3s 4h 2c"],
    hand_classes=["AA/K", "QQ/A F4", "777"],
    samples_per_class=2,
    opponents=["random-pass", "sensible"],
    deals=300,
    seed=4,
    unit_size=3,
)


def _units(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "units").glob("unit-*.parquet"))}


@pytest.fixture(scope="module")
def local_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("local")
    run_sweep(SPEC, folder, progress=False)  # compiles the kernels into the on-disk cache
    return folder, _units(folder)


@pytest.mark.slow
def test_local_cluster_of_two_worker_processes_matches_the_local_backend(tmp_path, local_files):
    folder, expected = local_files
    report = run_sweep(SPEC, tmp_path, local_cluster=2, progress=False)
    assert report.backend == "a local cluster of 2 worker processes"
    assert report.computed == len(expected) == 2 * 2 * 2 * 3
    assert _units(tmp_path) == expected
    assert load_results(tmp_path).equals(load_results(folder))


@pytest.mark.slow
def test_scheduler_address_and_resume_on_a_cluster(tmp_path, local_files):
    _, expected = local_files
    options = {"threads_per_worker": 1, "processes": True, "dashboard_address": None,
               "scheduler_kwargs": {"dashboard_address": ":0"}}  # fmt: skip
    with distributed.LocalCluster(n_workers=2, silence_logs=logging.ERROR, **options) as cluster:
        run_sweep(SPEC, tmp_path, scheduler=cluster.scheduler_address, progress=False)
        for name in list(expected)[::3]:
            (tmp_path / "units" / name).unlink()
        messages: list[str] = []
        with distributed.Client(cluster) as client:
            report = run_sweep(SPEC, tmp_path, client=client, progress=False,
                               echo=messages.append)  # fmt: skip
    assert report.computed == 8 and report.backend == "the given Dask client"
    assert messages == ["resuming: 16 of 24 units already done"]
    assert _units(tmp_path) == expected
