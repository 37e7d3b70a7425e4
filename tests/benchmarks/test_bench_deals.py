"""The deals benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_deals.py"


@pytest.mark.slow
def test_quick_benchmark_writes_json_and_csv(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_deals", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.main(["--quick", "--deals", "3000", "--engine-deals", "5",
                           "--out", str(tmp_path), "--quiet"])  # fmt: skip
    assert figures["mode"] == "quick"
    rows = figures["rows"]
    assert {(r["players"], r["strategy"]) for r in rows} == {
        (n, s) for n in (2, 4, 6, 7) for s in ("call-down", "sensible")
    }
    for r in rows:
        assert r["deals_per_s_1_core"] > 0 and r["engine_deals_per_s"] > 0
        assert r["speedup_vs_engine_1_core"] > 1
    hilo = figures["hilo"]
    assert {(r["players"], r["strategy"]) for r in hilo} == {
        (n, s) for n in (2, 4, 6, 7) for s in ("call-down", "sensible")
    }
    for r in hilo:
        assert r["hilo_deals_per_cpu_s"] > 0 and r["default_deals_per_cpu_s"] > 0
        ratio = r["hilo_deals_per_cpu_s"] / r["default_deals_per_cpu_s"]
        assert r["hilo_vs_default"] == pytest.approx(ratio)
    kernels = figures["kernels"]
    assert {(r["players"], r["strategy"]) for r in kernels} == {(6, "call-down"), (6, "sensible")}
    for r in kernels:
        assert r["batch_deals_per_cpu_s"] > 0 and r["batch_deals_per_s_all_threads"] > 0
        ratio = r["batch_deals_per_s_all_threads"] / r["batch_deals_per_cpu_s"]
        assert r["thread_scaling"] == pytest.approx(ratio)
    phases = figures["phases"]
    assert [r["phase"] for r in phases] == list(module.PHASE_NAMES)
    assert all(r["ns_per_deal"] > 0 for r in phases)
    assert sum(r["share"] for r in phases) == pytest.approx(1.0)
    on_disk = json.loads((tmp_path / "bench_deals.quick.json").read_text())
    assert on_disk["rows"] == json.loads(json.dumps(rows))
    assert on_disk["hilo"] == json.loads(json.dumps(hilo))
    with (tmp_path / "bench_deals.quick.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == len(rows)
    assert figures["memory"]["peak_rss_mib"] > 0
