"""The analysis benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # eval7's pyparsing import
def test_bench_analysis_quick_mode(capsys):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_analysis
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    extra = bench_analysis.main(["--quick"])
    capsys.readouterr()
    assert extra["speedup_vs_eval7_loop"] > 1
    payload = json.loads((ROOT / "benchmarks" / "results" / "analysis.quick.json").read_text())
    tasks = {row["task"] for row in payload["rows"]}
    assert {"pass_values 6p 35 choices", "reveal_values 6p 120 orders betting",
            "pass_values 6p 35 choices betting"} <= tasks  # fmt: skip
    assert all(row["seconds"] > 0 for row in payload["rows"])
    ours = [row for row in payload["rows"] if row["engine"] == "anaconda-sim"]
    assert all(row["cpu_seconds"] > 0 for row in ours)
    betting = {row["opponents"] for row in ours if row["task"].endswith("betting")}
    assert {"learned", "sensible"} <= betting
