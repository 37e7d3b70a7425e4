"""Sweeps: one analysis over a grid of hands, tables, opponents and seeds, at scale.

A sweep runs :mod:`anaconda_sim.analysis` (``equity``, ``pass_values``,
``discard_values``, ``reveal_values``) for every point of a grid
(:class:`SweepSpec`: kinds x player counts x opponents x stopping rules x
seeds x hands or starting-hand classes) and writes a Parquet dataset, one
file per finished work unit, that can be interrupted at any moment and
resumed (:func:`run_sweep`), on this machine or a Dask cluster, with the
same numbers everywhere. :func:`load_results` reads it back as one long
DataFrame; :func:`sweep_status` tells what is done.

Modules: :mod:`~anaconda_sim.sweep.spec` (grid, validation, seeds),
:mod:`~anaconda_sim.sweep.work` (one unit), :mod:`~anaconda_sim.sweep.store`
(files, manifest, resume, verification), :mod:`~anaconda_sim.sweep.integrity`
(unit records, checksums), :mod:`~anaconda_sim.sweep.lock` (one sweep per
folder), :mod:`~anaconda_sim.sweep.run` (backends).

Examples
--------
>>> import tempfile
>>> spec = SweepSpec(kind="equity", players=[2, 6], hand_classes=["AA/K", "QQ/A F4"],
...                  deals=500, seed=1)
>>> tmp = tempfile.TemporaryDirectory()
>>> folder = tmp.name
>>> run_sweep(spec, folder, progress=False).computed
2
>>> table = load_results(folder)
>>> table[["players", "hand_class", "hand"]].head(2).values.tolist()
[[2, 'QQ/A F4', 'Ac Qd Qc Jc 6c 5d 4d'], [2, 'AA/K', 'Ad Ac Kc Jd 7h 3h 2s']]
>>> print(sweep_status(folder))  # doctest: +NORMALIZE_WHITESPACE
sweep ... in '...': 2 of 2 units done (100%), complete
    kind rules  players   opponents  target_deals  seed  units  done  hands
  equity pagat        2 random-pass           500     1      1     1      2
  equity pagat        6 random-pass           500     1      1     1      2
>>> tmp.cleanup()
"""

from __future__ import annotations

from .errors import SweepError, SweepWarning
from .run import SweepReport, compute_sweep, run_sweep
from .spec import KINDS, Slot, SweepSpec, Unit, derive_seed, load_spec
from .store import FileProblem, SweepStatus, load_results, sweep_status
from .work import COORDINATES, compute_unit, summarize_classes

__all__ = [
    "COORDINATES",
    "KINDS",
    "FileProblem",
    "Slot",
    "SweepError",
    "SweepReport",
    "SweepSpec",
    "SweepStatus",
    "SweepWarning",
    "Unit",
    "compute_sweep",
    "compute_unit",
    "derive_seed",
    "load_results",
    "load_spec",
    "run_sweep",
    "summarize_classes",
    "sweep_status",
]
