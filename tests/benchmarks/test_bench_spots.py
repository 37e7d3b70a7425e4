"""The spots benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_spots.py"

TIMES = ("wall_s", "cpu_s", "pilot_s", "starts_s", "walk_s", "play_s", "peer_wall_s",
         "importance_wall_s", "importance_scaled_s")  # fmt: skip
FINITE = (*TIMES, "other_s", "ess", "ess_min_choice", "accepted", "walk_vs_peer",
          "importance_vs_walk", "importance_ess")  # fmt: skip


@pytest.mark.slow
def test_quick_benchmark_writes_json_and_csv(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_spots", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.main(["--quick", "--out", str(tmp_path), "--quiet"])
    assert figures["mode"] == "quick"
    rows = figures["rows"]
    assert [(r["strategy"], r["spot"]) for r in rows] == [("sensible", 0), ("learned", 0)]
    for r in rows:
        assert r["deals"] == module.QUICK_DEALS
        assert r["revealed"] >= 2 and r["to_call"] > 0 and r["active"] >= 3
        assert r["choices"] >= 2 and r["peer_deals"] == r["deals"] * r["choices"]
        assert all(math.isfinite(r[f]) for f in FINITE)
        assert all(r[f] > 0 for f in TIMES)
        assert 0 < r["ess"] <= r["deals"] and 0 < r["accepted"] <= 1
        assert len(r["tries"].split()) == r["rivals"]
        assert r["walk_vs_peer"] == pytest.approx(r["wall_s"] / r["peer_wall_s"])
        assert r["within_target"] == (r["wall_s"] <= module.TARGET_S)
    summary = figures["summary"]
    assert [s["strategy"] for s in summary] == ["sensible", "learned"]
    for s, r in zip(summary, rows, strict=True):
        assert s["median_wall_s"] == s["max_wall_s"] == r["wall_s"]
        assert s["target_s"] == module.TARGET_S
    assert figures["machine"]["cpu_model"]
    on_disk = json.loads((tmp_path / "bench_spots.quick.json").read_text())
    assert on_disk["rows"] == json.loads(json.dumps(rows))
    assert on_disk["summary"] == json.loads(json.dumps(summary))
    with (tmp_path / "bench_spots.quick.csv").open() as handle:
        table = list(csv.DictReader(handle))
    assert len(table) == len(rows)
    assert set(table[0]) == set(rows[0])
    assert all(math.isfinite(float(line[f])) for line in table for f in FINITE)
