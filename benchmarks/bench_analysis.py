"""Speed of the analysis functions, side by side with a plain eval7 loop.

``pass_values`` for 6 players, 35 choices x 100,000 deals (showdown model,
``random-pass`` opponents: the model the eval7 loop plays), on all cores and
on one core, after warm-up; the same work as a straightforward Python loop
over eval7 (timed on a subset and scaled); ``reveal_values`` for 120 orders
x 20,000 deals with betting against ``reveal_opponents()``; and
``pass_values(betting=True)``, 35 choices x 20,000 complete deals, against
the default ("learned") opponents and against "sensible" ones. Every run
names its opponents, so the figures stay comparable across changes of the
analyses' default opponents. Rows give wall and process CPU seconds and the
load average before the run (a busy machine shows there).

Usage: ``python benchmarks/bench_analysis.py [--quick]``. Figures go to
``benchmarks/results/analysis.{json,csv}`` (``analysis.quick.*`` in quick mode).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import best_times, load_average, peak_memory_mb, write_results

HAND = "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"
REVEAL_HAND = "Q♠ Q♥ Q♦ 9♣ 9♦"
#: the opponents of the eval7 loop (random passes, best five, no folding)
OPPONENTS = "random-pass"


def eval7_pass_loop(deals: int, players: int = 6, seed: int = 1) -> float:
    """The pass_values showdown model as a plain Python loop over eval7 (seconds)."""
    import eval7

    from anaconda_sim.cards import format_cards, parse_cards

    rng = random.Random(seed)
    hand = parse_cards(HAND)
    as_eval7 = {c: eval7.Card(format_cards([c])) for c in range(52)}
    unseen = [c for c in range(52) if c not in hand]
    choices = list(combinations(hand, 3))
    start = time.perf_counter()
    for _ in range(deals):
        deck = rng.sample(unseen, 7 * (players - 1))
        hands = [deck[7 * i : 7 * i + 7] for i in range(players - 1)]
        packets = [rng.sample(h, 3) for h in hands]
        kept = [[c for c in h if c not in p] for h, p in zip(hands, packets, strict=True)]
        fixed = max(
            eval7.evaluate([as_eval7[c] for c in kept[s] + packets[s - 1]])
            for s in range(1, players - 1)
        )
        for choice in choices:
            hero = [c for c in hand if c not in choice] + packets[-1]
            left = kept[0] + list(choice)
            hero_value = eval7.evaluate([as_eval7[c] for c in hero])
            left_value = eval7.evaluate([as_eval7[c] for c in left])
            top = max(hero_value, left_value, fixed)
            _ = hero_value == top
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (for the tests)")
    args = parser.parse_args(argv)

    import numba

    from anaconda_sim.analysis import pass_values, reveal_opponents, reveal_values

    deals = 4_000 if args.quick else 100_000
    reveal_deals = 500 if args.quick else 20_000
    loop_deals = 20 if args.quick else 2_000
    rows = []

    def timed(task: str, opponents: str, threads: int, n: int, fn: Any, repeats: int = 3) -> None:
        numba.set_num_threads(threads)
        load = load_average()
        wall, cpu = best_times(fn, repeats)
        rows.append({"task": task, "engine": "anaconda-sim", "opponents": opponents,
                     "threads": threads, "deals": n, "seconds": wall, "cpu_seconds": cpu,
                     "load_before": load})  # fmt: skip

    warm = 2 * 8192 if not args.quick else 500
    pass_values(HAND, 6, deals=warm, seed=0, opponents=OPPONENTS)  # warm-up
    all_threads = numba.config.NUMBA_NUM_THREADS
    thread_counts = sorted({1, all_threads})
    for threads in thread_counts:
        timed("pass_values 6p 35 choices", OPPONENTS, threads, deals,
              lambda: pass_values(HAND, 6, deals=deals, seed=1, progress=False,
                                  opponents=OPPONENTS))  # fmt: skip
    numba.set_num_threads(all_threads)
    loop = eval7_pass_loop(loop_deals)
    rows.append({"task": "pass_values 6p 35 choices", "engine": "eval7 Python loop",
                 "opponents": OPPONENTS, "threads": 1, "deals": deals,
                 "seconds": loop * deals / loop_deals, "measured_deals": loop_deals})  # fmt: skip
    field = reveal_opponents()
    reveal_values(REVEAL_HAND, 6, deals=min(reveal_deals, 500), seed=0, opponents=field)  # warm-up
    for threads in thread_counts:
        timed("reveal_values 6p 120 orders betting", "sensible", threads, reveal_deals,
              lambda: reveal_values(REVEAL_HAND, 6, deals=reveal_deals, seed=1, progress=False,
                                    opponents=field), repeats=2)  # fmt: skip
    for opponents in ("learned", "sensible"):
        pass_values(HAND, 6, deals=300, seed=0, opponents=opponents, betting=True)  # warm-up
        for threads in thread_counts:
            timed("pass_values 6p 35 choices betting", opponents, threads, reveal_deals,
                  lambda o=opponents: pass_values(HAND, 6, deals=reveal_deals, seed=1,
                                                  progress=False, opponents=o, betting=True),
                  repeats=2)  # fmt: skip
    numba.set_num_threads(all_threads)
    fast = min(r["seconds"] for r in rows
               if r["engine"] == "anaconda-sim" and r["task"] == "pass_values 6p 35 choices")
    ratio = next(r["seconds"] for r in rows if r["engine"] == "eval7 Python loop") / fast
    extra = {"speedup_vs_eval7_loop": ratio, "peak_memory_mb": peak_memory_mb()}
    path = write_results("analysis", rows, args.quick, extra)
    for row in rows:
        print(f"{row['task']:<36} {row['engine']:<18} {row['opponents']:<12} "
              f"threads={row['threads']} deals={row['deals']:>7} {row['seconds']:8.3f} s")

    print(f"pass_values vs eval7 loop: {ratio:.0f}x; figures in {path}")
    return extra


if __name__ == "__main__":
    main()
