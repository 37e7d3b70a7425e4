"""Complete deals per second: the batch simulator, side by side with the reference engine.

For 2, 4, 6 and 7 players under the default rules, with call-down play (no
betting decisions) and with betting (``"sensible"``), on one core and on all
cores: deals per second of :func:`anaconda_sim.sim.simulator.simulate`
(compilation excluded: every configuration is warmed up first), the same
deals through the reference engine (:func:`anaconda_sim.game.play.play_deal`, on a
small subset) and the speed ratio, plus peak memory.

The same players and strategies under the hi-lo rules (:meth:`Rules.hilo`):
hi-lo deals per CPU second on one thread and the ratio hi-lo / default,
both timed in this process as interleaved runs (``hilo_vs_default``, the
best run of each; under 1 means hi-lo deals are slower).

Usage::

    python benchmarks/bench_deals.py            # full: 10M deals per configuration
    python benchmarks/bench_deals.py --quick    # smoke mode (what the tests run)
    python benchmarks/bench_deals.py --previous 3037806   # also time that commit's kernels

``--previous REV`` checks out the package as it was at git revision ``REV``
(a temporary ``git worktree``) and times its ``simulate`` on the same
configurations in a subprocess with its own kernel cache, one thread,
interleaved with this version's runs; ``speedup_vs_previous`` is the ratio of
process CPU times (which a busy second core disturbs less than wall time).

Figures go to ``benchmarks/results/bench_deals.json`` and ``.csv``
(``bench_deals.quick.json``/``.csv`` in quick mode; those are gitignored);
the hi-lo rows are under ``"hilo"`` in the JSON.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numba
import numpy as np

from anaconda_sim.game.play import play_deal
from anaconda_sim.sim.simulator import simulate
from anaconda_sim.table.rules import Rules

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_memory_mb, write_figures

RESULTS = Path(__file__).resolve().parent / "results"
PLAYERS = (2, 4, 6, 7)
STRATEGIES = ("call-down", "sensible")


def _time_simulate(rules: Rules, strategy: str, deals: int, threads: int) -> float:
    numba.set_num_threads(threads)
    start = time.perf_counter()
    result = simulate(rules, strategy, deals, seed=1, progress=False)
    elapsed = time.perf_counter() - start
    assert result.deals == deals
    return elapsed


def _time_engine(rules: Rules, strategy: str, deals: int) -> float:
    key = np.uint64(12345)
    start = time.perf_counter()
    for d in range(deals):
        play_deal(rules, [strategy] * rules.players, key=key, deal_index=d,
                  dealer=d % rules.players)  # fmt: skip
    return time.perf_counter() - start


_PREVIOUS_SCRIPT = """
import json, sys, time
import numba
from anaconda_sim.table.rules import Rules
from anaconda_sim.sim.simulator import simulate
numba.set_num_threads(1)
players, strategy, deals = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
simulate(Rules(players=players), strategy, 200, seed=0, progress=False)
start = time.process_time()
simulate(Rules(players=players), strategy, deals, seed=1, progress=False)
print(json.dumps(time.process_time() - start))
"""


def _cpu_simulate(rules: Rules, strategy: str, deals: int) -> float:
    numba.set_num_threads(1)
    start = time.process_time()
    simulate(rules, strategy, deals, seed=1, progress=False)
    return time.process_time() - start


def _previous_cpu(tree: Path, cache: Path, players: int, strategy: str, deals: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "ANACONDA_SIM_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", _PREVIOUS_SCRIPT, str(players), strategy, str(deals)],
        env=env, capture_output=True, text=True, check=True, cwd=tree,
    )  # fmt: skip
    return float(done.stdout.strip().splitlines()[-1])


def compare_previous(revision: str, deals: int) -> list[dict[str, Any]]:
    """Single-thread CPU time of this version's and ``revision``'s simulate."""
    repo = Path(__file__).resolve().parent.parent
    rows = []
    with tempfile.TemporaryDirectory(prefix="anaconda-sim-previous-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", str(tree),
                        revision], check=True, capture_output=True)  # fmt: skip
        try:
            for players in PLAYERS:
                rules = Rules(players=players)
                for strategy in STRATEGIES:
                    simulate(rules, strategy, 200, seed=0, progress=False)
                    old = _previous_cpu(tree, Path(folder) / "cache", players, strategy, deals)
                    new = _cpu_simulate(rules, strategy, deals)
                    rows.append({
                        "players": players, "strategy": strategy, "deals": deals,
                        "previous": revision, "previous_deals_per_cpu_s": deals / old,
                        "deals_per_cpu_s": deals / new, "speedup_vs_previous": old / new,
                    })  # fmt: skip
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)],
                           check=False, capture_output=True)  # fmt: skip
    return rows


def compare_hilo(deals: int, runs: int) -> list[dict[str, Any]]:
    """Single-thread CPU time of hi-lo deals against default deals.

    For every configuration, ``runs`` runs of ``deals // runs`` deals under
    each rule set, interleaved (the order alternates) so that a busy machine
    slows both alike; the best run of each gives the rates and the ratio.
    """
    per_run = max(deals // runs, 1)
    rows = []
    for players in PLAYERS:
        default, hilo = Rules(players=players), Rules.hilo(players)
        for strategy in STRATEGIES:
            for rules in (default, hilo):
                simulate(rules, strategy, 200, seed=0, progress=False)  # compile / warm up
            best = {"default": float("inf"), "hilo": float("inf")}
            for k in range(runs):
                order = [("default", default), ("hilo", hilo)]
                for name, rules in order if k % 2 == 0 else order[::-1]:
                    best[name] = min(best[name], _cpu_simulate(rules, strategy, per_run))
            rows.append({
                "players": players, "strategy": strategy, "deals": per_run, "runs": runs,
                "default_deals_per_cpu_s": per_run / best["default"],
                "hilo_deals_per_cpu_s": per_run / best["hilo"],
                "hilo_vs_default": best["default"] / best["hilo"],
            })  # fmt: skip
    return rows


def run(quick: bool, deals: int | None, engine_deals: int | None) -> dict[str, Any]:
    """Measure every configuration; return the figures (also what is written)."""
    deals = deals or (20_000 if quick else 10_000_000)
    engine_deals = engine_deals or (20 if quick else 2_000)
    all_threads = numba.config.NUMBA_NUM_THREADS
    before = numba.get_num_threads()
    rows: list[dict[str, Any]] = []
    try:
        for players in PLAYERS:
            rules = Rules(players=players)
            for strategy in STRATEGIES:
                simulate(rules, strategy, 200, seed=0, progress=False)  # compile / warm up
                _time_engine(rules, strategy, 2)  # the engine's first deal compiles too
                engine_s = _time_engine(rules, strategy, engine_deals)
                engine_rate = engine_deals / engine_s
                one = _time_simulate(rules, strategy, deals, 1)
                many = _time_simulate(rules, strategy, deals, all_threads)
                rows.append({
                    "players": players,
                    "strategy": strategy,
                    "deals": deals,
                    "deals_per_s_1_core": deals / one,
                    "threads": all_threads,
                    "deals_per_s_all_cores": deals / many,
                    "scaling": one / many,
                    "engine_deals": engine_deals,
                    "engine_deals_per_s": engine_rate,
                    "speedup_vs_engine_1_core": deals / one / engine_rate,
                })  # fmt: skip
        hilo_rows = compare_hilo(deals, 2 if quick else 10)
        # memory: numpy allocations seen by tracemalloc during a run, and the
        # process peak RSS (numba's own allocations are counted in the RSS only)
        numba.set_num_threads(all_threads)
        tracemalloc.start()
        simulate(Rules(players=6), "sensible", deals, seed=2, progress=False)
        _, traced_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    finally:
        numba.set_num_threads(before)
    return {
        "benchmark": "bench_deals",
        "mode": "quick" if quick else "full",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "machine": {
            "python": platform.python_version(),
            "numba": numba.__version__,
            "processor": platform.processor() or platform.machine(),
            "threads": all_threads,
        },
        "rows": rows,
        "hilo": hilo_rows,
        "memory": {
            "tracemalloc_peak_mib": traced_peak / 2**20,
            "peak_rss_mib": peak_memory_mb(),
        },
    }


def write(figures: dict[str, Any], out: Path) -> list[Path]:
    """Write ``bench_deals[.quick].json`` and ``.csv`` under ``out``."""
    return write_figures("bench_deals", figures, out)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--deals", type=int, default=None, help="deals per configuration")
    parser.add_argument("--engine-deals", type=int, default=None,
                        help="deals through the reference engine per configuration")  # fmt: skip
    parser.add_argument("--previous", metavar="REV", default=None,
                        help="also time the simulate of git revision REV (one thread)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=RESULTS, help="output folder")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    figures = run(args.quick, args.deals, args.engine_deals)
    if args.previous:
        figures["previous"] = compare_previous(args.previous, figures["rows"][0]["deals"])
    paths = write(figures, args.out)
    if not args.quiet:
        header = f"{'n':>2} {'strategy':<10} {'1 core/s':>12} {'all/s':>12} {'x':>5} "
        header += f"{'engine/s':>9} {'speedup':>8}"
        print(header)
        for r in figures["rows"]:
            line = f"{r['players']:>2} {r['strategy']:<10} {r['deals_per_s_1_core']:>12,.0f} "
            line += f"{r['deals_per_s_all_cores']:>12,.0f} {r['scaling']:>5.2f} "
            line += f"{r['engine_deals_per_s']:>9,.0f} {r['speedup_vs_engine_1_core']:>8,.0f}"
            print(line)
        mem = figures["memory"]
        print(f"peak RSS {mem['peak_rss_mib']:.0f} MiB, "
              f"tracemalloc peak {mem['tracemalloc_peak_mib']:.2f} MiB")  # fmt: skip
        print(f"{'n':>2} {'strategy':<10} {'hi-lo/cpu-s':>12} {'default/cpu-s':>14} "
              f"{'hi-lo/default':>14}")  # fmt: skip
        for r in figures["hilo"]:
            print(f"{r['players']:>2} {r['strategy']:<10} {r['hilo_deals_per_cpu_s']:>12,.0f} "
                  f"{r['default_deals_per_cpu_s']:>14,.0f} "
                  f"{r['hilo_vs_default']:>14.2f}")  # fmt: skip
        for r in figures.get("previous", []):
            print(f"{r['players']:>2} {r['strategy']:<10} {r['deals_per_cpu_s']:>12,.0f}/cpu-s "
                  f"vs {r['previous_deals_per_cpu_s']:>10,.0f} at {r['previous']}: "
                  f"x{r['speedup_vs_previous']:.2f}")  # fmt: skip
        print("wrote", *paths)
    return figures


if __name__ == "__main__":
    main()
