"""Running a sweep: the local backend and Dask distributed.

Backends
--------
local (default)
    Units run one after the other in this process; each analysis uses all
    numba threads.
Dask distributed
    ``scheduler="tcp://HOST:PORT"`` connects to a running scheduler;
    ``local_cluster=N`` starts an in-process ``LocalCluster`` of ``N``
    single-threaded worker processes; ``client=`` uses a
    ``distributed.Client`` you made. A task is one whole unit (never one
    deal or one hand), run with one numba thread: the workers are the
    parallelism. Results come back to this process, which writes each
    unit's file as it finishes, so the workers need no access to the folder.

A hand's numbers depend only on the spec and its grid coordinates, so every
backend and worker count gives the same files, byte for byte.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..progress import progress_bar
from .spec import SweepSpec, Unit, load_spec
from .store import FileProblem, SweepStore
from .work import compute_unit

__all__ = ["SweepReport", "compute_sweep", "run_sweep"]


@dataclass(frozen=True)
class SweepReport:
    """What :func:`run_sweep` did.

    ``invalid``: unit files found failing verification (recomputed);
    ``stray``: other files under ``units/`` (ignored).
    """

    folder: Path
    spec_hash: str
    total: int
    resumed: int
    computed: int
    seconds: float
    backend: str
    invalid: tuple[FileProblem, ...] = ()
    stray: tuple[FileProblem, ...] = ()

    def __str__(self) -> str:
        text = (
            f"sweep {self.spec_hash}: {self.total} units ({self.resumed} already done, "
            f"{self.computed} computed) in {self.seconds:.1f} s on {self.backend} -> "
            f"{str(self.folder)!r}"
        )
        if self.invalid:
            text += f"; {len(self.invalid)} invalid unit file(s) recomputed"
        if self.stray:
            text += f"; {len(self.stray)} stray file(s) ignored"
        return text


def _progress_bar(total: int, initial: int, enabled: bool | None) -> Any:
    return progress_bar(total, "sweep", enabled=enabled, unit="unit", initial=initial, delay=0.0,
                        smoothing=0.05, dynamic_ncols=True)  # fmt: skip


def run_sweep(
    spec: SweepSpec | Mapping[str, Any] | str | Path,
    out: str | Path,
    *,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
    progress: bool | None = None,
    echo: Callable[[str], None] | None = None,
) -> SweepReport:
    """Run a sweep into a results folder, resuming what is already done.

    Parameters
    ----------
    spec
        A :class:`SweepSpec`, a mapping of its keys, or a TOML file path.
    out
        The results folder (created if needed). If it holds the same spec,
        finished units are skipped; another spec is refused. Unit files that
        fail verification are recomputed and stray files ignored, each with
        a :class:`~anaconda_sim.sweep.SweepWarning` (see
        :mod:`anaconda_sim.sweep.store`); a second sweep into the folder
        while this one runs is refused, and a lock left by a killed sweep is
        taken over with a warning (:mod:`anaconda_sim.sweep.lock`).
    scheduler, local_cluster, client
        At most one: a Dask scheduler address, a number of local worker
        processes, or a ``distributed.Client``. None of them: local backend.
    progress
        Show a progress bar with an ETA (``None``/``True``; ``False``: no).
    echo
        Called with one-line messages ("resuming: 12 of 40 units already
        done"); ``None``: silent.

    Returns
    -------
    SweepReport

    Examples
    --------
    >>> import tempfile
    >>> from anaconda_sim.sweep import load_results
    >>> tmp = tempfile.TemporaryDirectory()
    >>> folder = tmp.name
    >>> spec = SweepSpec(kind="equity", players=[2, 3], hand_classes=["AA/K", "KQ-high"],
    ...                  deals=200, unit_size=1)
    >>> report = run_sweep(spec, folder, progress=False)
    >>> report.total, report.computed
    (4, 4)
    >>> run_sweep(spec, folder, progress=False, echo=print).computed
    resuming: 4 of 4 units already done
    0
    >>> load_results(folder)[["players", "hand_class", "deals"]].values.tolist()
    [[2, 'KQ-high', 200], [2, 'AA/K', 200], [3, 'KQ-high', 200], [3, 'AA/K', 200]]
    >>> run_sweep(SweepSpec(kind="equity", hand_classes=["AA/K"], deals=300), folder)
    Traceback (most recent call last):
    ...
    anaconda_sim.sweep.errors.SweepError: '...' holds another sweep: spec ... (4 of 4 units
    done), but this spec hashes to ... (changed: players [2, 3] -> [6]; ...); write to a new
    --out folder, or delete '...' to start over
    >>> tmp.cleanup()
    """
    spec = load_spec(spec)
    chosen = [x is not None for x in (scheduler, local_cluster, client)]
    if sum(chosen) > 1:
        raise ValueError("give at most one of scheduler, local_cluster and client")
    if local_cluster is not None and (isinstance(local_cluster, bool) or local_cluster < 1):
        raise ValueError(f"local_cluster={local_cluster!r} must be a number of workers >= 1")
    units = spec.units()
    start = time.perf_counter()
    with SweepStore.open(out, spec, units) as store:
        done = set(store.done())
        pending = [u for u in units if u.index not in done]
        if done and echo is not None:
            echo(f"resuming: {len(done)} of {len(units)} units already done")
        with _progress_bar(len(units), len(done), progress) as bar:
            if not any(chosen):
                backend = "local"
                for unit in pending:
                    store.write_unit(unit.index, compute_unit(spec, unit))
                    bar.update(1)
            else:
                backend = _run_dask(spec, pending, store, bar, scheduler, local_cluster, client)
    return SweepReport(Path(out), spec.spec_hash, len(units), len(done), len(pending),
                       time.perf_counter() - start, backend, store.invalid,
                       store.stray)  # fmt: skip


def _run_dask(
    spec: SweepSpec, pending: list[Unit], store: SweepStore, bar: Any, scheduler: str | None,
    local_cluster: int | None, client: Any,
) -> str:  # fmt: skip
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as error:  # pragma: no cover - distributed is in the extras
        raise ValueError(
            "the Dask backend needs distributed: pip install 'anaconda-sim[distributed]'"
        ) from error
    cluster = None
    own_client = client is None
    try:
        if client is None:
            if local_cluster is not None:
                # no dashboard; the scheduler's HTTP routes on a free port (":0"), so a
                # cluster already on 8787 is no bother
                cluster = LocalCluster(
                    n_workers=int(local_cluster), threads_per_worker=1, processes=True,
                    dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
                    silence_logs=logging.ERROR,
                )  # fmt: skip
                client = Client(cluster)
                where = f"a local cluster of {local_cluster} worker processes"
            else:
                try:
                    client = Client(scheduler, timeout="30s")
                except (OSError, TimeoutError) as error:
                    raise ValueError(
                        f"cannot reach the Dask scheduler at {scheduler!r}: {error}; check the "
                        "address (tcp://HOST:PORT) and that the scheduler is running"
                    ) from None
                where = f"Dask scheduler {scheduler}"
        else:
            where = "the given Dask client"
        _submit_all(client, spec, pending, store, bar, as_completed)
        return where
    finally:
        if own_client and client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def _submit_all(
    client: Any, spec: SweepSpec, pending: list[Unit], store: SweepStore, bar: Any,
    as_completed: Any,
) -> None:  # fmt: skip
    """Keep a window of tasks in flight; write each unit as it comes back."""
    if not pending:
        return
    workers = max(1, sum(client.nthreads().values()))
    window = 2 * workers + 2
    queue = iter(pending)
    remote_spec = client.scatter(spec, broadcast=True)

    def submit(unit: Unit) -> Any:
        return client.submit(compute_unit, remote_spec, unit, 1, key=f"sweep-unit-{unit.index}-"
                             f"{spec.spec_hash}", pure=False)  # fmt: skip

    futures = [submit(u) for _, u in zip(range(window), queue, strict=False)]
    flying = as_completed(futures)
    try:
        for future in flying:
            frame = future.result()
            future.release()
            store.write_unit(int(frame["unit"].iat[0]), frame)
            bar.update(1)
            following = next(queue, None)
            if following is not None:
                futures.append(submit(following))
                flying.add(futures[-1])
    except BaseException:
        client.cancel(futures)
        raise


def compute_sweep(
    spec: SweepSpec | Mapping[str, Any] | str | Path, *, progress: bool | None = False
) -> pd.DataFrame:
    """Run a (small) sweep in memory and return its long table; no files.

    Examples
    --------
    >>> table = compute_sweep({"kind": "pass", "players": 4, "hands": ["Qs Qh 9c 8d 3s 4h 2c"],
    ...                        "deals": 300})
    >>> len(table), table["pass"].iloc[0] in set(table["pass"])
    (35, True)
    """
    spec = load_spec(spec)
    units = spec.units()
    frames = []
    with _progress_bar(len(units), 0, progress) as bar:
        for unit in units:
            frames.append(compute_unit(spec, unit))
            bar.update(1)
    return pd.concat(frames, ignore_index=True)
