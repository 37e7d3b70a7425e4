"""Speed of sweeps: the cost of the sweep machinery, and Dask scaling.

1. Overhead. The same hands with the same seeds, analysed (a) by direct calls
   of ``analysis.equity`` / ``analysis.pass_values`` in a loop and (b) by
   ``run_sweep`` on the local backend into a fresh folder (spec, seeds,
   class samples, Parquet files, manifest all included), on one numba thread,
   in interleaved pairs; the ratio is the median over the pairs, of CPU time
   (``*_sweep_over_direct``; robust to other work on a shared machine) and of
   wall time (``*_wall_sweep_over_direct``). Target: the sweep within 10% of
   the direct calls.
2. Scaling. An equity sweep of units of a few seconds each on a Dask
   ``LocalCluster`` of 1 and of 2 single-threaded worker processes (started
   and warmed up before the clock starts). Target: 2 workers >= 1.6x one
   worker on 2 cores.

Usage: ``python benchmarks/bench_sweep.py [--quick]``. Figures go to
``benchmarks/results/sweep.{json,csv}`` (``sweep.quick.*`` in quick mode).
The machine's load average is recorded with them: other work on the cores
slows the runs down.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from _common import write_results


def _direct(spec, kind: str):
    """A function doing the sweep's analyses by direct calls (hands and seeds prepared)."""
    from anaconda_sim import analysis
    from anaconda_sim.sweep.work import hand_seed, slot_hand

    jobs = []
    for unit in spec.units():
        for slot in unit.slots:
            jobs.append((slot_hand(slot, unit.seed), unit.players, hand_seed(unit, slot)))
    deals = spec.deals[0]
    fn = analysis.equity if kind == "equity" else analysis.pass_values

    def run():
        for hand, players, seed in jobs:
            fn(hand, players, deals=deals, seed=seed, progress=False)

    return run, len(jobs)


def _sweep(spec):
    from anaconda_sim.sweep import run_sweep

    def run():
        with tempfile.TemporaryDirectory() as folder:
            run_sweep(spec, Path(folder) / "r", progress=False)

    return run


PASS_CLASSES = ["AA/K", "QQ/A F4", "777", "KQ-high", "T9-high S4", "KK-55 F4", "99/T-",
                "AK-high F4 S4"]  # fmt: skip


def overhead_rows(quick: bool) -> tuple[list[dict], dict[str, float]]:
    import numba

    from anaconda_sim.sweep import SweepSpec

    # units of many hands, as a real sweep has: trips classes, 2 hands each
    equity_spec = SweepSpec(kind="equity", players=6, hand_classes="trips",
                            samples_per_class=1 if quick else 2, deals=1000 if quick else 5000,
                            unit_size=64, seed=1)  # fmt: skip
    pass_spec = SweepSpec(kind="pass", players=6, hand_classes=PASS_CLASSES,
                          deals=2000 if quick else 10_000, unit_size=4, seed=1)  # fmt: skip
    rows = []
    ratios = {}
    threads = numba.get_num_threads()
    # one numba thread: a parallel kernel waits for its slowest thread, so other
    # work on a shared machine would swamp the difference being measured
    numba.set_num_threads(1)
    try:
        for kind, spec in (("equity", equity_spec), ("pass", pass_spec)):
            direct, hands = _direct(spec, kind)
            sweep = _sweep(spec)
            direct()  # warm-up: compiles or loads the kernels
            # interleaved pairs: a slow spell of a busy machine hits both sides
            pairs = [(_timed(direct), _timed(sweep)) for _ in range(1 if quick else 5)]
            # CPU time of this process: other programs on the cores barely change it
            ratios[kind] = float(np.median([b[1] / a[1] for a, b in pairs]))
            ratios[f"{kind}_wall"] = float(np.median([b[0] / a[0] for a, b in pairs]))
            units = len(spec.units())
            for engine, side in (("direct analysis calls", 0), ("run_sweep local", 1)):
                wall = min(p[side][0] for p in pairs)
                cpu = min(p[side][1] for p in pairs)
                rows.append({"task": f"{kind} 6p, {hands} hands x {spec.deals[0]} deals",
                             "engine": engine, "workers": 1, "units": units, "hands": hands,
                             "seconds": wall, "cpu_seconds": cpu,
                             "hands_per_s": hands / wall})  # fmt: skip
    finally:
        numba.set_num_threads(threads)
    return rows, ratios


def _timed(fn) -> tuple[float, float]:
    """(wall, CPU) seconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def _warm(dask_worker=None) -> int:
    """Run on each worker: load the kernels before the clock starts."""
    from anaconda_sim.analysis import equity
    from anaconda_sim.hands.classes import sample_hands

    # the sweeps below name no opponents: they play the sweeps' default, random-pass
    equity(sample_hands("AA/K", 1, seed=0)[0], 6, deals=50, seed=0, progress=False,
           opponents="random-pass")  # fmt: skip
    return os.getpid()


def scaling_rows(quick: bool) -> list[dict]:
    from distributed import Client, LocalCluster

    from anaconda_sim.sweep import SweepSpec, run_sweep

    # units of a few seconds on one core: 64 hands x 5,000 deals at 6 players
    spec = SweepSpec(kind="equity", players=6, hand_classes="pair", samples_per_class=1,
                     deals=1000 if quick else 5000, unit_size=64, seed=3)  # fmt: skip
    units = spec.units()[: 4 if quick else 8]
    hands = sum(len(u.slots) for u in units)
    limited = SweepSpec(**{**spec.to_dict(), "hand_classes": [s.hand_class for u in units
                                                             for s in u.slots]})  # fmt: skip
    task = f"equity 6p, {len(units)} units x 64 hands x {spec.deals[0]} deals"
    options = {"threads_per_worker": 1, "processes": True, "dashboard_address": None,
               "scheduler_kwargs": {"dashboard_address": ":0"},
               "silence_logs": logging.ERROR}  # fmt: skip
    rows = []
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, **options) as cluster, Client(cluster) as client:
            client.run(_warm)
            with tempfile.TemporaryDirectory() as folder:
                start = time.perf_counter()
                run_sweep(limited, Path(folder) / "r", client=client, progress=False)
                seconds = time.perf_counter() - start
        rows.append({"task": task, "engine": "run_sweep LocalCluster", "workers": workers,
                     "units": len(units), "hands": hands, "seconds": seconds,
                     "hands_per_s": hands / seconds})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (for the tests)")
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask scaling part")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()[0]
    rows, ratios = overhead_rows(args.quick)
    if not args.no_cluster:
        rows += scaling_rows(args.quick)
    extra: dict = {"load_average_before": load_before, "load_average_after": os.getloadavg()[0]}
    for kind, ratio in ratios.items():
        # median over interleaved pairs; "<kind>": CPU time, "<kind>_wall": wall time
        extra[f"{kind}_sweep_over_direct"] = ratio
    cluster = [r for r in rows if r["engine"] == "run_sweep LocalCluster"]
    if cluster:
        extra["two_workers_speedup"] = cluster[0]["seconds"] / cluster[1]["seconds"]
    path = write_results("sweep", rows, args.quick, extra)
    if not args.quiet:
        for row in rows:
            print(f"{row['task']:<44} {row['engine']:<24} workers={row['workers']} "
                  f"{row['seconds']:8.2f} s {row['hands_per_s']:8.1f} hands/s")  # fmt: skip
        for key, value in extra.items():
            print(f"{key}: {value:.3f}")
        print(f"figures in {path}")
    return {**extra, "path": str(path)}


if __name__ == "__main__":
    main()
