"""Fitting the board-reading betting of ``"learned"`` and its equity tables
together (:func:`fit_reads`), and the command that regenerates the shipped
ones: ``python -m anaconda_sim.learning.readfit``.

The betting reads an equity estimate of the field, and the field is the
betting: each round of the fit

1. searches one seat's best betting against the field as it stands (the
   paired coordinate search of :mod:`~anaconda_sim.learning.betting`, against
   the population field: the field in every other seat, and the same with one
   ``"sensible"`` seat, each other seat in turn), and moves the field to it;
2. re-estimates the equity tables from deals of that field
   (:func:`~anaconda_sim.learning.estimate_equity`).

The tables are then settled with the betting fixed: what a rival's bet
means depends on the tables the field bets on, so they are estimated again
``settle`` times against the field that plays the last ones, each time on
``table_deals`` fresh deals, damped (:func:`settle_tables`).

Moving the field all the way to each response makes it swing from one
round to the next; after the first round it moves ``step`` of the way
(half by default), a damped best-response iteration, which settles where
the plain one does not (at six players the betting search then finds
nothing to gain against the fitted field).

The first round starts from :data:`~anaconda_sim.strategies.learned.params.READ_DEFAULTS`
and from tables estimated against the win-table family (``"learned-v1"``);
the card play (pass, discard, reveal order) is the shipped one throughout.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..checks import check_deals, check_int, check_players
from ..strategies.learned.equitydata import EQUITY_FILE
from ..strategies.learned.params import READ_BET_FILE, READ_DEFAULTS
from ..strategies.spec import Strategy, get_strategy
from .betting import coordinate_search, read_steps
from .equity import EquityTables, estimate_equity, store_tables, table_sizes
from .family import child_seed

__all__ = ["ReadFit", "damped_tables", "fit_reads", "main", "settle_tables"]


@dataclasses.dataclass(frozen=True)
class ReadFit:
    """The result of :func:`fit_reads`: the betting's parameters, the equity
    tables estimated against the field that plays them, and one history row
    per round (the changes kept by the search)."""

    players: int
    betting: dict[str, float]
    tables: EquityTables
    history: list[dict[str, Any]]

    def strategy(self) -> Strategy:
        """The fitted ``"learned"`` strategy (the shipped card play)."""
        return reads_strategy(self.betting, self.tables)


def reads_strategy(betting: dict[str, float], tables: EquityTables,
                   name: str = "learned-v2") -> Strategy:  # fmt: skip
    """``name`` (a board-reading built-in; ``"learned-v2"``, the one this
    module's betting is shipped for) with the board-reading betting
    ``betting`` and its own equity ``tables``: the parameters ``betting``
    does not name are that built-in's."""
    strategy = get_strategy(name, **betting)
    return dataclasses.replace(strategy, equity=tuple(float(x) for x in tables.array()))


def fit_reads(
    players: int,
    *,
    rounds: int = 8,
    passes: int = 2,
    deals: int = 20_000,
    table_deals: int = 100_000,
    seed: int = 2026,
    strangers: Sequence[str] = ("sensible",),
    settle: int = 4,
    step: float = 0.5,
    log: Any = None,
) -> ReadFit:
    """Fit the board-reading betting and its equity tables at ``players``
    seats (module docstring): ``rounds`` rounds, each ``passes`` passes of
    the coordinate search on ``deals`` deals per candidate (the field then
    moves to the response in the first round, and by ``step`` of the way
    toward it in the others), then the tables on ``table_deals`` deals each.
    ``log`` (a callable) is told each round.

    Examples
    --------
    >>> fit = fit_reads(2, rounds=1, passes=1, deals=200, table_deals=200, settle=1, seed=1)
    >>> sorted(fit.betting) == sorted(READ_DEFAULTS)
    True
    """
    players = check_players(players)
    check_int(rounds, "rounds", low=1)
    check_int(passes, "passes", low=1)
    check_deals(deals, low=2)
    check_deals(table_deals)
    seed = check_int(seed, "seed", fix="give seed as an int")
    betting = dict(READ_DEFAULTS)
    tables = estimate_equity(players, "learned-v1", deals=table_deals, seed=child_seed(seed, 0))
    history: list[dict[str, Any]] = []
    for r in range(rounds):
        field = reads_strategy(betting, tables)

        def make(p: dict[str, float], tables: EquityTables = tables) -> Strategy:
            return reads_strategy(p, tables)

        kept_all: list[str] = []
        response = dict(betting)
        for k in range(passes):
            response, kept = coordinate_search(players, field, make, response,
                                               read_steps(response), deals,
                                               child_seed(seed, 1, r, k), strangers)  # fmt: skip
            kept_all += kept
            if not kept:
                break
        # the field moves to the response (the first round) or toward it by ``step``
        rate = 1.0 if r == 0 else step
        betting = {k: round(v + rate * (response[k] - v), 6) for k, v in betting.items()}
        tables = estimate_equity(players, reads_strategy(betting, tables), deals=table_deals,
                                 seed=child_seed(seed, 2, r))  # fmt: skip
        row = {"round": r, "kept": ",".join(kept_all), **betting}
        history.append(row)
        if log is not None:
            log(f"players={players} round {r}: kept {row['kept'] or 'nothing'}")
    tables = settle_tables(players, betting, tables, settle, table_deals, seed)
    model = {**tables.model, "field": reads_strategy(betting, tables).spec()}
    return ReadFit(players, betting, dataclasses.replace(tables, model=model), history)


def settle_tables(players: int, betting: dict[str, float], tables: EquityTables,
                  iterations: int, table_deals: int, seed: int, *,
                  field: Callable[[EquityTables], Strategy] | None = None,
                  ) -> EquityTables:  # fmt: skip
    """The equity tables estimated ``iterations`` times over, each time
    against the field that bets ``betting`` on the tables before (the last
    step of :func:`fit_reads`; child seeds ``(seed, 3, i)``); ``field``
    makes that field from the tables instead (the card play of its own).

    From the second estimate on, the tables are the mean of the new estimate
    and the tables before: the map from tables to the field's betting and
    back overshoots (heads-up the estimates alternate between too high and
    too low), and the damped iteration settles where the plain one swings."""
    for i in range(iterations):
        playing = reads_strategy(betting, tables) if field is None else field(tables)
        new = estimate_equity(players, playing, deals=table_deals, seed=child_seed(seed, 3, i))
        tables = damped_tables(new, tables) if i > 0 else new
    return tables


def damped_tables(new: EquityTables, before: EquityTables) -> EquityTables:
    """A new estimate of the equity tables averaged with the tables before
    (one damped step of :func:`settle_tables`): the mean of the two tables,
    the counts behind each entry summed, the new estimate's model."""
    return dataclasses.replace(new, factor=(new.factor + before.factor) / 2,
                               curve=(new.curve + before.curve) / 2,
                               pairs=new.pairs + before.pairs,
                               decisions=new.decisions + before.decisions)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Regenerate the shipped board-reading betting and equity tables.

    Each table size is fitted (:func:`fit_reads`) and written as soon as it
    is done, the betting to ``readbet.json`` and the tables to
    ``equity.npz`` (the other sizes in the files are kept), so an
    interrupted run loses no finished size."""
    parser = argparse.ArgumentParser(prog="python -m anaconda_sim.learning.readfit",
                                     description=main.__doc__.splitlines()[0])  # type: ignore[union-attr]  # fmt: skip
    data = Path(__file__).resolve().parent.parent / "strategies" / "learned"
    parser.add_argument("--betting-out", type=Path, default=data / READ_BET_FILE)
    parser.add_argument("--tables-out", type=Path, default=data / EQUITY_FILE)
    parser.add_argument("--players", default="2,3,4,5,6,7", help="table sizes (comma list)")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--table-deals", type=int, default=100_000)
    parser.add_argument("--step", type=float, default=0.5,
                        help="how far the field moves toward the search's response, after the "
                        "first round")  # fmt: skip
    parser.add_argument("--settle", type=int, default=4,
                        help="estimates of the tables with the betting fixed, at the end")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    sizes = table_sizes(parser, args.players)
    # the settings that make the numbers (where they are written does not)
    command = (f"python -m anaconda_sim.learning.readfit --players {shlex.quote(args.players)} "
               f"--rounds {args.rounds} --passes {args.passes} --deals {args.deals} "
               f"--table-deals {args.table_deals} --step {args.step:g} --settle {args.settle} "
               f"--seed {args.seed}")  # fmt: skip
    for players in sizes:
        fit = fit_reads(players, rounds=args.rounds, passes=args.passes, deals=args.deals,
                        table_deals=args.table_deals, settle=args.settle, step=args.step,
                        seed=args.seed, log=print)  # fmt: skip
        betting = (json.loads(args.betting_out.read_text()) if args.betting_out.exists()
                   else {"players": {}})  # fmt: skip
        betting["description"] = ("the board-reading betting of the learned family by table "
                                  "size, fitted with its equity tables (fit_reads)")  # fmt: skip
        betting["command"] = command
        betting["players"][str(players)] = {"params": fit.betting, "history": fit.history}
        args.betting_out.parent.mkdir(parents=True, exist_ok=True)
        partial = args.betting_out.with_name(args.betting_out.name + ".partial")
        partial.write_text(json.dumps(betting, indent=1, sort_keys=False) + "\n")
        os.replace(partial, args.betting_out)
        store_tables(args.tables_out, players, fit.tables, command)
        print(f"players={players}: written to {args.betting_out} and {args.tables_out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
