"""The argument parser of ``anaconda-sim``, built without loading the work.

This module imports neither numba nor pandas nor the analyses, so
``--help``, ``--version`` and an argument error answer at once. Every
subcommand names its handler as ``"module:function"`` (a module of
:mod:`anaconda_sim.cli`); :func:`anaconda_sim.cli.app.main` imports it only
after the arguments are parsed. The analysis subcommands are generated from
:data:`anaconda_sim.analysis.registry.KINDS`: one per kind, one option per
keyword of its function (:data:`OPTIONS` says how each is written here),
with the function's default.

No option may be abbreviated (``--player 6`` is an error, not ``--players
6``): every parser is made with ``allow_abbrev=False``.

Examples
--------
>>> parser = build_parser()
>>> args = parser.parse_args(["pass", "Qs Qh 9c 8d 3s 4h 2c", "--opponents", "sensible"])
>>> args.handler, args.opponents, args.deals
('analysis:run_analysis', 'sensible', None)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._version import __version__
from ..analysis.registry import DEFAULT_DEALS, KINDS, AnalysisKind
from ..precompile import ENTRY_POINTS

__all__ = ["COMMANDS", "OPTIONS", "PROG", "Option", "UsageError", "add_sweep_arguments",
           "build_parser"]  # fmt: skip

PROG = "anaconda-sim"

#: the strategies a user can name, for the help texts (the parser of
#: :mod:`anaconda_sim.strategies` checks the names and lists them when one is wrong)
_NAMES = "learned, sensible, random-pass, call-down, random"


class UsageError(Exception):
    """A bad command line; its text is the one line to print."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises :class:`UsageError` instead of exiting (so
    ``main`` returns codes) and takes no abbreviated option."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> Any:
        # one line, whatever the arguments it echoes hold (a newline is shown as \n)
        message = message.replace("\r", "\\r").replace("\n", "\\n")
        raise UsageError(f"{self.prog}: error: {message}")


def _int(what: str, low: int | None = None) -> Callable[[str], int]:
    """An argument type: a whole number, at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"{value} must be at least {low}")
        return value

    return parse


def _by(text: str) -> str | None:
    """``--by``: ``hidden`` groups the rows by the hidden card; ``none`` does not group."""
    if text.lower() == "none":
        return None
    if text == "hidden":
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r} is not a grouping; use --by hidden (one row per hidden card), "
        "or omit --by (or --by none) for one row per order"
    )


# ------------------------------------------------------------------ play --


def register_play(subparsers: Any) -> None:
    """``anaconda-sim play``: one deal among bots, or a person against bots."""
    p = subparsers.add_parser(
        "play",
        help="play one deal: print its hand history, or play a seat yourself",
        description=(
            "Play one deal of Anaconda. Without --human, built-in strategies play every "
            "seat and the hand history is printed. With --human SEAT you play that seat "
            "at the terminal against the bots; at the betting prompt type f (fold), k or x "
            "(check), c (check or call), b (bet), r (raise) or the word. With --replay FILE "
            "a saved history is checked by replaying it and printed."
        ),
    )
    p.add_argument("--players", type=_int("a number of players"), default=6,
                   help="seats at the table, 2-7 (default 6)")  # fmt: skip
    p.add_argument("--seed", type=_int("a whole number"), default=None,
                   help="seed of the deal (default: random)")  # fmt: skip
    p.add_argument(
        "--opponents",
        default="sensible",
        help=f"the bots' strategy ({_NAMES}), or a comma list with one per seat, seat 0 "
        "first (with --human, one per bot or one per seat, the person's entry skipped); "
        "parameters as 'sensible:bluff=0.1' (default sensible)",
    )
    p.add_argument("--dealer", type=_int("a seat number"), default=0,
                   help="dealer seat (default 0)")  # fmt: skip
    p.add_argument("--deal-index", type=_int("a whole number"), default=0,
                   help="deal number within the seed, 0..2**63-1 (default 0)")  # fmt: skip
    p.add_argument(
        "--rules",
        choices=["pagat", "bicycle", "hi-lo"],
        default="pagat",
        help="rule set: pagat (docs/rules.md, default), bicycle (3-2-1 passes, best five of "
        "seven) or hi-lo (pagat with declarations and a split pot, R21-R26)",
    )
    p.add_argument("--human", type=_int("a seat number"), default=None, metavar="SEAT",
                   help="play SEAT yourself")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the history as JSON instead")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="also write the history as JSON to FILE (read it back with --replay)")
    p.add_argument(
        "--replay",
        default=None,
        metavar="FILE",
        help="do not deal: read the history JSON in FILE, check it by replaying every move, "
        "and print it (the deal options are then not used)",
    )
    p.add_argument("--spots", action="store_true",
                   help="with --human: before each of your decisions, show the value in chips "
                   "of every choice against the bots' strategy (anaconda-sim spot)")  # fmt: skip
    p.add_argument("--spot-deals", type=_int("a whole number", 2), default=2000, metavar="N",
                   help="posterior draws per decision of --spots (default 2000)")  # fmt: skip
    p.set_defaults(handler="play:run_play")


# ------------------------------------------------------------------ spot --


def register_spot(subparsers: Any) -> None:
    """``anaconda-sim spot``: the value of every choice at one decision of a saved deal."""
    p = subparsers.add_parser(
        "spot",
        help="the value of every choice at one decision of a saved deal",
        description=(
            "Read a hand history (anaconda-sim play --save FILE) and value every legal choice "
            "of the seat deciding move N, given only what that seat knew: the rivals' hidden "
            "cards are drawn from their posterior under the strategies the history records (or "
            "--opponents), and each draw is played on once per choice. --list numbers the moves."
        ),
    )
    p.add_argument("history", metavar="HISTORY",
                   help="a hand history JSON file (anaconda-sim play --save FILE)")  # fmt: skip
    p.add_argument("--move", type=_int("a move number"), default=None, metavar="N",
                   help="the decision of move N (1-based, as --list numbers them): the spot is "
                   "the state just before it")  # fmt: skip
    p.add_argument("--list", action="store_true",
                   help="print the numbered moves of the history and exit")  # fmt: skip
    p.add_argument("--opponents", default=None,
                   help=f"the rivals' strategy ({_NAMES}), or a comma list with one per seat, "
                   "seat 0 first (the deciding seat's entry is ignored): what they did before "
                   "the spot is weighed under it, and they play on with it (default: the "
                   "strategies the history records; learned, assumed, for a history that "
                   "records none)")  # fmt: skip
    p.add_argument("--hero", default=None,
                   help="the deciding seat's strategy after this decision (default: its "
                   "recorded one; with --opponents, the opponents' strategy, with one per "
                   "seat the next seat's)")  # fmt: skip
    p.add_argument("--deals", "-n", type=_int("a whole number", 2), default=10_000,
                   help="posterior draws to play on (default 10000)")  # fmt: skip
    p.add_argument("--seed", type=_int("a whole number"), default=None,
                   help="random seed (default: a fresh one, printed)")  # fmt: skip
    p.add_argument("--seat", type=_int("a seat number"), default=None,
                   help="the deciding seat (default: the seat of move N; in a pass or discard "
                   "any seat still to commit)")  # fmt: skip
    p.add_argument("--decision", choices=["discard", "order"], default=None,
                   help="at a discard: 'discard' (the 21 pairs of discards, default) or 'order' "
                   "(the 120 reveal orders of the five cards in --keep)")  # fmt: skip
    p.add_argument("--keep", default=None, metavar="CARDS",
                   help="with --decision order: the five cards kept, "
                   "e.g. 'Qs Qh 9c 8d 3s'")  # fmt: skip
    p.add_argument("--tries", type=_int("a whole number", 1), default=None,
                   help="candidates per rival and posterior draw (default: set per "
                   "rival by a pilot run)")  # fmt: skip
    p.add_argument("--top", type=_int("a whole number", 1),
                   help="print only the best N rows (N >= 1)")  # fmt: skip
    p.add_argument("--out", "-o", help="write the table: .csv, .parquet or .json")
    p.add_argument("--ascii", dest="unicode", action="store_false",
                   help="cards as Qs instead of Q♠")  # fmt: skip
    p.set_defaults(handler="spot:run_spot")


# ----------------------------------------------------------- calibration --


def register_calibration(subparsers: Any) -> None:
    """``anaconda-sim calibration``: an equity estimate's reliability on fresh deals."""
    p = subparsers.add_parser(
        "calibration",
        help="how well an equity estimate predicts winning: a reliability table on fresh deals",
        description=(
            "Play fresh deals in which every seat plays --strategy and, at every betting "
            "decision, compare the estimate's predicted probability of winning the pot "
            "against the rivals then active with the share the seat went on to win at a "
            "showdown against them; one line per bin of the prediction, with 95% CIs "
            "(deals as clusters)."
        ),
    )
    p.add_argument("--strategy", default="learned",
                   help=f"the field, every seat ({_NAMES}; default learned)")  # fmt: skip
    p.add_argument("--players", "-p", type=_int("a number of players", 2), default=6,
                   help="table size, 2-7 (default 6)")  # fmt: skip
    p.add_argument("--deals", "-n", type=_int("a whole number", 2), default=20_000,
                   help="fresh deals (default 20000)")  # fmt: skip
    p.add_argument("--seed", type=_int("a whole number"), default=2027,
                   help="seed (default 2027)")  # fmt: skip
    p.add_argument("--estimate", choices=["reads", "win-table"], default="reads",
                   help="'reads': the board-reading estimate shipped for the table size "
                   "(default); 'win-table': the learned family's win-table product")  # fmt: skip
    p.add_argument("--bins", type=_int("a whole number", 1), default=10,
                   help="equal-width bins of the prediction (default 10)")  # fmt: skip
    p.add_argument("--out", "-o", help="write the table: .csv, .parquet or .json")
    p.add_argument("--plot", help="write the reliability diagram: .png, .svg or .pdf")
    p.set_defaults(handler="reliability:run_calibration")


# ------------------------------------------------------------------- run --


def register_run(subparsers: Any) -> None:
    """``anaconda-sim run``: the main research job on built-in defaults."""
    p = subparsers.add_parser(
        "run",
        help="the main job: the worked example through the evaluator, the simulator and all "
        "three analyses, tables and charts written to a folder",
        description="The main research job on built-in defaults: the rules' worked example "
        "(Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣) read by the evaluator; final-hand category frequencies of "
        "1,000,000 six-player call-down deals; the worked example's 35 passes and 21 discards "
        "(showdown model) and the 120 reveal orders of its full house (with betting), each "
        "against five 'learned' opponents, with 95% intervals. Every table (CSV) and chart "
        "(PNG) goes to --out. A first run compiles the kernels it needs and says so (about "
        "30 s on two cores); later runs load them from the cache.",
    )
    p.add_argument("--out", default="anaconda-sim-output",
                   help="output folder (default anaconda-sim-output)")  # fmt: skip
    p.add_argument("--quick", action="store_true",
                   help="small samples (about 4 s once the kernels are compiled)")  # fmt: skip
    p.add_argument("--seed", type=_int("a whole number"), default=None,
                   help="seed (default 2024)")  # fmt: skip
    p.add_argument("--players", type=_int("a number of players"), default=None,
                   help="table size (default 6)")  # fmt: skip
    p.set_defaults(handler="mainjob:run_main")


def register_compile(subparsers: Any) -> None:
    """``anaconda-sim compile``: every entry point's kernels, compiled ahead."""
    p = subparsers.add_parser(
        "compile",
        help="compile every entry point's kernels into the cache now, so that first calls "
        "load them (once per machine and version of the sources)",
        description="Compile the kernels of the public entry points into the on-disk cache, "
        "one small call of each, on every core: afterwards their first calls, in any process "
        "of this machine, load the kernels in 1-2 s instead of compiling them (10-40 s each "
        "on two cores). Prints one line per entry point: its time, and whether it compiled "
        "anything or found every kernel cached.",
    )
    p.add_argument("--only", nargs="+", choices=list(ENTRY_POINTS), default=None,
                   metavar="NAME", help="these entry points only, of: "
                   + ", ".join(ENTRY_POINTS))  # fmt: skip
    p.add_argument("--players", type=_int("a number of players"), default=6,
                   help="table size of the small calls (default 6; the kernels serve every "
                   "size)")  # fmt: skip
    p.set_defaults(handler="precompile:run_compile")


# -------------------------------------------------------------- analyses --


@dataclass(frozen=True)
class Option:
    """How one keyword of an analysis function is written on the command line."""

    flags: tuple[str, ...]
    help: str
    type: Callable[[str], Any] | None = str
    #: "value" (takes a value), "flag" (--x/--no-x), "invert" (a flag setting False)
    form: str = "value"


#: Every keyword an analysis takes, by its Python name (``unicode`` is
#: written ``--ascii``, ``progress`` is written ``--quiet``). Strategies are
#: kept as text here and parsed by the handler, whose error is the strategy
#: parser's own (it names the bad name or parameter and lists the valid ones).
OPTIONS: dict[str, Option] = {
    "rules": Option(("--rules",), "rule set of the model: 'pagat' or 'hi-lo' "
                    "(declarations and a split pot; declare models 'hi-lo' only), "
                    "docs/rules.md"),
    "order": Option(("--order",), "the five cards in reveal order, the last one hidden "
                    "(default: as the hand is written)"),
    "passed": Option(("--passed",), "the three cards you passed (now on your left)"),
    "received": Option(("--received",), "the three cards you received (from your right)"),
    "discards": Option(("--discards",), "your two discards (reveal; unknown when omitted)"),
    "known": Option(("--known",), "cards known to be in no opponent's hand"),
    "by": Option(("--by",), "group the rows: 'hidden' (one row per hidden card); omit it "
                 "for one row per order", _by),
    "hero": Option(("--hero",), f"your strategy for the decisions not being scored ({_NAMES}), "
                   "parameters as 'sensible:bluff=0.1'"),
    "opponents": Option(("--opponents",), f"every opponent's strategy ({_NAMES}), or a comma "
                        "list, left neighbour first; parameters as "
                        "'sensible:bluff=0.1,continue_late=2'"),
    "betting": Option(("--betting",), "complete deals with betting (value in chips) instead "
                      "of the showdown model (value = pot share)", None, "flag"),
    "fold": Option(("--fold",), "one row for the choices that are one choice up to a "
                   "relabelling of suits nothing known tells apart, with their count "
                   "(--no-fold lists every one)", None, "flag"),
    "dealer": Option(("--dealer",), "dealer seat (you are seat 0)", _int("a seat number")),
    "confirm": Option(("--confirm",), "re-estimate the best K rows on fresh deals (values free "
                      "of the winner's curse)", _int("a whole number")),
    "deals": Option(("--deals", "-n"), "number of deals", _int("a whole number")),
    "precision": Option(("--precision",), "run until every row's se is below this", float),
    "max_deals": Option(("--max-deals",), "cap of a --precision run", _int("a whole number")),
    "seed": Option(("--seed",), "random seed (default: a fresh one, printed)",
                   _int("a whole number")),
    "batch_size": Option(("--batch-size",), "deals per batch (default: the analysis's)",
                         _int("a whole number")),
    "threads": Option(("--threads",), "numba threads (default: all; results do not depend "
                      "on it)", _int("a whole number")),
    "progress": Option(("--quiet", "-q"), "no progress bar", None, "invert"),
    "unicode": Option(("--ascii",), "cards as Qs instead of Q♠", None, "invert"),
}  # fmt: skip


def _default_text(name: str, default: Any) -> str:
    if name == "deals" and default is None:
        return f" (default {DEFAULT_DEALS:,})"
    if default is None or isinstance(default, bool):
        return ""
    return f" (default {default})"


def _add_options(parser: argparse.ArgumentParser, kind: AnalysisKind) -> None:
    """One option per keyword of ``kind``'s function, with the function's default."""
    stop = parser.add_mutually_exclusive_group()
    for name, default in kind.options.items():
        option = OPTIONS[name]  # a keyword without an option fails tests/cli/test_registry.py
        target = stop if name in ("deals", "precision") else parser
        if option.form == "flag":
            state = "on" if default else "off"
            target.add_argument(*option.flags, dest=name, default=default,
                                action=argparse.BooleanOptionalAction,
                                help=f"{option.help} (default {state})")  # fmt: skip
        elif option.form == "invert":
            target.add_argument(*option.flags, dest=name, action="store_false",
                                default=default, help=option.help)  # fmt: skip
        else:
            target.add_argument(*option.flags, dest=name, type=option.type or str,
                                default=default,
                                help=option.help + _default_text(name, default))  # fmt: skip


def register_analyses(subparsers: Any) -> None:
    """One subcommand per analysis kind of the registry."""
    for kind in KINDS:
        parser = subparsers.add_parser(kind.name, help=kind.summary)
        parser.add_argument("hand", help=kind.hand)
        parser.add_argument("--players", "-p", type=_int("a number of players"), default=None,
                            help="table size 2-7 (default 6)")  # fmt: skip
        _add_options(parser, kind)
        if kind.name == "reveal":
            parser.add_argument("--by-hidden", dest="by", action="store_const", const="hidden",
                                help="the same as --by hidden")  # fmt: skip
        if kind.name == "equity":
            parser.add_argument("--all-players", action="store_true",
                                help="one row for every table size 2-7 (instead of "
                                "--players)")  # fmt: skip
        parser.add_argument("--out", "-o", help="write the table: .csv, .parquet or .json")
        parser.add_argument("--plot", help="write a chart with error bars: .png, .svg or .pdf")
        parser.add_argument("--force", action="store_true",
                            help="overwrite the --out or --plot file when it exists")  # fmt: skip
        parser.add_argument("--top", type=_int("a whole number", 1),
                            help="print only the best N rows (N >= 1)")  # fmt: skip
        parser.set_defaults(handler="analysis:run_analysis", kind=kind.name)


# ----------------------------------------------------------------- sweep --


def add_sweep_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``sweep`` (shared by the subcommand and ``python -m
    anaconda_sim.cli.sweep``)."""
    parser.add_argument("spec", nargs="?", help="the sweep spec, a TOML file")
    parser.add_argument(
        "--out", "-o", metavar="FOLDER", help="results folder (created; rerun to resume)"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on a Dask scheduler, e.g. tcp://10.0.0.5:8786")  # fmt: skip
    where.add_argument("--local-cluster", type=_int("a number of workers"), metavar="N",
                       help="run on N local Dask worker processes")  # fmt: skip
    parser.add_argument("--status", metavar="FOLDER", help="show what a results folder holds")
    parser.add_argument(
        "--export", metavar="FILE",
        help="write all rows as one table when done (.csv/.parquet/.json)",
    )  # fmt: skip
    parser.add_argument(
        "--summary", metavar="FILE",
        help="write the class averages of an equity sweep over hand classes",
    )  # fmt: skip
    parser.add_argument(
        "--drop", metavar="COLUMNS", default="",
        help="comma list of columns to leave out of the --export and --summary files",
    )  # fmt: skip
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def register_sweep(subparsers: Any) -> None:
    """``anaconda-sim sweep``: see :mod:`anaconda_sim.cli.sweep`."""
    parser = subparsers.add_parser(
        "sweep",
        help="run an analysis over a grid of hands, tables and opponents (resumable)",
        description="Run the sweep a TOML spec describes into a results folder of Parquet "
        "files, one per finished work unit. Rerun the same command to resume.",
    )
    add_sweep_arguments(parser)
    parser.set_defaults(handler="sweep:command")


#: Registration functions, one per subcommand family, in the order ``--help`` lists them.
COMMANDS: list[Callable[[Any], None]] = [
    register_run, register_play, register_spot, register_analyses, register_sweep,
    register_calibration, register_compile,
]  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand of :data:`COMMANDS`."""
    parser = Parser(prog=PROG, description="Monte Carlo strategy research for Anaconda poker.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    subparsers.required = True
    for register in COMMANDS:
        register(subparsers)
    return parser
