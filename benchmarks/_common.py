"""Shared plumbing of the benchmark scripts: timing, machine facts, output files."""

from __future__ import annotations

import csv
import json
import os
import platform
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

RESULTS = Path(__file__).resolve().parent / "results"


def best_time(fn: Callable[[], object], repeats: int = 3) -> float:
    """Best wall time of ``repeats`` calls (seconds)."""
    return best_times(fn, repeats)[0]


def best_times(fn: Callable[[], object], repeats: int = 3) -> tuple[float, float]:
    """``(wall, cpu)`` seconds of the call with the best wall time of
    ``repeats``; the process CPU time counts every thread's, and a busy
    machine disturbs it less than the wall time."""
    best = (float("inf"), float("inf"))
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        timing = (time.perf_counter() - wall, time.process_time() - cpu)
        best = min(best, timing)
    return best


def load_average() -> float:
    """The one-minute load average (how many cores were busy), or NaN."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def peak_memory_mb() -> float:
    """Peak resident memory of this process so far (MiB)."""
    # ru_maxrss is in KiB on Linux (bytes on macOS)
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def machine() -> dict:
    import numba

    return {
        "python": platform.python_version(),
        "numba": numba.__version__,
        "cpu_count": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "processor": platform.processor() or platform.machine(),
    }


def write_results(name: str, rows: list[dict], quick: bool, extra: dict | None = None) -> Path:
    """Write ``rows`` as CSV and JSON (with machine facts) under results/."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = f"{name}.quick" if quick else name
    frame = pd.DataFrame(rows)
    frame.to_csv(RESULTS / f"{stem}.csv", index=False)
    payload = {"machine": machine(), "quick": quick, "rows": rows, **(extra or {})}
    path = RESULTS / f"{stem}.json"
    path.write_text(json.dumps(payload, indent=2, default=float))
    return path


def write_figures(stem: str, figures: dict, out: Path) -> list[Path]:
    """Write ``figures`` as ``STEM[.quick].json`` (all of it) and ``.csv`` (its
    ``rows``) under ``out``; ``.quick`` when ``figures["mode"]`` is quick."""
    out.mkdir(parents=True, exist_ok=True)
    if figures["mode"] == "quick":
        stem = f"{stem}.quick"
    json_path = out / f"{stem}.json"
    csv_path = out / f"{stem}.csv"
    json_path.write_text(json.dumps(figures, indent=2) + "\n")
    with csv_path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(figures["rows"][0]))
        writer.writeheader()
        writer.writerows(figures["rows"])
    return [json_path, csv_path]
