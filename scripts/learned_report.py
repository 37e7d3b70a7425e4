"""How exploitable each strategy is, and how the learned one fares head to head.

Writes two tables (CSV, with their model in a sidecar) that
``notebooks/07_learned_strategies.ipynb`` and ``data/README.md`` report:

- ``data/exploitability.csv``: :func:`anaconda_sim.exploitability` of
  ``random-pass``, ``sensible``, ``learned-v1`` (the learned family betting
  on its win table) and ``learned`` (betting on the board-reading equity
  estimate) at 2-7 players: the pass in
  the showdown model (pot share), and the pass and the reveal order with
  betting (chips per deal); and :func:`anaconda_sim.betting_exploitability`
  of ``sensible``, ``learned-v1`` and ``learned`` (decision ``betting``: one seat's betting
  changed within the strategy's own parameters, chips per deal);
- ``data/head_to_head.csv``: 6 players, 200,000 deals, the button
  rotating: one seat of one strategy against five of the other (``learned``
  against ``learned-v1``, ``sensible`` and ``random-pass``, both ways), its
  mean net chips per deal with a 95% interval.

Run: ``python scripts/learned_report.py`` (``--quick`` for a smoke run).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from anaconda_sim import betting_exploitability, exploitability, simulate, write_table

STRATEGIES = ("random-pass", "sensible", "learned-v1", "learned")
#: head to head at six players: one seat of the first against five of the second
PAIRS = (("learned-v1", "learned"), ("learned", "learned-v1"), ("sensible", "learned"),
         ("learned", "sensible"), ("random-pass", "learned"), ("learned", "random-pass"))


def exploitability_table(
    hands: int, deals: int, bet_hands: int, bet_deals: int, search_deals: int, search_passes: int,
    seed: int,
) -> pd.DataFrame:
    rows = []
    for players in range(2, 8):
        for name in STRATEGIES:
            began = time.perf_counter()
            table = exploitability(name, players, "pass", hands=hands, deals=deals, seed=seed)
            rows.append({"strategy": name, "players": players, "model": "showdown",
                         **table.iloc[0][["decision", "value", "se", "unit"]].to_dict(),
                         "seconds": time.perf_counter() - began})  # fmt: skip
            print(rows[-1], flush=True)
    for players in range(2, 8):
        for name in STRATEGIES:
            began = time.perf_counter()
            table = exploitability(name, players, ("pass", "order"), hands=bet_hands,
                                   deals=bet_deals, betting=True, seed=seed)  # fmt: skip
            for _, row in table.iterrows():
                rows.append({"strategy": name, "players": players, "model": "betting",
                             **row[["decision", "value", "se", "unit"]].to_dict(),
                             "seconds": time.perf_counter() - began})  # fmt: skip
                print(rows[-1], flush=True)
        for name in STRATEGIES[1:]:  # random-pass has no betting parameters
            began = time.perf_counter()
            table = betting_exploitability(name, players, deals=search_deals,
                                           passes=search_passes, seed=seed)  # fmt: skip
            rows.append({"strategy": name, "players": players, "model": "betting",
                         **table.iloc[0][["decision", "value", "se", "unit"]].to_dict(),
                         "seconds": time.perf_counter() - began})  # fmt: skip
            print(rows[-1], table["changes"].iloc[0], flush=True)
    return pd.DataFrame(rows)


def head_to_head(deals: int, seed: int) -> pd.DataFrame:
    rows = []
    for one, five in PAIRS:
        result = simulate(6, [one] + [five] * 5, deals, seed=seed, progress=False)
        rows.append({"seat_strategy": one, "field": five, "players": 6, "deals": deals,
                     "value": result.mean_net[0], "se": result.se[0],
                     "ci_low": result.ci_low[0], "ci_high": result.ci_high[0]})  # fmt: skip
        print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (tiny counts)")
    parser.add_argument("--out", type=Path, default=Path("data"))
    args = parser.parse_args(argv)
    seed = 2026
    if args.quick:
        counts = dict(hands=4, deals=100, bet_hands=3, bet_deals=100, search_deals=100,
                      search_passes=1)
        h2h_deals = 2000
    else:
        counts = dict(hands=200, deals=1000, bet_hands=60, bet_deals=1000, search_deals=20_000,
                      search_passes=2)
        h2h_deals = 200_000
    exploit = exploitability_table(seed=seed, **counts)
    exploit.attrs = {"analysis": "exploitability", "seed": seed, **counts,
                     "command": "python scripts/learned_report.py"}  # fmt: skip
    write_table(exploit, args.out / "exploitability.csv")
    h2h = head_to_head(h2h_deals, seed)
    h2h.attrs = {"analysis": "head to head", "seed": seed, "deals": h2h_deals,
                 "command": "python scripts/learned_report.py"}  # fmt: skip
    write_table(h2h, args.out / "head_to_head.csv")
    return exploit, h2h


if __name__ == "__main__":
    main()
