"""The sweep benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_sweep.py"


def _load():
    spec = importlib.util.spec_from_file_location("bench_sweep", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_bench_sweep_quick_without_cluster():
    result = _load().main(["--quick", "--no-cluster", "--quiet"])
    path = Path(result["path"])
    assert path.name == "sweep.quick.json" and path.with_suffix(".csv").exists()
    payload = json.loads(path.read_text())
    assert payload["quick"] is True
    engines = {(r["task"].split()[0], r["engine"]) for r in payload["rows"]}
    for kind in ("equity", "pass"):
        assert (kind, "direct analysis calls") in engines
        assert (kind, "run_sweep local") in engines
        assert payload[f"{kind}_sweep_over_direct"] > 0
    assert all(r["hands_per_s"] > 0 for r in payload["rows"])
