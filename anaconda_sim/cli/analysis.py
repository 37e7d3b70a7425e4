"""The analysis subcommands of ``anaconda-sim``: pass, discard, reveal, equity,
declare (hi-lo).

Each command's options are generated from its Python function's signature
(:data:`OPTIONS` says how each keyword is written on the command line), so
the shell and Python take the same options with the same defaults. Each
command prints a readable table (best first, with 95% CIs), and can write
the table (``--out`` .csv/.parquet/.json) and a chart (``--plot``
.png/.svg/.pdf).
"""

from __future__ import annotations

import argparse
import inspect
import secrets
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..output.tables import format_table, write_table

__all__ = ["ANALYSES", "OPTIONS", "register"]


def _opponents(text: str) -> Any:
    from ..strategies.spec import parse_strategies

    strategies = parse_strategies(text)
    return strategies[0] if len(strategies) == 1 else strategies


def _strategy(text: str) -> Any:
    from ..strategies.spec import parse_strategies

    strategies = parse_strategies(text)
    if len(strategies) != 1:
        raise ValueError(f"--hero takes one strategy, got {text!r}")
    return strategies[0]


@dataclass(frozen=True)
class Option:
    """How one keyword of an analysis function is written on the command line."""

    flags: tuple[str, ...]
    help: str
    type: Callable[[str], Any] | None = str
    #: "value" (takes a value), "flag" (--x/--no-x), "invert" (a flag setting False)
    form: str = "value"


#: Every keyword an analysis takes, by its Python name (``unicode`` is
#: written ``--ascii``, ``progress`` is written ``--quiet``).
OPTIONS: dict[str, Option] = {
    "rules": Option(("--rules",), "rule set of the model: 'pagat' (default) or 'hi-lo' "
                    "(declarations and a split pot; declare models 'hi-lo' only), "
                    "docs/rules.md"),
    "order": Option(("--order",), "the five cards in reveal order, the last one hidden "
                    "(default: as the hand is written)"),
    "passed": Option(("--passed",), "the three cards you passed (now on your left)"),
    "received": Option(("--received",), "the three cards you received (from your right)"),
    "discards": Option(("--discards",), "your two discards (reveal; unknown when omitted)"),
    "known": Option(("--known",), "cards known to be in no opponent's hand"),
    "by": Option(("--by",), "group the rows: 'hidden' (one row per hidden card)"),
    "hero": Option(("--hero",), "your strategy for the decisions not being scored, "
                   "e.g. sensible or 'sensible:bluff=0.1'", _strategy),
    "opponents": Option(("--opponents",), "every opponent's strategy (learned, sensible, "
                        "random-pass, call-down, random), or a comma list, left neighbour "
                        "first; parameters as 'sensible:bluff=0.1,continue_late=2'",
                        _opponents),
    "betting": Option(("--betting",), "complete deals with betting (value in chips) instead "
                      "of the showdown model (value = pot share)", None, "flag"),
    "dealer": Option(("--dealer",), "dealer seat (you are seat 0)", int),
    "confirm": Option(("--confirm",), "re-estimate the best K rows on fresh deals (values free "
                      "of the winner's curse)", int),
    "deals": Option(("--deals", "-n"), "number of deals", int),
    "precision": Option(("--precision",), "run until every row's se is below this", float),
    "max_deals": Option(("--max-deals",), "cap of a --precision run", int),
    "seed": Option(("--seed",), "random seed (default: a fresh one, printed)", int),
    "batch_size": Option(("--batch-size",), "deals per batch (default: the analysis's)", int),
    "threads": Option(("--threads",), "numba threads (default: all; results do not depend "
                      "on it)", int),
    "progress": Option(("--quiet", "-q"), "no progress bar", None, "invert"),
    "unicode": Option(("--ascii",), "cards as Qs instead of Q♠", None, "invert"),
}  # fmt: skip


def _analysis(name: str) -> Callable[..., pd.DataFrame]:
    from .. import analysis

    function: Callable[..., pd.DataFrame] = getattr(analysis, name)
    return function


#: command -> (function name, help, what the hand is)
ANALYSES: dict[str, tuple[str, str, str]] = {
    "pass": ("pass_values", "value of each of the 35 passes of a 7-card hand",
             'seven cards, e.g. "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"'),
    "discard": ("discard_values", "value of each of the 21 discards after the pass",
                "the seven cards held after the pass"),
    "reveal": ("reveal_values", "value of each of the 120 reveal orders of five",
               "the five cards kept"),
    "equity": ("equity", "showdown equity of a hand at its stage",
               "seven cards (at the deal or after the pass) or five"),
    "declare": ("declare_values", "hi-lo: value of declaring high, low or both with five",
                "the five cards kept"),
}  # fmt: skip


def _default_text(default: Any) -> str:
    if default is None:
        return ""
    if hasattr(default, "spec"):
        return f" (default {default.spec()})"
    return f" (default {default})"


def _shown_default(function: Callable[..., Any], name: str, default: Any) -> Any:
    """What a default of ``None`` means, for the help text."""
    from ..analysis.driver import DEFAULT_DEALS

    if default is not None:
        return default
    if name == "deals":
        return DEFAULT_DEALS
    return None


def _add_options(parser: argparse.ArgumentParser, function: Callable[..., Any]) -> None:
    """One option per keyword of ``function``, with the function's default."""
    stop = parser.add_mutually_exclusive_group()
    for name, param in inspect.signature(function).parameters.items():
        if param.kind is not inspect.Parameter.KEYWORD_ONLY:
            continue
        option = OPTIONS.get(name)
        if option is None:  # a keyword the CLI does not know is a bug, caught by the tests
            raise RuntimeError(f"{function.__name__}({name}=...) has no command-line option")
        default = param.default
        target = stop if name in ("deals", "precision") else parser
        if option.form == "flag":
            target.add_argument(*option.flags, dest=name, default=default,
                                action=argparse.BooleanOptionalAction,
                                help=option.help + _default_text(default))  # fmt: skip
        elif option.form == "invert":
            target.add_argument(*option.flags, dest=name, action="store_false",
                                default=default, help=option.help)  # fmt: skip
        else:
            shown = _shown_default(function, name, default)
            target.add_argument(*option.flags, dest=name, type=option.type or str, default=default,
                                help=option.help + _default_text(shown))  # fmt: skip


def _keywords(args: argparse.Namespace, function: Callable[..., Any]) -> dict[str, Any]:
    kwargs = {
        name: getattr(args, name)
        for name, param in inspect.signature(function).parameters.items()
        if param.kind is inspect.Parameter.KEYWORD_ONLY
    }
    if kwargs.get("seed") is None:
        kwargs["seed"] = secrets.randbelow(2**31)
    return kwargs


def _emit(args: argparse.Namespace, table: pd.DataFrame,
          plot: Callable[[pd.DataFrame], Any] | None) -> int:  # fmt: skip
    attrs = table.attrs
    title = f"{attrs.get('analysis', '')} values for {attrs.get('hand', '')}".strip()
    print(f"{title} - {attrs.get('rules', 'pagat')} rules, {attrs.get('players')} players, "
          f"{attrs.get('deals')} deals, seed {attrs.get('seed')}, "
          f"value = {attrs.get('value_unit')}")  # fmt: skip
    print(f"opponents: {', '.join(dict.fromkeys(attrs.get('opponents', [])))}")
    print(format_table(table, top=args.top))
    if args.out:
        print(f"table written to {write_table(table, args.out)}")
    if args.plot and plot is not None:
        from ..output.plots import save_figure

        print(f"chart written to {save_figure(plot(table), args.plot, model=table.attrs)}")
    return 0


def _chart(command: str, kwargs: dict[str, Any]) -> Callable[[pd.DataFrame], Any]:
    from ..output import plots

    charts: dict[str, Callable[[pd.DataFrame], Any]] = {
        "pass": plots.plot_pass_values, "discard": plots.plot_discard_values,
        "equity": plots.plot_equity, "reveal": plots.plot_reveal_values,
        "declare": plots.plot_declare_values,
    }  # fmt: skip
    if command == "reveal" and kwargs.get("by"):
        return plots.plot_reveal_by_hidden
    return charts[command]


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse an unusable --out or --plot before any work starts."""
    from pathlib import Path

    from ..output.plots import FIGURE_FORMATS
    from ..output.tables import TABLE_FORMATS

    for option, path, formats in (("--out", args.out, TABLE_FORMATS),
                                  ("--plot", args.plot, tuple(FIGURE_FORMATS))):  # fmt: skip
        if path is None:
            continue
        target = Path(path)
        if target.suffix.lower() not in formats:
            suffix = target.suffix or "(none)"
            raise ValueError(
                f"{option} {path!r}: unknown extension {suffix!r}; use one of {', '.join(formats)}"
            )
        if target.is_dir():
            raise ValueError(f"{option} {path!r} is a directory; name a file inside it")
        parent = next((p for p in target.absolute().parents if p.exists()), None)
        if parent is not None and not parent.is_dir():
            raise ValueError(f"{option} {path!r}: {str(parent)!r} is a file, not a folder")


def _run(command: str) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        _check_outputs(args)
        function = _analysis(ANALYSES[command][0])
        kwargs = _keywords(args, function)
        if command == "equity" and args.all_players:
            rows = [function(args.hand, players, **kwargs) for players in range(2, 8)]
            table = pd.concat(rows, ignore_index=True)
            table.attrs = {**rows[0].attrs, "players": "2-7"}
        else:
            table = function(args.hand, args.players, **kwargs)
        return _emit(args, table, _chart(command, kwargs))

    return handler


def register(subparsers: Any) -> None:
    """Add the pass, discard, reveal, equity and declare subcommands."""
    for command, (function_name, help_text, hand_help) in ANALYSES.items():
        parser = subparsers.add_parser(command, help=help_text)
        parser.add_argument("hand", help=hand_help)
        parser.add_argument("--players", "-p", type=int, default=6,
                            help="table size 2-7 (default 6)")  # fmt: skip
        _add_options(parser, _analysis(function_name))
        if command == "reveal":
            parser.add_argument("--by-hidden", dest="by", action="store_const", const="hidden",
                                help="the same as --by hidden")  # fmt: skip
        if command == "equity":
            parser.add_argument("--all-players", action="store_true",
                                help="every table size 2-7")  # fmt: skip
        parser.add_argument("--out", "-o", help="write the table: .csv, .parquet or .json")
        parser.add_argument("--plot", help="write a chart with error bars: .png, .svg or .pdf")
        parser.add_argument("--top", type=_positive, help="print only the best N rows (N >= 1)")
        parser.set_defaults(func=_run(command))


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use the anaconda-sim command")
