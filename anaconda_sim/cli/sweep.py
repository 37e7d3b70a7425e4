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

__all__ = ["add_arguments", "command", "main", "register"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``sweep`` (shared by the subcommand and ``main``)."""
    parser.add_argument("spec", nargs="?", help="the sweep spec, a TOML file")
    parser.add_argument(
        "--out", "-o", metavar="FOLDER", help="results folder (created; rerun to resume)"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on a Dask scheduler, e.g. tcp://10.0.0.5:8786")  # fmt: skip
    where.add_argument("--local-cluster", type=int, metavar="N",
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


def command(args: argparse.Namespace, streams: Any = None) -> int:
    """Handler of ``sweep`` (``streams``: optional object with ``stdout``)."""
    stdout: TextIO = getattr(streams, "stdout", None) or sys.stdout
    from ..output.tables import write_table
    from ..sweep import load_results, run_sweep, summarize_classes, sweep_status

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


def register(subparsers: Any) -> None:
    """Add the ``sweep`` subcommand (its handler, ``command``, is set as ``func`` and
    as ``handler``: it takes ``(args)`` or ``(args, streams)``)."""
    parser = subparsers.add_parser(
        "sweep",
        help="run an analysis over a grid of hands, tables and opponents (resumable)",
        description="Run the sweep a TOML spec describes into a results folder of Parquet "
        "files, one per finished work unit. Rerun the same command to resume.",
    )
    add_arguments(parser)
    parser.set_defaults(func=command, handler=command)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``python -m anaconda_sim.cli.sweep``: the subcommand on its own; returns the exit code."""
    parser = argparse.ArgumentParser(prog="anaconda-sim sweep", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    stderr = stderr or sys.stderr
    streams = argparse.Namespace(stdout=stdout or sys.stdout)
    try:
        return command(args, streams)
    except (ValueError, TypeError) as error:
        print(f"anaconda-sim: error: {error}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print("anaconda-sim: interrupted (rerun the same command to resume)", file=stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
