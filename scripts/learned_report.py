"""How exploitable each strategy is, and how the learned one fares head to head.

Writes two tables (CSV, with their model in a sidecar) that
``notebooks/07_learned_strategies.ipynb`` and ``data/README.md`` report:

- ``data/exploitability.csv``: :func:`anaconda_sim.exploitability` of
  ``random-pass``, ``sensible``, ``learned-v1`` (the learned family betting
  on its win table), ``learned-v2`` (betting on the board-reading equity
  estimate, its reveal order and discard by hand-made rules) and ``learned``
  (the field learned whole: its show and keep tables too) at 2-7 players:
  the pass in the showdown model (pot share), and the pass and the reveal
  order with betting (chips per deal); and
  :func:`anaconda_sim.betting_exploitability` of every one but
  ``random-pass`` (decision ``betting``: one seat's betting changed within
  the strategy's own parameters, chips per deal);
- ``data/head_to_head.csv``: 6 players, 200,000 deals, the button
  rotating: one seat of one strategy against five of the other (``learned``
  against ``learned-v2``, ``learned-v1``, ``sensible`` and ``random-pass``,
  and ``learned-v2`` against ``learned-v1``, ``sensible`` and ``random-pass``,
  both ways),
  its mean net chips per deal with a 95% interval.

Run: ``python scripts/learned_report.py`` (``--quick`` for a smoke run;
``--strategies NAMES --merge`` recomputes some strategies' rows and keeps
the others from the files in ``--out``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from anaconda_sim import betting_exploitability, exploitability, read_table, simulate, write_table

STRATEGIES = ("random-pass", "sensible", "learned-v1", "learned-v2", "learned")
#: head to head at six players: one seat of the first against five of the second
PAIRS = (("learned-v2", "learned"), ("learned", "learned-v2"), ("learned-v1", "learned"),
         ("learned", "learned-v1"), ("sensible", "learned"), ("learned", "sensible"),
         ("random-pass", "learned"), ("learned", "random-pass"), ("learned-v1", "learned-v2"),
         ("learned-v2", "learned-v1"), ("sensible", "learned-v2"), ("learned-v2", "sensible"),
         ("random-pass", "learned-v2"), ("learned-v2", "random-pass"))


def exploitability_table(
    hands: int, deals: int, bet_hands: int, bet_deals: int, search_deals: int, search_passes: int,
    seed: int, strategies: tuple[str, ...] = STRATEGIES,
) -> pd.DataFrame:
    rows = []
    for players in range(2, 8):
        for name in strategies:
            began = time.perf_counter()
            table = exploitability(name, players, "pass", hands=hands, deals=deals, seed=seed)
            rows.append({"strategy": name, "players": players, "model": "showdown",
                         **table.iloc[0][["decision", "value", "se", "unit"]].to_dict(),
                         "seconds": time.perf_counter() - began})  # fmt: skip
            print(rows[-1], flush=True)
    for players in range(2, 8):
        for name in strategies:
            began = time.perf_counter()
            table = exploitability(name, players, ("pass", "order"), hands=bet_hands,
                                   deals=bet_deals, betting=True, seed=seed)  # fmt: skip
            for _, row in table.iterrows():
                rows.append({"strategy": name, "players": players, "model": "betting",
                             **row[["decision", "value", "se", "unit"]].to_dict(),
                             "seconds": time.perf_counter() - began})  # fmt: skip
                print(rows[-1], flush=True)
        for name in [s for s in strategies if s != "random-pass"]:  # it has no betting parameters
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
    parser.add_argument("--strategies", default=",".join(STRATEGIES),
                        help="the strategies whose exploitability rows to compute (comma list); "
                        "with --merge the other strategies' rows are kept from --out")  # fmt: skip
    parser.add_argument("--merge", action="store_true",
                        help="keep the rows of the other strategies from the files in --out "
                        "(made with the same settings), and the head to head unless given")
    parser.add_argument("--no-head-to-head", dest="head_to_head", action="store_false",
                        help="do not play the head to head (with --merge: keep the file's)")
    args = parser.parse_args(argv)
    strategies = tuple(s.strip() for s in args.strategies.split(",") if s.strip())
    unknown = sorted(set(strategies) - set(STRATEGIES))
    if unknown:
        parser.error(f"--strategies: {unknown} are not among {list(STRATEGIES)}")
    seed = 2026
    if args.quick:
        counts = dict(hands=4, deals=100, bet_hands=3, bet_deals=100, search_deals=100,
                      search_passes=1)
        h2h_deals = 2000
    else:
        counts = dict(hands=200, deals=1000, bet_hands=60, bet_deals=1000, search_deals=20_000,
                      search_passes=2)
        h2h_deals = 200_000
    attrs = {"analysis": "exploitability", "seed": seed, **counts,
             "command": "python scripts/learned_report.py"}  # fmt: skip
    exploit = exploitability_table(seed=seed, strategies=strategies, **counts)
    if args.merge:
        exploit = _merged(args.out / "exploitability.csv", exploit, attrs, strategies)
    exploit.attrs = attrs
    write_table(exploit, args.out / "exploitability.csv")
    h2h_attrs = {"analysis": "head to head", "seed": seed, "deals": h2h_deals,
                 "command": "python scripts/learned_report.py"}  # fmt: skip
    if args.head_to_head:
        h2h = head_to_head(h2h_deals, seed)
        h2h.attrs = h2h_attrs
        write_table(h2h, args.out / "head_to_head.csv")
    else:
        h2h = read_table(args.out / "head_to_head.csv") if args.merge else pd.DataFrame()
    return exploit, h2h


def _merged(path: Path, new: pd.DataFrame, attrs: dict, strategies: tuple[str, ...]
            ) -> pd.DataFrame:  # fmt: skip
    """``new`` with the rows of the other strategies kept from the table at
    ``path``, which must have been made with the same settings; rows in the
    order a whole run writes them (model, players, strategy)."""
    old = read_table(path)
    settings = {k: v for k, v in attrs.items() if k != "command"}
    if {k: old.attrs.get(k) for k in settings} != settings:
        raise SystemExit(f"{path} was made with other settings ({old.attrs}); run without --merge")
    kept = old[~old["strategy"].isin(strategies)]
    both = pd.concat([kept, new], ignore_index=True)
    order = {name: i for i, name in enumerate(STRATEGIES)}
    rank = both["strategy"].map(order)
    model = (both["model"] == "betting").astype(int)
    betting = (both["decision"] == "betting").astype(int)
    both = both.assign(_m=model, _p=both["players"], _b=betting, _s=rank)
    both = both.sort_values(["_m", "_p", "_b", "_s"], kind="stable")
    return both.drop(columns=["_m", "_p", "_b", "_s"]).reset_index(drop=True)


if __name__ == "__main__":
    main()
