"""The ``anaconda-sim`` command: parse, then load and run one handler.

The parser (:mod:`anaconda_sim.cli.parser`) is light; each subcommand names
its handler as ``"module:function"``, a function ``(args, streams) -> int``
in a module of this package, imported here only after parsing (so
``--help`` and a bad argument never wait for numba or pandas). Errors that
are the user's (bad arguments, illegal cards, impossible rules) print one
line, ``anaconda-sim: error: ...``, with no traceback, and the command exits
with code 2. A warning prints one line too, ``warning: ...``.

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> main(["play", "--players", "2", "--seed", "3", "--opponents", "call-down"],
...      stdout=out)
0
>>> out.getvalue().splitlines()[0]
'Anaconda (pagat), 2 players, dealer seat 0, deal 0'
>>> err = io.StringIO()
>>> main(["play", "--player", "2"], stderr=err)
2
>>> err.getvalue()
'anaconda-sim: error: unrecognized arguments: --player 2\\n'
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from ..cards import CardError
from ..errors import GameError
from .parser import COMMANDS, PROG, UsageError, build_parser

__all__ = ["COMMANDS", "Streams", "build_parser", "load_handler", "main", "one_line_warnings"]


@dataclass
class Streams:
    """The text streams a command reads from and writes to."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO


Handler = Callable[[argparse.Namespace, Streams], int]


def load_handler(where: str) -> Handler:
    """The handler ``"module:function"`` of a module of :mod:`anaconda_sim.cli`.

    Examples
    --------
    >>> load_handler("play:run_play").__name__
    'run_play'
    """
    module, _, name = where.partition(":")
    handler: Handler = getattr(importlib.import_module(f".{module}", __package__), name)
    return handler


@contextlib.contextmanager
def one_line_warnings(stream: TextIO) -> Iterator[None]:
    """Print each warning as one line, ``warning: MESSAGE``, without the
    Python source location; the previous display is restored on exit.

    Examples
    --------
    >>> import io, warnings
    >>> err = io.StringIO()
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("always")
    ...     with one_line_warnings(err):
    ...         warnings.warn("2 unit file(s) are ignored", UserWarning)
    >>> err.getvalue()
    'warning: 2 unit file(s) are ignored\\n'
    """

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:  # fmt: skip
        text = " ".join(str(message).split("\n"))
        try:
            print(f"warning: {text}", file=stream, flush=True)
        except (OSError, ValueError):
            pass  # nowhere to show it: a warning never stops the command

    before = warnings.showwarning
    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = before


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
        with contextlib.redirect_stdout(streams.stdout):  # --help and --version
            args = parser.parse_args(argv)
    except UsageError as exc:
        print(f"{exc}", file=streams.stderr)
        return 2
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    try:
        with one_line_warnings(streams.stderr):
            return load_handler(args.handler)(args, streams)
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
