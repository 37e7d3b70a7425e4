"""The full-deal best response of each strategy against its one-decision deviations.

Writes ``data/full_deal_exploitability.csv`` (with its model in a sidecar),
which ``notebooks/09_spots.ipynb`` and ``data/README.md`` report:
:func:`anaconda_sim.exploitability` with ``decisions="all"`` of
``random-pass``, ``sensible``, ``learned-v1``, ``learned-v2`` and the
default ``learned`` at 2, 4 and 6 players (one seat re-optimises every
decision of each deal by its action values; in chips per deal the realised
paired gain and the re-valued advantage, both unbiased, and per kind of
decision its share of the advantage), beside the largest one-decision
deviation gain of the same strategy and table size in
``data/exploitability.csv`` (betting model).

Run: ``python scripts/full_deal_report.py`` (``--quick`` for a smoke run;
``--players 6`` for one table size; an interrupted run resumes from
``full_deal_exploitability.partial.csv`` in ``--out``).
``--players 6 --strategies learned,sensible --hands 900 --merge`` measures
those rows on more situations (the first 300 are the same situations) and
keeps the file's other rows; ``--first 900 --hands 900 --merge`` measures
situations 900-1799 only and pools them with rows that measured situations
0-899 (:func:`~anaconda_sim.learning.fulldeal.pool_summaries`: the numbers
one run over all of them gives).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from anaconda_sim import exploitability, read_table, write_table
from anaconda_sim.learning.fulldeal import pool_summaries

STRATEGIES = ("random-pass", "sensible", "learned-v1", "learned-v2", "learned")
#: situations per strategy and table size: the advantage's spread is a few
#: chips a deal, so 300 give standard errors of about 0.2-0.5
HANDS = 300
DEALS = 200
PLAYERS = (2, 4, 6)


def one_decision_max(data: Path) -> pd.DataFrame:
    """The largest one-decision deviation gain per strategy and table size
    (betting model: the pass, the reveal order, the betting parameters)."""
    table = read_table(data / "exploitability.csv")
    betting = table[table["model"] == "betting"]
    best = betting.loc[betting.groupby(["strategy", "players"])["value"].idxmax()]
    return best.rename(columns={"value": "one_decision_max", "se": "one_decision_se",
                                "decision": "one_decision"})[
        ["strategy", "players", "one_decision", "one_decision_max", "one_decision_se"]
    ]  # fmt: skip


def full_deal_table(hands: dict[str, int], deals: int, seed: int, players: tuple[int, ...],
                    done: pd.DataFrame | None = None, save=None,
                    strategies: tuple[str, ...] = STRATEGIES,
                    first: int = 0) -> pd.DataFrame:  # fmt: skip
    """Every (strategy, players) row set, of situations ``first ..
    first + hands - 1``; those in ``done`` are kept, not recomputed, and
    ``save(rows)`` is called after each new one (an interrupted run loses
    no finished row set)."""
    rows = [] if done is None else done.to_dict("records")
    for n in players:
        for name in strategies:
            if done is not None and ((done["strategy"] == name) & (done["players"] == n)).any():
                continue
            began = time.perf_counter()
            table = exploitability(name, n, "all", hands=hands[name], deals=deals, seed=seed,
                                   first=first)  # fmt: skip
            for _, row in table.iterrows():
                rows.append({"strategy": name, "players": n,
                             **row[["decision", "kind", "value", "se", "changed", "situations",
                                    "unit"]].to_dict(),
                             "unsampled": row.get("unsampled", 0.0),
                             "deals": deals, "seconds": time.perf_counter() - began})  # fmt: skip
            print(f"{name} at {n} players: {table.iloc[1]['value']:.3f} ± "
                  f"{table.iloc[1]['se']:.3f} chips per deal (advantage), "
                  f"{time.perf_counter() - began:.0f} s", flush=True)
            if save is not None:
                save(pd.DataFrame(rows))
    return pd.DataFrame(rows)


def _check_pool(old: pd.DataFrame, strategies: tuple[str, ...], players: tuple[int, ...],
                first: int) -> None:  # fmt: skip
    """Refuse ``--first`` unless ``old`` has every row set to pool with,
    each of situations ``0 .. first - 1``."""
    for name in strategies:
        for n in players:
            before = old[(old["strategy"] == name) & (old["players"] == n)]
            counts = sorted(int(c) for c in set(before["situations"]))
            if counts != [first]:
                raise SystemExit(f"--first {first}: the table's {name} rows at {n} players "
                                 f"measured {counts or 'no'} situations; --first must be "
                                 "their number")  # fmt: skip


def _pooled(new: pd.DataFrame, old: pd.DataFrame, first: int) -> pd.DataFrame:
    """Each (strategy, players) row set of ``new`` (situations ``first ..``)
    pooled with ``old``'s, which measured situations ``0 .. first - 1``."""
    parts = []
    for (name, n), part in new.groupby(["strategy", "players"], sort=False):
        _check_pool(old, (name,), (n,), first)
        before = old[(old["strategy"] == name) & (old["players"] == n)]
        parts.append(pool_summaries(part.reset_index(drop=True), before))
    return pd.concat(parts, ignore_index=True)


def _command(argv: list[str]) -> str:
    """The command line that makes the table in ``data/`` (the default ``--out``)."""
    words, skip = [], False
    for word in argv:
        if skip or word == "--out":
            skip = not skip
            continue
        words.append(word)
    return " ".join(["python scripts/full_deal_report.py", *words])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds")
    parser.add_argument("--out", type=Path, default=Path("data"))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", default=",".join(map(str, PLAYERS)),
                        help="table sizes, comma-separated (default 2,4,6)")  # fmt: skip
    parser.add_argument("--strategies", default=",".join(STRATEGIES),
                        help="strategies, comma-separated (default: all five)")  # fmt: skip
    parser.add_argument("--hands", type=int, default=HANDS,
                        help=f"situations per strategy and table size (default {HANDS})")
    parser.add_argument("--merge", action="store_true",
                        help="keep the rows of --out's table that this run does not measure")
    parser.add_argument("--first", type=int, default=0,
                        help="with --merge: measure situations FIRST .. FIRST + HANDS - 1 and "
                             "pool them with the table's rows, which must have measured "
                             "situations 0 .. FIRST - 1")  # fmt: skip
    args = parser.parse_args(argv)
    if args.first and not args.merge:
        raise SystemExit("--first pools with the rows of --out's table: give --merge too")
    players = tuple(int(n) for n in args.players.split(","))
    strategies = tuple(name.strip() for name in args.strategies.split(","))
    unknown = sorted(set(strategies) - set(STRATEGIES))
    if unknown:
        raise SystemExit(f"--strategies: {', '.join(unknown)} not measured here; use some of "
                         f"{', '.join(STRATEGIES)}")  # fmt: skip
    if args.quick:
        hands, deals, players = {s: 2 for s in strategies}, 40, (2,)
    else:
        hands, deals = {s: args.hands for s in strategies}, DEALS
    if args.first:  # refused before any situation is measured
        _check_pool(read_table(args.out / "full_deal_exploitability.csv"), strategies, players,
                    args.first)  # fmt: skip
    partial = args.out / "full_deal_exploitability.partial.csv"
    done = pd.read_csv(partial) if partial.exists() else None
    args.out.mkdir(parents=True, exist_ok=True)
    table = full_deal_table(hands, deals, args.seed, players, done,
                            lambda rows: rows.to_csv(partial, index=False), strategies,
                            args.first)  # fmt: skip
    commands = [_command(sys.argv[1:] if argv is None else argv)]
    if args.merge:
        old = read_table(args.out / "full_deal_exploitability.csv")
        if old.attrs.get("seed") != args.seed or old.attrs.get("deals") != deals:
            raise SystemExit("the table in --out was made with another seed or draws per "
                             "decision; run without --merge")  # fmt: skip
        if args.first:
            table = _pooled(table, old, args.first)
        measured = set(zip(table["strategy"], table["players"], strict=True))
        keep = [(s, n) not in measured for s, n in zip(old["strategy"], old["players"],
                                                       strict=True)]  # fmt: skip
        base = old[keep].drop(columns=["one_decision", "one_decision_max", "one_decision_se"])
        rank = {name: i for i, name in enumerate(STRATEGIES)}
        table = pd.concat([base, table], ignore_index=True).sort_values(
            ["players", "strategy"], key=lambda c: c.map(rank) if c.name == "strategy" else c,
            kind="stable")  # fmt: skip
        commands = [*old.attrs.get("commands", [old.attrs.get("command")]), *commands]
    data = Path(__file__).resolve().parents[1] / "data"
    table = table.reset_index(drop=True).merge(one_decision_max(data), on=["strategy", "players"],
                                               how="left")  # fmt: skip
    table.attrs.update({
        "analysis": "full-deal exploitability", "function": "anaconda_sim.exploitability",
        "decisions": "all", "seed": args.seed, "deals": deals,
        "hands": "column situations: situations per row", "commands": commands,
        "model": "betting", "value_unit": "chips per deal",
        "command": "python scripts/full_deal_report.py",
        "estimates": "realised: paired net-chip difference; advantage: the deviator's choices "
                     "re-valued on fresh draws, summed over the deal (performance difference)",
        "compare": "one_decision_max: the largest betting-model row of data/exploitability.csv",
    })  # fmt: skip
    write_table(table, args.out / "full_deal_exploitability.csv")
    partial.unlink(missing_ok=True)  # the finished table replaces the row sets kept so far
    print(table.to_string())


if __name__ == "__main__":
    main()
