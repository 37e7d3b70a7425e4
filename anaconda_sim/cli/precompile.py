"""``anaconda-sim compile``: :func:`anaconda_sim.precompile.compile_kernels`
from the command line, one line per entry point."""

from __future__ import annotations

import argparse

from .._numba import cache_folder
from ..precompile import compile_kernels
from .app import Streams

__all__ = ["run_compile"]


def run_compile(args: argparse.Namespace, streams: Streams) -> int:
    """Handler of ``anaconda-sim compile``."""

    def echo(text: str) -> None:
        print(text, file=streams.stdout, flush=True)

    folder = cache_folder()
    # off by ANACONDA_SIM_CACHE=0, or by a folder that cannot be written (warned)
    echo(f"kernel cache: {folder}" if folder is not None else
         "kernel cache: off: compiling for this process only")  # fmt: skip
    table = compile_kernels(args.only, players=args.players, echo=echo)
    echo(f"done in {table['seconds'].sum():.1f} s")
    return 0
