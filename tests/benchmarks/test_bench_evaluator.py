"""The evaluator benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_evaluator.py"


def _load():
    spec = importlib.util.spec_from_file_location("bench_evaluator", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_evaluator_quick():
    result = _load().main(["--quick", "--quiet"])
    path = Path(result["path"])
    assert path.name == "evaluator.quick.json"
    assert path.with_suffix(".csv").exists()
    payload = json.loads(path.read_text())
    assert payload["quick"] is True
    assert payload["checked_against_phevaluator"] > 0
    libraries = {(r["library"], r["cards"], r["threads"] == 1) for r in payload["rows"]}
    for cards in (5, 7):
        assert ("anaconda_sim eval_rows", cards, True) in libraries
        assert (
            "anaconda_sim eval_rows_parallel",
            cards,
            payload["machine"]["numba_threads"] == 1,
        ) in libraries
        for low in ("low_rows", "low_rows_parallel", "evaluate_low (validated)"):
            assert any(
                r["library"] == f"anaconda_sim {low}" and r["cards"] == cards
                for r in payload["rows"]
            )
        for peer in ("phevaluator", "eval7", "treys"):
            assert (peer, cards, True) in libraries
    for row in payload["rows"]:
        assert row["evals_per_s"] > 0
        if row["library"].startswith("anaconda_sim"):
            assert row["ratio_vs_phevaluator"] > 0
        if row["library"].startswith("anaconda_sim") and "low" in row["library"]:
            assert row["ratio_vs_high"] > 0
