"""The ``sweep`` subcommand of ``anaconda-sim``.

::

    anaconda-sim sweep SPEC.toml --out results/ [--scheduler tcp://HOST:PORT | --local-cluster N]
    anaconda-sim sweep --status results/

Runs the sweep a TOML spec describes into a results folder (see
:mod:`anaconda_sim.sweep`), with a progress bar and ETA; rerunning the same
command resumes. ``--export FILE`` writes all rows as one table and
``--summary FILE`` the class averages of an equity sweep over hand classes
(.csv, .parquet or .json); ``--drop COLUMNS`` leaves columns out of both. Also runs on its own:
``python -m anaconda_sim.cli.sweep SPEC.toml --out results/``.

Examples
--------
>>> import io, pathlib, tempfile
>>> tmp = tempfile.TemporaryDirectory()
>>> folder = pathlib.Path(tmp.name)
>>> _ = (folder / "spec.toml").write_text(
...     'kind = "equity"\\nplayers = [2, 3]\\nhand_classes = ["AA/K"]\\ndeals = 200\\n')
>>> out = io.StringIO()
>>> main([str(folder / "spec.toml"), "--out", str(folder / "res"), "--quiet"], stdout=out)
0
>>> main(["--status", str(folder / "res")], stdout=out)
0
>>> print(out.getvalue())  # doctest: +NORMALIZE_WHITESPACE
sweep ...: 2 units (0 already done, 2 computed) in ... s on local -> '.../res'
sweep ... in '.../res': 2 of 2 units done (100%), complete
    kind rules  players   opponents  target_deals  seed  units  done  hands
  equity pagat        2 random-pass           200     1      1     1      1
  equity pagat        3 random-pass           200     1      1     1      1
>>> err = io.StringIO()
>>> main([str(folder / "spec.toml"), "--out", str(folder / "res"), "--local-cluster", "0"],
...      stderr=err)
2
>>> err.getvalue()
'anaconda-sim: error: --local-cluster 0 must be a number of workers >= 1\\n'
>>> tmp.cleanup()
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ..output.tables import write_table
from ..sweep import load_results, run_sweep, summarize_classes, sweep_status
from .app import one_line_warnings
from .parser import PROG, Parser, UsageError, add_sweep_arguments

__all__ = ["command", "main"]


def command(args: argparse.Namespace, streams: Any = None) -> int:
    """Handler of ``sweep`` (``streams``: optional object with ``stdout``)."""
    stdout: TextIO = getattr(streams, "stdout", None) or sys.stdout

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    if args.status:
        if args.spec or args.out:
            raise ValueError("--status FOLDER shows a folder; give it without a spec or --out")
        say(str(sweep_status(args.status)))
        return 0
    if not args.spec:
        raise ValueError("give a spec file (sweep SPEC.toml --out FOLDER), or --status FOLDER")
    if not args.out:
        raise ValueError("give the results folder: --out FOLDER")
    if args.local_cluster is not None and args.local_cluster < 1:
        raise ValueError(f"--local-cluster {args.local_cluster} must be a number of workers >= 1")
    report = run_sweep(
        args.spec, args.out, scheduler=args.scheduler, local_cluster=args.local_cluster,
        progress=False if args.quiet else None, echo=say,
    )  # fmt: skip
    say(str(report))
    if args.export or args.summary:
        table = load_results(args.out)
        drop = [c.strip() for c in args.drop.split(",") if c.strip()]
        unknown = [c for c in drop if c not in table]
        if unknown:
            raise ValueError(f"--drop {unknown[0]!r}: no such column in the results")
        if args.export:
            path = write_table(table.drop(columns=drop), args.export)
            say(f"table written to {path}")
        if args.summary:
            summary = summarize_classes(table)
            path = write_table(summary.drop(columns=[c for c in drop if c in summary]),
                               args.summary)  # fmt: skip
            say(f"class summary written to {path}")
    return 0


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``python -m anaconda_sim.cli.sweep``: the subcommand on its own; returns the exit code."""
    parser = Parser(prog=f"{PROG} sweep", description=__doc__.splitlines()[0])
    add_sweep_arguments(parser)
    stderr = stderr or sys.stderr
    try:
        args = parser.parse_args(argv)
    except UsageError as error:
        print(error, file=stderr)
        return 2
    streams = argparse.Namespace(stdout=stdout or sys.stdout)
    try:
        with one_line_warnings(stderr):
            return command(args, streams)
    except (ValueError, TypeError) as error:
        print(f"{PROG}: error: {error}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print("anaconda-sim: interrupted (rerun the same command to resume)", file=stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
