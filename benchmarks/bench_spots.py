"""Speed of ``action_values`` at 6-player betting spots, against simulate and importance draws.

The issue's target: ``action_values`` for a betting spot at 6 players,
10,000 posterior deals, at most 2 s on this machine class with a warm cache.

Spots: for each opponent strategy ("sensible", "learned"), the first
betting spot of the deals ``play_deal(Rules(players=6), [strategy] * 6,
seed=s)``, ``s = 0, 1, ...``, at which at least two cards are revealed,
the seat faces a bet and at least three seats are active; the first
``--spots`` such deals (5; 1 in quick mode). Every call is made after one
small warm-up call per strategy (the kernels compiled and cached). Per spot:

- ``action_values(spot, strategy, deals=10_000, method="walk")``: wall and
  process CPU seconds, the posterior's effective sample size
  (``attrs["ess"]``), the smallest per-choice ``ess`` of the table, the
  walk's acceptance (``attrs["accepted"]``) and the candidates per rival
  (``attrs["tries"]``);
- its stages, each timed alone on the same keys as in
  ``spots.posterior._posterior``: the pilot (``pilot_tries``), the
  importance draws that start the chains (``_importance`` given the
  pilot's tries), the walk (``sim.spots.walk_rivals``) and the play on
  (``sim.spots.play_spot``); ``other_s`` is the call's wall time less the
  four (the table, the ESS, the spot set-up);
- side by side in the same process: ``simulate(6, strategy,
  deals=10_000 * choices)`` (as many complete deals from the start as the
  spot plays on: an upper bound on the play-on cost), and
  ``method="importance"`` on ``--importance-deals`` deals (50; it is far
  slower), whose time beyond the pilot is scaled to 10,000 deals
  (``importance_scaled_s``; the ratio ``importance_vs_walk`` is of that).

Every row records the one-minute load average before the spot (the
machines are shared 2-core ones: a load near 2 or above means the second
core was busy), and the machine block the CPU model and the load at the
start and the end.

Usage::

    python benchmarks/bench_spots.py            # 5 spots per strategy, 10,000 deals
    python benchmarks/bench_spots.py --quick    # smoke mode: 1 spot, 500 deals

Figures go to ``benchmarks/results/bench_spots.json`` and ``.csv`` (one row
per spot; the JSON also holds the per-strategy summary under
``"summary"``); ``bench_spots.quick.*`` in quick mode (gitignored).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import load_average, peak_memory_mb, write_figures

RESULTS = Path(__file__).resolve().parent / "results"
PLAYERS = 6
STRATEGIES = ("sensible", "learned")
DEALS, QUICK_DEALS = 10_000, 500
SPOTS, QUICK_SPOTS = 5, 1
IMPORTANCE_DEALS, QUICK_IMPORTANCE_DEALS = 50, 20
#: the issue's target: seconds of wall time for 10,000 posterior deals
TARGET_S = 2.0
#: deals played (seeds 0, 1, ...) in search of the spots
MAX_SEEDS = 500
SEED = 1


def cpu_model() -> str:
    """The processor's model name (``lscpu``'s "Model name")."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def is_target(spot: Any) -> bool:
    """A betting spot after two reveals, facing a bet, with three seats active."""
    from anaconda_sim.game.engine import Phase

    g = spot.game
    return (spot.phase is Phase.BETTING and g.revealed >= 2 and g.level >= 1
            and len(g.active_seats) >= 3)  # fmt: skip


def find_spots(strategy: str, count: int) -> list[tuple[int, Any]]:
    """``(seed, spot)``: the first target spot of each of the first ``count``
    deals (seeds 0, 1, ...) that have one."""
    from anaconda_sim.game import play_deal
    from anaconda_sim.spots import spot_of
    from anaconda_sim.table.rules import Rules

    found = []
    for seed in range(MAX_SEEDS):
        history = play_deal(Rules(players=PLAYERS), [strategy] * PLAYERS, seed=seed).history
        for move in range(1, len(history.moves()) + 1):
            spot = spot_of(history, move=move)
            if is_target(spot):
                found.append((seed, spot))
                break
        if len(found) == count:
            return found
    raise RuntimeError(f"only {len(found)} {strategy} spots in {MAX_SEEDS} deals")


def _timed(fn: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def stage_times(spot: Any, strategy: str, deals: int, seed: int) -> dict[str, float]:
    """Wall seconds of each stage of ``action_values(method="walk")``, each
    called alone with the keys and sizes that ``_posterior`` uses."""
    from anaconda_sim.rng import root_key
    from anaconda_sim.sim.spots import Draws, play_spot, walk_rivals
    from anaconda_sim.spots import posterior as P
    from anaconda_sim.spots.state import spot_choices
    from anaconda_sim.spots.values import _play_key

    strategies = P.field_strategies(spot, strategy, None)
    key = root_key(seed)
    chains = P.DEFAULT_CHAINS
    tries, pilot, _ = _timed(lambda: P.pilot_tries(spot, strategies, key))
    # the pilot's tries given (np.full broadcasts them), so the pilot is not run again
    start, starts_s, _ = _timed(
        lambda: P._importance(spot, strategies, max(2, min(P.START_DRAWS, chains // 4)), key, tries)
    )
    heads = np.arange(chains) % len(start.draws.weight)
    fields = ("cards", "received", "passed", "weight", "dead", "rate")
    starts = Draws(*(getattr(start.draws, f)[heads] for f in fields))
    length = -(-deals // chains)
    steps = len(spot.arrays.order)
    (drawn, _), walk, _ = _timed(lambda: walk_rivals(
        spot.rules, strategies, spot.arrays, P._sub_key(key, 0x3A1C), starts, length,
        P.BURN_PER_RIVAL * steps, P.THIN_PER_RIVAL * steps,
    ))  # fmt: skip
    keep = np.sort((np.arange(deals) % chains) * length + np.arange(deals) // chains)
    drawn = Draws(*(getattr(drawn, f)[keep] for f in fields))
    kind, choices, _ = spot_choices(spot)
    _, play, _ = _timed(lambda: play_spot(spot.rules, strategies, spot.arrays, kind, choices,
                                          drawn, _play_key(key)))  # fmt: skip
    return {"pilot_s": pilot, "starts_s": starts_s, "walk_s": walk, "play_s": play}


def time_spot(strategy: str, index: int, seed: int, spot: Any, deals: int,
              importance_deals: int) -> dict[str, Any]:  # fmt: skip
    """One row: the walk, its stages, simulate and the importance sampler at ``spot``."""
    from anaconda_sim import simulate
    from anaconda_sim.spots import action_values

    load = load_average()
    table, wall, cpu = _timed(lambda: action_values(spot, strategy, deals=deals, seed=SEED))
    stages = stage_times(spot, strategy, deals, SEED)
    choices = len(table)
    peer_deals = deals * choices
    _, peer_wall, peer_cpu = _timed(lambda: simulate(PLAYERS, strategy, deals=peer_deals,
                                                     seed=SEED, progress=False))  # fmt: skip
    imp, imp_wall, imp_cpu = _timed(lambda: action_values(
        spot, strategy, deals=importance_deals, seed=SEED, method="importance"))  # fmt: skip
    # the pilot is paid once whatever the deals; the rest grows with them
    scaled = stages["pilot_s"] + max(imp_wall - stages["pilot_s"], 0.0) * deals / importance_deals
    g = spot.game
    stage_sum = sum(stages.values())
    return {
        "strategy": strategy, "spot": index, "deal_seed": seed, "move": spot.move,
        "seat": spot.seat, "betting_round": g.betting_round + 1, "revealed": g.revealed,
        "to_call": g.to_call(spot.seat), "active": len(g.active_seats),
        "rivals": len(spot.arrays.order), "choices": choices, "deals": deals,
        "wall_s": wall, "cpu_s": cpu, "within_target": wall <= TARGET_S,
        "ess": float(table.attrs["ess"]), "ess_min_choice": float(table["ess"].min()),
        "accepted": float(table.attrs["accepted"]),
        "tries": " ".join(str(t) for t in table.attrs["tries"]),
        "tries_max": max(table.attrs["tries"]),
        **stages, "stages_s": stage_sum, "other_s": wall - stage_sum,
        "peer_deals": peer_deals, "peer_wall_s": peer_wall, "peer_cpu_s": peer_cpu,
        "walk_vs_peer": wall / peer_wall, "walk_vs_peer_cpu": cpu / peer_cpu,
        "importance_deals": importance_deals, "importance_wall_s": imp_wall,
        "importance_cpu_s": imp_cpu, "importance_ess": float(imp.attrs["ess"]),
        "importance_scaled_s": scaled, "importance_vs_walk": scaled / wall,
        "load_before": load,
    }  # fmt: skip


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per strategy: median and max wall time against the target, the
    median stages, ESS and ratios."""
    out = []
    for strategy in dict.fromkeys(r["strategy"] for r in rows):
        mine = [r for r in rows if r["strategy"] == strategy]

        def median(field: str, rows: list[dict[str, Any]] = mine) -> float:
            return float(statistics.median(r[field] for r in rows))

        out.append({
            "strategy": strategy, "spots": len(mine), "deals": mine[0]["deals"],
            "target_s": TARGET_S, "median_wall_s": median("wall_s"),
            "max_wall_s": max(r["wall_s"] for r in mine), "median_cpu_s": median("cpu_s"),
            "median_within_target": median("wall_s") <= TARGET_S,
            "max_within_target": max(r["wall_s"] for r in mine) <= TARGET_S,
            "spots_within_target": sum(r["within_target"] for r in mine),
            **{f"median_{s}": median(s) for s in ("pilot_s", "starts_s", "walk_s", "play_s",
                                                  "other_s")},
            "median_ess": median("ess"), "min_ess": min(r["ess"] for r in mine),
            "median_ess_min_choice": median("ess_min_choice"),
            "median_accepted": median("accepted"),
            "median_walk_vs_peer": median("walk_vs_peer"),
            "median_importance_vs_walk": median("importance_vs_walk"),
        })  # fmt: skip
    return out


def run(quick: bool, spots: int | None = None, deals: int | None = None,
        importance_deals: int | None = None,
        strategies: tuple[str, ...] = STRATEGIES) -> dict[str, Any]:  # fmt: skip
    """Time ``action_values`` at ``spots`` spots per strategy."""
    import numba

    from anaconda_sim import simulate
    from anaconda_sim.spots import action_values

    spots = spots or (QUICK_SPOTS if quick else SPOTS)
    deals = deals or (QUICK_DEALS if quick else DEALS)
    importance_deals = importance_deals or (QUICK_IMPORTANCE_DEALS if quick else IMPORTANCE_DEALS)
    load_start = load_average()
    started = time.perf_counter()
    rows = []
    for strategy in strategies:
        found = find_spots(strategy, spots)
        # warm cache: one small call of each kind first
        seed, first = found[0]
        action_values(first, strategy, deals=200, seed=0)
        action_values(first, strategy, deals=4, seed=0, method="importance")
        simulate(PLAYERS, strategy, deals=2_000, seed=0, progress=False)
        for index, (seed, spot) in enumerate(found):
            rows.append(time_spot(strategy, index, seed, spot, deals, importance_deals))
    return {
        "benchmark": "bench_spots",
        "mode": "quick" if quick else "full",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "machine": {
            "python": platform.python_version(),
            "numba": numba.__version__,
            "processor": platform.processor() or platform.machine(),
            "cpu_model": cpu_model(),
            "cores": os.cpu_count(),
            "threads": numba.get_num_threads(),
            "load_average_at_start": load_start,
            "load_average_at_end": load_average(),
        },
        "players": PLAYERS,
        "target_s": TARGET_S,
        "run_s": time.perf_counter() - started,
        "peak_rss_mib": peak_memory_mb(),
        "rows": rows,
        "summary": summarise(rows),
    }


def write(figures: dict[str, Any], out: Path) -> list[Path]:
    """Write ``bench_spots[.quick].json`` and ``.csv`` under ``out``."""
    return write_figures("bench_spots", figures, out)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: 1 spot, 500 deals")
    parser.add_argument("--spots", type=int, default=None, help="spots per strategy")
    parser.add_argument("--deals", type=int, default=None, help="posterior deals per spot")
    parser.add_argument("--importance-deals", type=int, default=None,
                        help="deals of the importance sampler (scaled to --deals)")  # fmt: skip
    parser.add_argument("--strategies", nargs="*", choices=STRATEGIES, default=list(STRATEGIES))
    parser.add_argument("--out", type=Path, default=RESULTS, help="output folder")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    figures = run(args.quick, args.spots, args.deals, args.importance_deals,
                  tuple(args.strategies))  # fmt: skip
    paths = write(figures, args.out)
    if not args.quiet:
        m = figures["machine"]
        print(f"{m['cpu_model']}, {m['cores']} cores, {m['threads']} threads; load average "
              f"{m['load_average_at_start']:.1f} at the start, {m['load_average_at_end']:.1f} "
              "at the end")  # fmt: skip
        print(f"{'strategy':<9}{'#':>2}{'seed':>5}{'wall':>7}{'cpu':>7}{'pilot':>7}"
              f"{'starts':>7}{'walk':>7}{'play':>7}{'other':>7}{'ess':>7}{'ess/ch':>8}"
              f"{'acc':>6}{'x sim':>7}{'imp x':>7}{'load':>6}  tries")  # fmt: skip
        for r in figures["rows"]:
            print(f"{r['strategy']:<9}{r['spot']:>2}{r['deal_seed']:>5}{r['wall_s']:>7.2f}"
                  f"{r['cpu_s']:>7.2f}{r['pilot_s']:>7.2f}{r['starts_s']:>7.2f}"
                  f"{r['walk_s']:>7.2f}{r['play_s']:>7.2f}{r['other_s']:>7.2f}{r['ess']:>7.0f}"
                  f"{r['ess_min_choice']:>8.0f}{r['accepted']:>6.2f}{r['walk_vs_peer']:>7.1f}"
                  f"{r['importance_vs_walk']:>7.1f}{r['load_before']:>6.1f}"
                  f"  {r['tries']}")  # fmt: skip
        for s in figures["summary"]:
            verdict = (
                "meets"
                if s["max_within_target"]
                else ("median meets" if s["median_within_target"] else "misses")
            )
            print(f"{s['strategy']}: {s['deals']:,} deals, median {s['median_wall_s']:.2f} s, "
                  f"max {s['max_wall_s']:.2f} s against the {s['target_s']:.0f} s target "
                  f"({verdict}; {s['spots_within_target']}/{s['spots']} spots within); "
                  f"x{s['median_walk_vs_peer']:.1f} simulate, importance "
                  f"x{s['median_importance_vs_walk']:.1f} the walk")  # fmt: skip
        print("wrote", *paths)
    return figures


if __name__ == "__main__":
    main()
