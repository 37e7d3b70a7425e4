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

The batch-major kernels (rows under ``"kernels"``): deals per CPU second on
one thread (the best of several runs) and deals per second on all threads,
for call-down, sensible and learned tables at 2, 6 and 7 players under the
default and the hi-lo rules. Rows under ``"phases"``: nanoseconds per deal
in each phase kernel, timed by calling the phases from Python one after
another on one large batch of plays (6 players).

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
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from anaconda_sim.game.play import play_deal
from anaconda_sim.sim import layout as L
from anaconda_sim.sim.driver import seat_param_rows, start_run
from anaconda_sim.sim.kernels import batch as B
from anaconda_sim.sim.kernels.deal import nobody_bets
from anaconda_sim.sim.simulator import simulate
from anaconda_sim.strategies.kinds import kernel_extras
from anaconda_sim.table import views as V
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


KERNEL_PLAYERS = (2, 6, 7)
KERNEL_STRATEGIES = ("call-down", "sensible", "learned")
#: deals per run of the kernel comparison, as a share of ``deals`` (learned
#: tables play about a tenth as fast as call-down ones)
KERNEL_SHARE = {"call-down": 1.0, "sensible": 0.5, "learned": 0.1}


def compare_kernels(deals: int, runs: int, quick: bool = False) -> list[dict[str, Any]]:
    """Deals per CPU second of the batch-major kernels on one thread (the best
    of ``runs`` runs) and on all threads (wall clock), for call-down, sensible
    and learned tables. ``quick``: 6 players, call-down and sensible, default
    rules only. (The deal-at-a-time kernels they replaced are gone: compare
    with an earlier revision with ``--previous REV``.)"""
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    for hilo in (False,) if quick else (False, True):
        for players in (6,) if quick else KERNEL_PLAYERS:
            rules = Rules.hilo(players) if hilo else Rules(players=players)
            for strategy in KERNEL_STRATEGIES[:2] if quick else KERNEL_STRATEGIES:
                n = max(int(deals * KERNEL_SHARE[strategy]), 1)
                simulate(rules, strategy, 200, seed=0, progress=False)
                best = min(_cpu_simulate(rules, strategy, n) for _ in range(runs))
                wall = _time_simulate(rules, strategy, n, all_threads)
                rows.append({
                    "rules": "hi-lo" if hilo else "high", "players": players,
                    "strategy": strategy, "deals": n,
                    "batch_deals_per_cpu_s": n / best,
                    "threads": all_threads, "batch_deals_per_s_all_threads": n / wall,
                    "thread_scaling": best / wall,
                })  # fmt: skip
    return rows


@intrinsic
def _cycles(typingctx: Any) -> Any:
    """The processor's cycle counter (``llvm.readcyclecounter``)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        counter = ir.FunctionType(ir.IntType(64), [])
        return builder.call(
            cgutils.get_or_insert_function(builder.module, counter, "llvm.readcyclecounter"), []
        )

    return types.uint64(), codegen


@numba.njit(cache=False)
def _phase_cycles(
    groups, key, cfg, passes, kinds, params, fixed, known_mask, choices, forced_pass,
    acc_seat, acc_cat, acc_fold, acc_open, acc_deal, acc_cross,
    rec_deck, rec_dealer, rec_res, rec_seat, rec_own,
    cbet, cpass, cdiscard, with_hilo, with_learned, cycles,
):  # fmt: skip
    """:func:`~anaconda_sim.sim.kernels.batch.run_batches`'s phases on
    ``groups`` batches of ``PHASE_PLAYS`` deals, the cycles between them
    added into ``cycles`` (deal, betting before the discard, pass, discard,
    reveals and their rounds, showdown and sums)."""
    n = cfg[L.C_N]
    plays = B.PHASE_PLAYS
    pub = np.empty((plays, V.PUB_SIZE), dtype=np.int32)
    owns = np.empty((plays, n, V.OWN_SIZE), dtype=np.int32)
    states = np.empty((plays, L.STATES_ROWS, 1), dtype=np.uint64)
    dec = np.empty((plays, n, L.DEC_SIZE), dtype=np.int64)
    seat_res = np.empty((plays, n, L.SEAT_RES_SIZE), dtype=np.int64)
    res = np.zeros((plays, L.RES_SIZE), dtype=np.int64)
    opener = np.empty((plays, L.MAX_ROUNDS), dtype=np.int64)
    alive = np.zeros(plays, dtype=np.bool_)
    decks = np.empty((plays, 52), dtype=np.int64)
    dealers = np.empty(plays, dtype=np.int64)
    scratch = np.empty(52, dtype=np.int64)
    available = np.empty(52, dtype=np.int64)
    hero_net = np.zeros(1, dtype=np.int64)
    hero_share = np.zeros(1, dtype=np.int64)
    checks_only = nobody_bets(cfg, kinds, n)
    for g in range(groups):
        t0 = _cycles()
        B.deal_phase(key, g * plays, plays, 1, cfg, fixed, known_mask, decks, dealers, scratch,
                     available, pub, owns, states, dec, seat_res, res, opener, alive)
        t1 = _cycles()
        cycles[0] += t1 - t0
        rnd = 0
        B.betting_phase(rnd, -1, plays, 1, checks_only, cfg, dealers, pub, owns, kinds, params,
                        states, cbet, dec, seat_res, res, opener, alive, with_hilo, with_learned)
        t2 = _cycles()
        cycles[1] += t2 - t1
        for p in range(passes.shape[0]):
            t2 = _cycles()
            B.pass_phase(p, passes[p, L.PASS_COUNT], passes[p, L.PASS_DIRECTION], plays, 1, cfg,
                         dealers, pub, owns, kinds, params, states, cpass, dec, choices,
                         forced_pass, res, alive, with_hilo, with_learned)
            t3 = _cycles()
            cycles[2] += t3 - t2
            rnd += 1
            B.betting_phase(rnd, -1, plays, 1, checks_only, cfg, dealers, pub, owns, kinds,
                            params, states, cbet, dec, seat_res, res, opener, alive, with_hilo,
                            with_learned)
            cycles[1] += _cycles() - t3
        t4 = _cycles()
        B.discard_phase(plays, 1, cfg, dealers, pub, owns, kinds, params, states, cdiscard, dec,
                        choices, res, alive, with_hilo, with_learned)
        t5 = _cycles()
        cycles[3] += t5 - t4
        for r in range(4):
            rnd += 1
            B.betting_phase(rnd, r, plays, 1, checks_only, cfg, dealers, pub, owns, kinds,
                            params, states, cbet, dec, seat_res, res, opener, alive, with_hilo,
                            with_learned)
        t6 = _cycles()
        cycles[4] += t6 - t5
        B.settle_phase(0, 0, plays, 1, cfg, dealers, decks, pub, owns, dec, seat_res, res, opener,
                       alive, hero_net, hero_share, acc_seat, acc_cat, acc_fold, acc_open,
                       acc_deal, acc_cross, rec_deck, rec_dealer, rec_res, rec_seat, rec_own,
                       with_hilo, with_learned)
        cycles[5] += _cycles() - t6


PHASE_NAMES = ("deal", "betting before the discard", "pass", "discard and order",
               "reveals and their rounds", "showdown and sums")  # fmt: skip


def phase_profile(players: int, strategy: str, groups: int, repeats: int) -> list[dict[str, Any]]:
    """Nanoseconds per deal in each phase kernel of the batch-major path, one
    thread: the phases of :func:`~anaconda_sim.sim.kernels.batch.run_batches`
    called in the same order from a numba loop over ``groups`` batches that
    reads the cycle counter between them (cycles turned into nanoseconds by
    the wall time of the whole loop); the best of ``repeats``."""
    rules = Rules(players=players)
    simulate(rules, strategy, 200, seed=0, progress=False)  # the phases compiled
    run_ = start_run(rules, strategy, 1, 0, 0, rotate=True, betting=True, fixed=None,
                     known=None, hero=-1, force=L.FORCE_NONE, choices=None, forced_pass=None,
                     records=False, batch_size=None)  # fmt: skip
    n = players
    kinds = np.array([s.kind for s in run_.strategies], dtype=np.int64)
    # the rows as simulate's runs read them: one a strategy (seat_param_rows)
    params = seat_param_rows(run_.cfg, run_.strategies, n)
    passes = np.array(rules.passes, dtype=np.int64).reshape(-1, L.PASS_FIELDS)
    shape = (1, 1, n)
    accs = (np.zeros((*shape, L.ACC_SEAT_SIZE), np.int64), np.zeros((*shape, 9), np.int64),
            np.zeros((*shape, L.MAX_ROUNDS), np.int64),
            np.zeros((*shape, L.MAX_ROUNDS), np.int64),
            np.zeros((1, 1, L.ACC_DEAL_SIZE), np.int64),
            np.zeros((1, L.ACC_CROSS_SIZE, 1, 1), np.int64))  # fmt: skip
    recs = (np.zeros((1, 7 * n), np.int8), np.zeros(1, np.int64),
            np.zeros((1, 1, L.RES_SIZE), np.int64), np.zeros((1, 1, n, L.SEAT_RES_SIZE), np.int64),
            np.zeros((1, 1, n, V.OWN_SIZE), np.int32))  # fmt: skip
    args = (run_.key, run_.cfg, passes, kinds, params, run_.fixed, run_.known_mask, run_.choices,
            run_.forced_pass, *accs, *recs, *run_.funcs, *kernel_extras(False, kinds, params))
    numba.set_num_threads(1)
    _phase_cycles(1, *args, np.zeros(len(PHASE_NAMES), np.uint64))  # compiles
    best = None
    for _ in range(repeats):
        cycles = np.zeros(len(PHASE_NAMES), np.uint64)
        start = time.perf_counter()
        _phase_cycles(groups, *args, cycles)
        ns_per_cycle = (time.perf_counter() - start) * 1e9 / max(float(cycles.sum()), 1.0)
        ns = cycles * ns_per_cycle / (groups * B.PHASE_PLAYS)
        if best is None or ns.sum() < best.sum():
            best = ns
    assert best is not None
    return [{"players": players, "strategy": strategy, "phase": name,
             "ns_per_deal": float(value), "share": float(value / best.sum())}
            for name, value in zip(PHASE_NAMES, best, strict=True)]  # fmt: skip


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
        kernel_rows = compare_kernels(deals // 2, 2 if quick else 4, quick)
        phase_rows = [row for strategy in (KERNEL_STRATEGIES[:1] if quick else KERNEL_STRATEGIES)
                      for row in phase_profile(6, strategy, 4 if quick else 400,
                                               2 if quick else 3)]  # fmt: skip
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
        "kernels": kernel_rows,
        "phases": phase_rows,
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
        print(f"{'rules':<6}{'n':>2} {'strategy':<10} {'batch/cpu-s':>12} "
              f"{'all threads/s':>14} {'scaling':>8}")
        for r in figures["kernels"]:
            print(f"{r['rules']:<6}{r['players']:>2} {r['strategy']:<10} "
                  f"{r['batch_deals_per_cpu_s']:>12,.0f} "
                  f"{r['batch_deals_per_s_all_threads']:>14,.0f} "
                  f"{r['thread_scaling']:>8.2f}")  # fmt: skip
        for r in figures["phases"]:
            print(f"{r['players']:>2} {r['strategy']:<10} {r['phase']:<26} "
                  f"{r['ns_per_deal']:>8,.0f} ns/deal {r['share']:>6.1%}")  # fmt: skip
        for r in figures.get("previous", []):
            print(f"{r['players']:>2} {r['strategy']:<10} {r['deals_per_cpu_s']:>12,.0f}/cpu-s "
                  f"vs {r['previous_deals_per_cpu_s']:>10,.0f} at {r['previous']}: "
                  f"x{r['speedup_vs_previous']:.2f}")  # fmt: skip
        print("wrote", *paths)
    return figures


if __name__ == "__main__":
    main()
