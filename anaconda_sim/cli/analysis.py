"""The analysis subcommands of ``anaconda-sim``: pass, discard, reveal, equity.

Each prints a readable table (best first, with 95% CIs), and can write the
table (``--out`` .csv/.parquet/.json) and a chart (``--plot`` .png/.svg/.pdf).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import pandas as pd

from ..output.tables import format_table, write_table

__all__ = ["register"]


def _common(parser: argparse.ArgumentParser, default_betting: bool | None) -> None:
    parser.add_argument("--players", "-p", type=int, default=6, help="table size 2-7 (default 6)")
    parser.add_argument(
        "--opponents", default="random-pass",
        help="built-in strategy of every opponent, or a comma list, left neighbour first "
        "(random-pass, call-down, sensible, random; default random-pass)",
    )  # fmt: skip
    stop = parser.add_mutually_exclusive_group()
    stop.add_argument("--deals", "-n", type=int, help="number of deals (default 20000)")
    stop.add_argument("--precision", type=float, help="run until every row's se is below this")
    parser.add_argument("--max-deals", type=int, default=2_000_000, help="cap for --precision")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", "-o", help="write the table: .csv, .parquet or .json")
    parser.add_argument("--plot", help="write a chart with error bars: .png, .svg or .pdf")
    parser.add_argument("--top", type=int, help="print only the best N rows")
    parser.add_argument("--ascii", action="store_true", help="cards as Qs instead of Q♠")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    if default_betting is not None:
        parser.add_argument(
            "--betting", action=argparse.BooleanOptionalAction, default=default_betting,
            help="complete deals with betting (value in chips) instead of the showdown model "
            "(value = pot share)",
        )  # fmt: skip


def _opponents(text: str):
    parts = [p.strip() for p in text.split(",") if p.strip()]
    return parts[0] if len(parts) == 1 else parts


def _run_kwargs(args) -> dict:
    return {
        "opponents": _opponents(args.opponents),
        "deals": args.deals,
        "precision": args.precision,
        "max_deals": args.max_deals,
        "seed": args.seed,
        "progress": False if args.quiet else None,
    }


def _emit(args, table: pd.DataFrame, plot: Callable[[pd.DataFrame], Any] | None) -> int:
    attrs = table.attrs
    title = f"{attrs.get('analysis', '')} values for {attrs.get('hand', '')}".strip()
    print(f"{title} - {attrs.get('players')} players, {attrs.get('deals')} deals, "
          f"value = {attrs.get('value_label', 'pot share')}")  # fmt: skip
    print(format_table(table, top=args.top))
    if args.out:
        print(f"table written to {write_table(table, args.out)}")
    if args.plot and plot is not None:
        from ..output.plots import save_figure

        print(f"chart written to {save_figure(plot(table), args.plot)}")
    return 0


def _cmd_pass(args) -> int:
    from ..analysis.api import pass_values
    from ..output.plots import plot_pass_values

    table = pass_values(args.hand, args.players, betting=args.betting,
                        unicode=not args.ascii, **_run_kwargs(args))  # fmt: skip
    return _emit(args, table, plot_pass_values)


def _cmd_discard(args) -> int:
    from ..analysis.api import discard_values
    from ..output.plots import plot_discard_values

    table = discard_values(args.hand, args.players, passed=args.passed, received=args.received,
                           unicode=not args.ascii, **_run_kwargs(args))  # fmt: skip
    return _emit(args, table, plot_discard_values)


def _cmd_reveal(args) -> int:
    from ..analysis.api import reveal_values
    from ..output.plots import plot_reveal_by_hidden, plot_reveal_values

    by = "hidden" if args.by_hidden else None
    table = reveal_values(args.hand, args.players, betting=args.betting, by=by,
                          unicode=not args.ascii, **_run_kwargs(args))  # fmt: skip
    return _emit(args, table, plot_reveal_by_hidden if by else plot_reveal_values)


def _cmd_equity(args) -> int:
    from ..analysis.api import equity

    kwargs = _run_kwargs(args)
    rows = [
        equity(args.hand, players, passed=args.passed, received=args.received, **kwargs)
        for players in ((args.all_players and range(2, 8)) or [args.players])
    ]
    table = pd.concat(rows, ignore_index=True)
    table.attrs = {
        "analysis": "equity",
        "hand": args.hand,
        "players": args.players,
        "deals": int(table["deals"].iloc[0]),
        "value_label": "expected pot share",
    }
    print(f"showdown equity of {args.hand} ({table['stage'].iloc[0]})")
    print(format_table(table))
    if args.out:
        print(f"table written to {write_table(table, args.out)}")
    if args.plot:
        from ..output.plots import plot_equity, save_figure

        print(f"chart written to {save_figure(plot_equity(table), args.plot)}")
    return 0


def register(subparsers) -> None:
    """Add the pass, discard, reveal and equity subcommands."""
    p = subparsers.add_parser("pass", help="value of each of the 35 passes of a 7-card hand")
    p.add_argument("hand", help='seven cards, e.g. "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"')
    _common(p, default_betting=False)
    p.set_defaults(func=_cmd_pass)

    d = subparsers.add_parser("discard", help="value of each of the 21 discards after the pass")
    d.add_argument("hand", help="the seven cards held after the pass")
    d.add_argument("--passed", help="the three cards you passed (now on your left)")
    d.add_argument("--received", help="the three cards you received (from your right)")
    _common(d, default_betting=None)
    d.set_defaults(func=_cmd_discard)

    r = subparsers.add_parser("reveal", help="value of each of the 120 reveal orders of five")
    r.add_argument("hand", help="the five cards kept")
    r.add_argument("--by-hidden", action="store_true", help="group by the hidden card")
    _common(r, default_betting=True)
    r.set_defaults(func=_cmd_reveal)

    e = subparsers.add_parser("equity", help="showdown equity of a hand at its stage")
    e.add_argument("hand", help="seven cards (at the deal or after the pass) or five")
    e.add_argument("--passed", help="cards passed (a seven-card hand after the pass)")
    e.add_argument("--received", help="cards received (a seven-card hand after the pass)")
    e.add_argument("--all-players", action="store_true", help="every table size 2-7")
    _common(e, default_betting=None)
    e.set_defaults(func=_cmd_equity)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use the anaconda-sim command")
