"""The records benchmark runs in its quick mode and writes its figures."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_records.py"


def test_quick_benchmark_streams_records_and_writes_json_and_csv(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_records", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.main(["--quick", "--deals", "3000", "--players", "4",
                           "--out", str(tmp_path), "--quiet"])  # fmt: skip
    assert figures["mode"] == "quick"
    (row,) = figures["rows"]
    assert row["deals"] == 3000 and row["players"] == 4
    assert row["deals_per_s"] > 0 and row["deals_per_s_without_records"] > 0
    assert row["row_groups"] == 1  # 3,000 deals fit one chunk
    assert 0 < row["file_bytes_per_row"] < row["memory_bytes_per_row"] < 200
    assert row["peak_rss_mib"] >= row["peak_rss_mib_before"] > 0
    on_disk = json.loads((tmp_path / "bench_records.quick.json").read_text())
    assert on_disk["rows"] == json.loads(json.dumps(figures["rows"]))
    with (tmp_path / "bench_records.quick.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == 1
