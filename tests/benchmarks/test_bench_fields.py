"""The fields benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_fields.py"


@pytest.mark.slow
def test_quick_benchmark_compares_the_learned_field_with_the_sensible_one(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_fields", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.main(["--quick", "--deals", "100", "--out", str(tmp_path), "--quiet"])
    whats = [row["what"] for row in figures["rows"]]
    assert whats == ["simulate 6p", "pass_values 6p betting", "reveal_values 6p betting",
                     "phase table 6p (ns per deal)"]  # fmt: skip
    for row in figures["rows"]:
        assert row["learned_cpu_s"] > 0 and row["sensible_cpu_s"] > 0
        assert row["learned_vs_sensible"] == pytest.approx(
            row["learned_cpu_s"] / row["sensible_cpu_s"])
    assert len(figures["phases"]) == 6
    written = json.loads((tmp_path / "bench_fields.quick.json").read_text())
    assert written["rows"] == json.loads(json.dumps(figures["rows"]))
    assert (tmp_path / "bench_fields.quick.csv").read_text().startswith("what,")
