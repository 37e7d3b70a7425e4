"""What the default field costs: "learned" opponents against "sensible" ones, side by side.

The analyses' default opponents are the "learned" family; this script
measures, in one process and on one thread (process CPU seconds, best of
``--repeats``, the fields timed in turn in every repeat), how much more a
learned field costs than a sensible one (the default "learned", the field
learned whole, and "learned-v2", the default it replaced):

- ``simulate`` at 6 players, every seat of one family (CPU seconds per deal);
- the phase table of a 6-player deal of each family (``bench_deals``'
  ``phase_profile``: nanoseconds per deal in each phase kernel), and from
  it the learned pass and reveal order per seat beyond sensible's;
- ``pass_values(betting=True)`` (35 passes x ``--deals`` complete deals) and
  ``reveal_values`` (120 orders x ``--deals`` deals, betting), hero and
  opponents of one family.

Every row has the ratio learned / sensible and the one-minute load average
before it (the machines are shared 2-core ones: a load near 2 or above
means the second core was busy while timing).

Usage::

    python benchmarks/bench_fields.py             # 20,000 deals per analysis choice
    python benchmarks/bench_fields.py --quick     # smoke mode (the tests run it)

Figures go to ``benchmarks/results/bench_fields.json`` and ``.csv``
(``bench_fields.quick.*`` in quick mode).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import RESULTS, load_average, machine, write_figures

#: the default field, the one it replaced, and the hand-made baseline
FIELDS = ("sensible", "learned", "learned-v2")
PASS_HAND = "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"
REVEAL_HAND = "Q♠ Q♥ Q♦ 9♣ 9♦"


def _cpu_interleaved(calls: dict[str, Any], repeats: int) -> dict[str, float]:
    """The least process CPU seconds of ``repeats`` calls of each of
    ``calls`` (by field), the fields taken in turn in every repeat: a slow
    spell of the shared host then falls on every field, not on one."""
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(repeats):
        for field, fn in calls.items():
            start = time.process_time()
            fn()
            best[field] = min(best[field], time.process_time() - start)
    return best


def _phases_interleaved(groups: int, repeats: int) -> dict[str, list[dict[str, Any]]]:
    """``bench_deals``' phase table of each field, the fields taken in turn
    in every repeat; of each field the run of least total, as
    ``phase_profile``'s own repeats keep it."""
    import bench_deals

    best: dict[str, list[dict[str, Any]]] = {}
    for _ in range(repeats):
        for field in FIELDS:
            rows = bench_deals.phase_profile(6, field, groups, 1)
            total = sum(row["ns_per_deal"] for row in rows)
            if field not in best or total < sum(row["ns_per_deal"] for row in best[field]):
                best[field] = rows
    return best


def measure(deals: int, sim_deals: int, groups: int, repeats: int) -> dict[str, Any]:
    import numba

    import anaconda_sim as ac
    from anaconda_sim.table.rules import Rules

    numba.set_num_threads(1)
    rows: list[dict[str, Any]] = []
    calls = {
        "simulate 6p": lambda field, n: ac.simulate(Rules(players=6), field, n, seed=1,
                                                    progress=False),
        "pass_values 6p betting": lambda field, n: ac.pass_values(
            PASS_HAND, 6, hero=field, opponents=field, betting=True, deals=n, seed=1,
            progress=False, threads=1),
        "reveal_values 6p betting": lambda field, n: ac.reveal_values(
            REVEAL_HAND, 6, hero=field, opponents=field, deals=n, seed=1, progress=False,
            threads=1),
    }  # fmt: skip
    sizes = {"simulate 6p": sim_deals, "pass_values 6p betting": deals,
             "reveal_values 6p betting": deals}  # fmt: skip
    for name, call in calls.items():
        row: dict[str, Any] = {"what": name, "deals": sizes[name], "load_average": load_average()}
        for field in FIELDS:
            call(field, 200)  # compiled
        best = _cpu_interleaved({field: lambda c=call, f=field, n=sizes[name]: c(f, n)
                                 for field in FIELDS}, repeats)  # fmt: skip
        for field in FIELDS:
            row[f"{field}_cpu_s"] = best[field]
        row["learned_vs_sensible"] = row["learned_cpu_s"] / row["sensible_cpu_s"]
        row["learned-v2_vs_sensible"] = row["learned-v2_cpu_s"] / row["sensible_cpu_s"]
        row["learned_vs_learned-v2"] = row["learned_cpu_s"] / row["learned-v2_cpu_s"]
        rows.append(row)
    phases = _phases_interleaved(groups, repeats)
    table = []
    for mine, theirs, before in zip(phases["learned"], phases["sensible"], phases["learned-v2"],
                                    strict=True):  # fmt: skip
        ratio = mine["ns_per_deal"] / theirs["ns_per_deal"]
        table.append({"phase": mine["phase"], "learned_ns": mine["ns_per_deal"],
                      "sensible_ns": theirs["ns_per_deal"], "learned-v2_ns": before["ns_per_deal"],
                      "learned_vs_sensible": ratio})  # fmt: skip
    total = {field: sum(r["ns_per_deal"] for r in phases[field]) for field in FIELDS}
    by_phase = {r["phase"]: r for r in table}
    seats = 6
    rows.append({
        "what": "phase table 6p (ns per deal)", "deals": groups, "load_average": load_average(),
        "sensible_cpu_s": total["sensible"] * 1e-9, "learned_cpu_s": total["learned"] * 1e-9,
        "learned-v2_cpu_s": total["learned-v2"] * 1e-9,
        "learned_vs_sensible": total["learned"] / total["sensible"],
        "learned-v2_vs_sensible": total["learned-v2"] / total["sensible"],
        "learned_vs_learned-v2": total["learned"] / total["learned-v2"],
    })  # fmt: skip
    return {
        "rows": rows,
        "phases": table,
        "per_seat_ns": {
            "learned pass beyond sensible's": (by_phase["pass"]["learned_ns"]
                                               - by_phase["pass"]["sensible_ns"]) / seats,
            "learned order beyond sensible's discard": (
                by_phase["discard and order"]["learned_ns"]
                - by_phase["discard and order"]["sensible_ns"]) / seats,
        },
    }  # fmt: skip


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--deals", type=int, default=None, help="deals per analysis choice")
    parser.add_argument("--repeats", type=int, default=None, help="best of this many")
    parser.add_argument("--out", type=Path, default=RESULTS, help="output folder")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    deals = args.deals or (300 if args.quick else 20_000)
    repeats = args.repeats or (1 if args.quick else 3)
    figures = {
        "benchmark": "bench_fields",
        "mode": "quick" if args.quick else "full",
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": machine(),
        **measure(deals, 20 * deals, 20 if args.quick else 400, repeats),
    }
    paths = write_figures("bench_fields", figures, args.out)
    if not args.quiet:
        for row in figures["rows"]:
            print(f"{row['what']}: learned {row['learned_vs_sensible']:.2f}x sensible, "
                  f"learned-v2 {row['learned-v2_vs_sensible']:.2f}x "
                  f"(load {row['load_average']:.1f})")  # fmt: skip
        for name, ns in figures["per_seat_ns"].items():
            print(f"{name}: {ns:.0f} ns a seat")
        print("wrote", ", ".join(str(p) for p in paths))
    return figures


if __name__ == "__main__":
    main()
