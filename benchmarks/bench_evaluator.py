"""Speed of the hand evaluator, side by side with eval7, phevaluator and treys.

The same seeded random hands (uint8 card indices) go through:

* ``anaconda_sim`` batch kernels: ``eval_rows`` on one core
  (``numba.set_num_threads(1)``) and ``eval_rows_parallel`` on all cores,
  after warm-up (compile time excluded), 5 and 7 cards; plus the public
  ``evaluate`` (input validation included) on all cores;
* the ace-to-five low evaluator (``low_rows``, ``low_rows_parallel``,
  ``evaluate_low``) on the same hands, with ``ratio_vs_high``: its rate
  divided by the high evaluator's rate for the same kernel and card count;
* the peers, one Python call per hand, on a subset (they are slow per call):
  ``phevaluator.evaluate_cards`` (same card indices), ``eval7.evaluate`` and
  ``treys.Evaluator.evaluate`` (card objects/ints built before timing).

Before timing, our values are checked against phevaluator on the peer
subset: ``value == 7463 - phevaluator_rank`` for every hand.

Usage: ``python benchmarks/bench_evaluator.py [--quick]``. Figures go to
``benchmarks/results/evaluator.{json,csv}`` (``evaluator.quick.*`` in quick
mode, which the test suite runs).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import best_time, write_results


def make_hands(n: int, seed: int) -> np.ndarray:
    """``n`` seeded random 7-card hands as a C-contiguous uint8 array (package RNG)."""
    from anaconda_sim._numba import jit
    from anaconda_sim.rng import deal_cards, new_state, root_key

    @jit(cache=False)
    def deal(key, n):
        hands = np.empty((n, 7), np.uint8)
        buf = np.empty(7, np.int64)
        for i in range(n):
            deal_cards(new_state(key, i, 0), np.uint64(0), 7, buf)
            for j in range(7):
                hands[i, j] = buf[j]
        return hands

    return deal(root_key(seed), n)


def _rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def time_ours(hands: np.ndarray, repeats: int) -> list[dict]:
    """Rows for our kernels: 5 and 7 cards, one core and all cores, and evaluate().

    The high and the low evaluator run side by side on the same hands (each
    timing alternates between them, so both see the same machine load); the
    low rows carry ``ratio_vs_high``, their rate over the high one's.
    """
    from anaconda_sim.hands.evaluator import eval_rows, eval_rows_parallel, evaluate
    from anaconda_sim.hands.low import evaluate_low, low_rows, low_rows_parallel

    rows = []
    all_threads = numba.config.NUMBA_NUM_THREADS
    out = np.empty(len(hands), np.int32)
    kinds = (
        ("eval_rows", "low_rows", eval_rows, low_rows, True),
        ("eval_rows_parallel", "low_rows_parallel", eval_rows_parallel, low_rows_parallel, False),
    )
    for k in (5, 7):
        h = np.ascontiguousarray(hands[:, :k])
        for _, _, high, low, _ in kinds:  # compile outside the timing
            high(h[:64], out[:64])
            low(h[:64], out[:64])
        evaluate(h[:64])
        evaluate_low(h[:64])
        pair = []
        for high_name, low_name, high, low, serial in kinds:
            threads = 1 if serial else all_threads
            numba.set_num_threads(threads)
            try:
                times = _alternate(
                    (lambda h=h, f=high: f(h, out)), (lambda h=h, f=low: f(h, out)), repeats
                )
            finally:
                numba.set_num_threads(all_threads)
            pair.append((f"anaconda_sim {high_name}", f"anaconda_sim {low_name}", threads, times))
        times = _alternate(lambda h=h: evaluate(h), lambda h=h: evaluate_low(h), repeats)
        pair.append(
            ("anaconda_sim evaluate (validated)", "anaconda_sim evaluate_low (validated)",
             all_threads, times)
        )  # fmt: skip
        for high_name, low_name, threads, (high_s, low_s) in pair:
            rows.append(_row(high_name, k, threads, len(h), high_s))
            low_row = _row(low_name, k, threads, len(h), low_s)
            low_row["ratio_vs_high"] = _rate(len(h), low_s) / _rate(len(h), high_s)
            rows.append(low_row)
    return rows


def _alternate(high, low, repeats: int) -> tuple[float, float]:
    """Best times of ``high()`` and ``low()``, run one after the other ``repeats`` times."""
    best_high = best_low = float("inf")
    for _ in range(repeats):
        best_high = min(best_high, best_time(high, 1))
        best_low = min(best_low, best_time(low, 1))
    return best_high, best_low


def _row(library: str, cards: int, threads: int, hands: int, seconds: float) -> dict:
    return {
        "library": library,
        "cards": cards,
        "threads": threads,
        "hands": hands,
        "seconds": seconds,
        "evals_per_s": _rate(hands, seconds),
    }


def check_against_phevaluator(hands: np.ndarray) -> int:
    """Our values equal 7463 - phevaluator's Cactus-Kev rank on every hand; returns the count."""
    from phevaluator import evaluate_cards

    from anaconda_sim.hands.evaluator import evaluate

    for k in (5, 7):
        ours = evaluate(np.ascontiguousarray(hands[:, :k]))
        theirs = np.array([evaluate_cards(*h) for h in hands[:, :k].tolist()])
        bad = np.flatnonzero(ours != 7463 - theirs)
        if len(bad):
            raise AssertionError(f"{k}-card hand {hands[bad[0], :k].tolist()} disagrees")
    return len(hands)


def time_peers(hands: np.ndarray) -> list[dict]:
    """Rows for the peers: one Python call per hand, on ``hands``."""
    with warnings.catch_warnings():
        # eval7's range parser uses pyparsing names deprecated upstream
        warnings.simplefilter("ignore", DeprecationWarning)
        import eval7
    from phevaluator import evaluate_cards
    from treys import Card as TreysCard
    from treys import Evaluator as TreysEvaluator

    from anaconda_sim.cards import format_card

    rows = []
    names = [format_card(c) for c in range(52)]
    as_eval7 = [eval7.Card(name) for name in names]
    as_treys = [TreysCard.new(name) for name in names]
    treys_eval = TreysEvaluator()
    for k in (5, 7):
        lists = hands[:, :k].tolist()
        e7 = [[as_eval7[c] for c in h] for h in lists]
        tr = [[as_treys[c] for c in h] for h in lists]

        def run_ph(lists=lists):
            for h in lists:
                evaluate_cards(*h)

        def run_e7(e7=e7):
            for h in e7:
                eval7.evaluate(h)

        def run_treys(tr=tr):
            for h in tr:
                treys_eval.evaluate(h[:2], h[2:])

        for name, fn in (("phevaluator", run_ph), ("eval7", run_e7), ("treys", run_treys)):
            start = time.perf_counter()
            fn()
            rows.append(_row(name, k, 1, len(lists), time.perf_counter() - start))
    return rows


def add_ratios(rows: list[dict]) -> None:
    """Add ``ratio_vs_<peer>``: our rate divided by the peer's (same card count)."""
    peers = {(r["library"], r["cards"]): r["evals_per_s"] for r in rows if r["threads"] == 1}
    for row in rows:
        if not row["library"].startswith("anaconda_sim"):
            continue
        for peer in ("phevaluator", "eval7", "treys"):
            rate = peers.get((peer, row["cards"]))
            row[f"ratio_vs_{peer}"] = row["evals_per_s"] / rate if rate else float("nan")


def format_table(rows: list[dict]) -> str:
    lines = [
        f"{'library':38} {'cards':>5} {'threads':>7} {'hands':>11} {'M evals/s':>10} "
        f"{'x phevaluator':>13} {'x eval7':>8} {'x treys':>8} {'low/high':>8}"
    ]
    for r in rows:
        ratios = "".join(
            f" {r[key]:>{w}.1f}" if key in r else f" {'':>{w}}"
            for key, w in (
                ("ratio_vs_phevaluator", 13),
                ("ratio_vs_eval7", 8),
                ("ratio_vs_treys", 8),
                ("ratio_vs_high", 8),
            )
        )
        lines.append(
            f"{r['library']:38} {r['cards']:>5} {r['threads']:>7} {r['hands']:>11,} "
            f"{r['evals_per_s'] / 1e6:>10.2f}{ratios}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    parser.add_argument("--hands", type=int, default=20_000_000, help="hands for our kernels")
    parser.add_argument("--peer-hands", type=int, default=200_000, help="hands for the peers")
    parser.add_argument("--repeats", type=int, default=5, help="best of this many runs")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quiet", action="store_true", help="do not print the table")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.peer_hands, args.repeats = 200_000, 2_000, 2

    hands = make_hands(max(args.hands, args.peer_hands), args.seed)
    peer_hands = hands[: args.peer_hands]
    checked = check_against_phevaluator(peer_hands)
    rows = time_ours(hands[: args.hands], args.repeats) + time_peers(peer_hands)
    add_ratios(rows)
    path = write_results(
        "evaluator",
        rows,
        args.quick,
        {"seed": args.seed, "checked_against_phevaluator": checked},
    )
    if not args.quiet:
        print(format_table(rows))
        print(f"results: {path} (and .csv)")
    return {"rows": rows, "path": str(path)}


if __name__ == "__main__":
    main()
