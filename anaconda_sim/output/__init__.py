"""Result tables (text and files) and charts.

:mod:`~anaconda_sim.output.tables` formats and writes tables;
:mod:`~anaconda_sim.output.plots` draws the analyses' charts (matplotlib is
imported on first use). May import: :mod:`anaconda_sim.cards`,
:mod:`anaconda_sim.stats`; never the kernels.
"""

from __future__ import annotations

from .tables import TABLE_FORMATS, format_table, read_table, write_table

__all__ = ["TABLE_FORMATS", "format_table", "read_table", "write_table"]
