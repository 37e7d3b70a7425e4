"""The ``anaconda-sim`` command: one module per command family.

:mod:`~anaconda_sim.cli.app` builds the parser and runs a command;
``play`` and ``run`` live there, the analyses in
:mod:`~anaconda_sim.cli.analysis`, sweeps in :mod:`~anaconda_sim.cli.sweep`,
the main job in :mod:`~anaconda_sim.cli.mainjob` and play at the terminal in
:mod:`~anaconda_sim.cli.terminal`. May import everything else; nothing
imports it.
"""

from __future__ import annotations

from .app import COMMANDS, Streams, build_parser, main

__all__ = ["COMMANDS", "Streams", "build_parser", "main"]
