"""The learning benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_learning.py"


def _bench() -> Any:
    """The benchmark script as a module."""
    spec = importlib.util.spec_from_file_location("bench_learning", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_quick_benchmark_times_every_stage_of_an_iteration(tmp_path: Path) -> None:
    module = _bench()
    figures = module.main(["--quick", "--players", "2", "--out", str(tmp_path), "--quiet"])
    assert figures["mode"] == "quick"
    (row,) = figures["rows"]
    assert row["players"] == 2 and row["cpu_s"] > 0 and row["wall_s"] > 0
    stage_cpu = [row[f"{stage.replace(' ', '_')}_cpu_s"] for stage in module.STAGES]
    # every stage ran, and the stages (which do not overlap) fit in the iteration
    assert all(t > 0 for t in stage_cpu)
    assert sum(stage_cpu) <= row["cpu_s"] * 1.01 + 0.05
    written = json.loads((tmp_path / "bench_learning.quick.json").read_text())
    assert written["rows"] == json.loads(json.dumps(figures["rows"]))
    with (tmp_path / "bench_learning.quick.csv").open() as handle:
        assert [int(r["players"]) for r in csv.DictReader(handle)] == [2]


@pytest.mark.slow
def test_quick_benchmark_times_the_field_loop(tmp_path: Path) -> None:
    module = _bench()
    figures = module.main(["--quick", "--loop", "field", "--players", "2", "--out",
                           str(tmp_path), "--quiet"])  # fmt: skip
    (row,) = figures["rows"]
    assert row["loop"] == "field" and row["cpu_s"] > 0
    stage_cpu = [row[f"{stage.replace(' ', '_')}_cpu_s"] for stage in module.FIELD_STAGES]
    # every stage but the confirmation (a tiny search may keep no change) ran
    assert sum(t > 0 for t in stage_cpu) >= len(stage_cpu) - 1
    assert sum(stage_cpu) <= row["cpu_s"] * 1.01 + 0.05
    assert (tmp_path / "bench_learning_field.quick.json").exists()
