"""The ``anaconda-sim`` command.

Each subcommand is one small registration function that adds its parser and
sets ``handler``, a function ``(args, streams) -> int`` (or ``func``, a
function ``(args) -> int`` that prints to ``sys.stdout``, which ``main``
points at its output stream); add yours to :data:`COMMANDS`. Errors that
are the user's (bad arguments, illegal cards, impossible rules) print one
line, ``anaconda-sim: error: ...``, with no traceback, and the command exits
with code 2.

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> main(["play", "--players", "2", "--seed", "3", "--strategy", "call-down"],
...      stdout=out)
0
>>> out.getvalue().splitlines()[0]
'Anaconda (pagat), 2 players, dealer seat 0, deal 0'
>>> main(["play", "--players", "9"], stderr=io.StringIO())
2
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ..cards import CardError
from ..errors import GameError

__all__ = ["COMMANDS", "Streams", "build_parser", "main"]

PROG = "anaconda-sim"


@dataclass
class Streams:
    """The text streams a command reads from and writes to."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO


Handler = Callable[[argparse.Namespace, Streams], int]


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so ``main`` returns codes."""

    def error(self, message: str) -> Any:
        raise _UsageError(f"{self.prog}: error: {message}")


class _UsageError(Exception):
    pass


# ------------------------------------------------------------------ play --


def _seat(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seat number") from None
    return value


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
    p.add_argument("--players", type=int, default=6, help="seats at the table, 2-7 (default 6)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random)")
    p.add_argument(
        "--strategy",
        default="sensible",
        help="built-in strategy of the bots: one, or one per seat separated by commas "
        "(random, call-down, random-pass, sensible, learned; parameters as "
        "'sensible:bluff=0.1'; "
        "default sensible)",
    )
    p.add_argument("--dealer", type=_seat, default=0, help="dealer seat (default 0)")
    p.add_argument(
        "--deal-index",
        type=int,
        default=0,
        help="deal number within the seed, 0..2**63-1 (default 0)",
    )
    p.add_argument(
        "--rules",
        choices=["pagat", "bicycle", "hi-lo"],
        default="pagat",
        help="rule set: pagat (docs/rules.md, default), bicycle (3-2-1 passes, best five of "
        "seven) or hi-lo (pagat with declarations and a split pot, R21-R26)",
    )
    p.add_argument("--human", type=_seat, default=None, metavar="SEAT", help="play SEAT yourself")
    p.add_argument("--json", action="store_true", help="print the history as JSON instead")
    p.add_argument(
        "--save",
        default=None,
        metavar="FILE",
        help="also write the history as JSON to FILE (read it back with --replay)",
    )
    p.add_argument(
        "--replay",
        default=None,
        metavar="FILE",
        help="do not deal: read the history JSON in FILE, check it by replaying every move, "
        "and print it (the deal options are then not used)",
    )
    p.set_defaults(handler=run_play)


def _check_deal_index(index: int) -> None:
    """Refuse a ``--deal-index`` outside 0..MAX_DEAL_INDEX (the random streams need it)."""
    from ..rng import MAX_DEAL_INDEX

    if not 0 <= index <= MAX_DEAL_INDEX:
        raise ValueError(
            f"--deal-index {index} is out of range; deal indices are 0..{MAX_DEAL_INDEX} "
            "(the random streams take it as a 64-bit integer)"
        )


def _check_save_path(path: str) -> None:
    """Refuse a ``--save`` path that cannot be written, before any deal is played."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"--save {path!r} is a folder; give a file name such as deal.json")
    if not os.path.isdir(folder):
        raise ValueError(f"--save {path!r}: the folder {folder!r} does not exist; create it first")


def _save(history: Any, path: str) -> None:
    try:
        history.save(path)
    except OSError as exc:
        raise ValueError(
            f"cannot write --save {path!r}: {exc.strerror or exc}; choose a writable file"
        ) from None


def _load(path: str) -> Any:
    from ..game.replayer import load_history

    try:
        return load_history(path)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ValueError(
            f"cannot read --replay {path!r}: {reason}; give a history file written by "
            "`anaconda-sim play --save FILE`"
        ) from None


def run_play(args: argparse.Namespace, streams: Streams) -> int:
    """Handler of ``play``."""
    from ..game.play import play_deal
    from ..table.rules import Rules

    if args.save is not None:
        _check_save_path(args.save)
    if args.replay is not None:
        if args.human is not None:
            raise ValueError(
                "--replay prints a saved deal and --human plays a new one; give only one"
            )
        history = _load(args.replay)
        if args.save is not None:
            _save(history, args.save)
        text = history.to_json(indent=1) if args.json else history.format()
        print(text, file=streams.stdout)
        return 0
    _check_deal_index(args.deal_index)
    presets = {"pagat": Rules.pagat, "bicycle": Rules.bicycle, "hi-lo": Rules.hilo}
    rules = presets[args.rules](args.players)
    n = rules.players
    from ..strategies.spec import parse_strategies

    # "name" or "name:key=value,key=value", one for every seat or one per seat
    names = parse_strategies(args.strategy)
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise ValueError(f"--strategy lists {len(names)} strategies for {n} seats")
    if not 0 <= args.dealer < n:
        raise ValueError(f"--dealer {args.dealer} is not a seat; seats are 0..{n - 1}")
    if args.human is not None:
        from .terminal import play_terminal

        if not 0 <= args.human < n:
            raise ValueError(f"--human {args.human} is not a seat; seats are 0..{n - 1}")
        played = play_terminal(rules, args.human, names, seed=args.seed, dealer=args.dealer,
                               deal_index=args.deal_index, input=streams.stdin,
                               output=streams.stdout)  # fmt: skip
        if args.save is not None and played is not None:
            _save(played.history, args.save)
        return 0
    game = play_deal(rules, names, seed=args.seed, dealer=args.dealer,
                     deal_index=args.deal_index)  # fmt: skip
    if args.save is not None:
        _save(game.history, args.save)
    text = game.history.to_json(indent=1) if args.json else game.history.format()
    print(text, file=streams.stdout)
    return 0


def register_analysis(subparsers: Any) -> None:
    """``pass``, ``discard``, ``reveal``, ``equity``: see :mod:`anaconda_sim.cli.analysis`."""
    from .analysis import register

    register(subparsers)


def register_run(subparsers: Any) -> None:
    """``anaconda-sim run``: the main research job on built-in defaults."""
    p = subparsers.add_parser(
        "run",
        help="the main job: the worked example through the evaluator, the simulator and all "
        "three analyses, tables and charts written to a folder",
    )
    p.add_argument("--out", default="anaconda-sim-output", help="output folder")
    p.add_argument("--quick", action="store_true", help="small samples (seconds)")
    p.add_argument("--seed", type=int, default=None, help="seed (default 2024)")
    p.add_argument("--players", type=int, default=None, help="table size (default 6)")
    p.set_defaults(handler=run_main)


def run_main(args: argparse.Namespace, streams: Streams) -> int:
    """Handler of ``run``."""
    import dataclasses

    from .mainjob import MainJobConfig, run_main_job

    config = MainJobConfig.quick() if args.quick else MainJobConfig()
    changes = {k: v for k, v in (("seed", args.seed), ("players", args.players)) if v is not None}
    if "players" in changes and not 2 <= changes["players"] <= 7:
        raise ValueError(f"--players {changes['players']} is outside 2..7 (R2)")
    config = dataclasses.replace(config, **changes)
    run_main_job(args.out, config, echo=lambda text: print(text, file=streams.stdout))
    return 0


def register_sweep(subparsers: Any) -> None:
    """``sweep``: see :mod:`anaconda_sim.cli.sweep`."""
    from .sweep import register

    register(subparsers)


#: Registration functions, one per subcommand, in the order ``--help`` lists them.
COMMANDS: list[Callable[[Any], None]] = [
    register_run, register_play, register_analysis, register_sweep,
]  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand of :data:`COMMANDS`."""
    from .._version import __version__

    parser = _Parser(prog=PROG, description="Monte Carlo strategy research for Anaconda poker.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for register in COMMANDS:
        register(subparsers)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit code (0 success, 2 user error)."""
    streams = Streams(stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        print(f"{exc}", file=streams.stderr)
        return 2
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    try:
        if hasattr(args, "handler"):
            return args.handler(args, streams)
        with contextlib.redirect_stdout(streams.stdout):
            return int(args.func(args) or 0)
    except (GameError, CardError, ValueError, TypeError) as exc:
        print(f"{PROG}: error: {exc}", file=streams.stderr)
        return 2
    except BrokenPipeError:  # e.g. `anaconda-sim play | head`
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        return 1
    except OSError as exc:  # a file that cannot be written or read: one line, no traceback
        where = f" {exc.filename!r}" if exc.filename else ""
        print(f"{PROG}: error: cannot use{where}: {exc.strerror or exc}", file=streams.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=streams.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
