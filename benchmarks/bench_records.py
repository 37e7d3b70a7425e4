"""Records at scale: deals streamed to Parquet per second, and the memory it takes.

Plays N deals (default 20 million, 6 players, ``"sensible"`` at every seat)
with :func:`anaconda_sim.sim.simulator.simulate` and ``records=PATH``,
which appends one row per deal and seat to a Parquet file chunk by chunk.
Reports deals and rows per second, the file's size, the peak resident
memory of the process (``resource.getrusage().ru_maxrss``: it should not
grow with N), the in-memory size of the same records per deal and seat
(``records=True`` on a smaller run), and deals per second without records
(compilation excluded: every configuration is warmed up first).

Usage::

    python benchmarks/bench_records.py            # full: 20M deals
    python benchmarks/bench_records.py --quick    # smoke mode (what the tests run)

Figures go to ``benchmarks/results/bench_records.json`` and ``.csv``
(``bench_records.quick.json``/``.csv`` in quick mode; those are gitignored).
The Parquet file goes to a temporary folder and is deleted, unless
``--keep PATH`` names where to keep it.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numba
import pyarrow.parquet as pq

from anaconda_sim.sim.simulator import simulate
from anaconda_sim.table.rules import Rules

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_memory_mb, write_figures

RESULTS = Path(__file__).resolve().parent / "results"


def run(quick: bool, deals: int | None, players: int, strategy: str,
        keep: Path | None) -> dict[str, Any]:  # fmt: skip
    """Stream the deals to Parquet; return the figures (also what is written)."""
    deals = deals or (20_000 if quick else 20_000_000)
    rules = Rules(players=players)
    # warm up (compile) both paths before any timing or memory figure
    simulate(rules, strategy, 200, seed=0, progress=False)
    memory = simulate(rules, strategy, min(deals, 50_000), seed=1, records=True, progress=False)
    rec = memory.records
    bytes_per_row = float(rec.memory_usage(deep=True).sum() / len(rec))
    del memory, rec
    baseline_deals = min(deals, 1_000_000)
    start = time.perf_counter()
    simulate(rules, strategy, baseline_deals, seed=2, progress=False)
    baseline_rate = baseline_deals / (time.perf_counter() - start)
    rss_before = peak_memory_mb()
    with tempfile.TemporaryDirectory() as folder:
        path = keep or Path(folder) / "records.parquet"
        start = time.perf_counter()
        result = simulate(rules, strategy, deals, seed=3, records=path, progress=False)
        elapsed = time.perf_counter() - start
        stored = pq.ParquetFile(path)
        rows = stored.metadata.num_rows
        row_groups = stored.num_row_groups
        file_bytes = path.stat().st_size
    assert result.deals == deals and rows == deals * players
    row = {
        "players": players,
        "strategy": strategy,
        "deals": deals,
        "seconds": elapsed,
        "deals_per_s": deals / elapsed,
        "rows_per_s": rows / elapsed,
        "deals_per_s_without_records": baseline_rate,
        "record_cost": baseline_rate / (deals / elapsed),
        "row_groups": row_groups,
        "file_mib": file_bytes / 2**20,
        "file_bytes_per_row": file_bytes / rows,
        "memory_bytes_per_row": bytes_per_row,
        "peak_rss_mib_before": rss_before,
        "peak_rss_mib": peak_memory_mb(),
    }
    return {
        "benchmark": "bench_records",
        "mode": "quick" if quick else "full",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "machine": {
            "python": platform.python_version(),
            "numba": numba.__version__,
            "processor": platform.processor() or platform.machine(),
            "threads": numba.get_num_threads(),
        },
        "rows": [row],
    }


def write(figures: dict[str, Any], out: Path) -> list[Path]:
    """Write ``bench_records[.quick].json`` and ``.csv`` under ``out``."""
    return write_figures("bench_records", figures, out)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--deals", type=int, default=None, help="deals to stream")
    parser.add_argument("--players", type=int, default=6, help="players (2..7)")
    parser.add_argument("--strategy", default="sensible", help="strategy at every seat")
    parser.add_argument("--keep", type=Path, default=None, help="keep the Parquet file here")
    parser.add_argument("--out", type=Path, default=RESULTS, help="output folder")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    figures = run(args.quick, args.deals, args.players, args.strategy, args.keep)
    paths = write(figures, args.out)
    if not args.quiet:
        r = figures["rows"][0]
        print(f"{r['deals']:,} deals x {r['players']} seats in {r['seconds']:.1f} s: "
              f"{r['deals_per_s']:,.0f} deals/s ({r['rows_per_s']:,.0f} rows/s; "
              f"{r['deals_per_s_without_records']:,.0f} deals/s without records)")  # fmt: skip
        print(f"file {r['file_mib']:,.0f} MiB ({r['file_bytes_per_row']:.1f} bytes/row, "
              f"{r['row_groups']} row groups); in memory {r['memory_bytes_per_row']:.1f} "
              f"bytes/row; peak RSS {r['peak_rss_mib']:,.0f} MiB")  # fmt: skip
        print("wrote", *paths)
    return figures


if __name__ == "__main__":
    main()
