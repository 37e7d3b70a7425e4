"""The cold-start benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_cold_start.py"


def _module():
    spec = importlib.util.spec_from_file_location("bench_cold_start", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_quick_benchmark_times_evaluate_cold_cached_and_warm(tmp_path: Path) -> None:
    figures = _module().main(["--quick", "--out", str(tmp_path), "--quiet"])
    assert figures["mode"] == "quick"
    (row,) = figures["rows"]
    assert row["entry_point"] == "evaluate"
    # an empty cache compiles; the filled cache then loads: the second process is faster
    assert row["cold_s"] > row["cached_s"] > row["warm_s"] >= 0
    # every process's CPU (the compile workers' too) holds the caller's
    assert row["cold_cpu_all_s"] >= row["cold_cpu_s"] > 0
    # a copy of the package in another folder finds the same cache entries
    assert row["second_clone_s"] < row["cold_s"]
    on_disk = json.loads((tmp_path / "cold_start.quick.json").read_text())
    assert on_disk["rows"] == json.loads(json.dumps(figures["rows"]))
    with (tmp_path / "cold_start.quick.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == 1


def test_every_public_entry_point_has_a_first_call() -> None:
    assert set(_module().CALLS) == {
        "evaluate", "pass_values", "discard_values", "equity", "simulate", "reveal_values",
        "exploitability", "action_values", "sweep unit",
    }  # fmt: skip
