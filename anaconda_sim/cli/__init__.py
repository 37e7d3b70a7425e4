"""The ``anaconda-sim`` command: one module per command family.

:mod:`~anaconda_sim.cli.parser` builds the parser without loading the work
(no numba, no pandas, no analyses); :mod:`~anaconda_sim.cli.app` parses and
then loads the one handler the command names: ``play`` in
:mod:`~anaconda_sim.cli.play` (with play at the terminal in
:mod:`~anaconda_sim.cli.terminal`), ``run`` in
:mod:`~anaconda_sim.cli.mainjob`, the analyses in
:mod:`~anaconda_sim.cli.analysis` and sweeps in :mod:`~anaconda_sim.cli.sweep`.
May import everything else; nothing imports it.
"""

from __future__ import annotations

from .app import Streams, main
from .parser import COMMANDS, build_parser

__all__ = ["COMMANDS", "Streams", "build_parser", "main"]
