"""First calls in seconds: the kernels a call needs, compiled on every core.

A kernel is compiled the first time it is called and kept in the on-disk
cache (:mod:`anaconda_sim._numba`); numba compiles on one core. The deal
kernels are split into phase kernels that compile independently, so a
caller that knows the phases and their argument types hands them to
:func:`compile_on_all_cores`: the ones neither compiled in this process
nor cached are compiled in worker processes, one per core, and in this
process, straight into the shared cache. Every process takes the heaviest
job no process has claimed yet, when it is free (a claim is a file made
with ``O_EXCL`` in a folder of the round), so the cores share the work as
it turns out to cost, not as it was weighed. The call that follows then
finds every phase in the cache and compiles only its own small driver.
Automatic, with one progress line; nothing to do for the user.

``ANACONDA_SIM_WARMUP=0`` switches the workers off (every kernel is then
compiled in the calling process, as without this module).

Workers are fresh interpreters (``python -m anaconda_sim.warmup``) that read
their jobs from standard input, never forks or ``multiprocessing`` children:
those would run the caller's ``__main__`` again in every worker.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from ._numba import CACHE_ENABLED, argument_type
from .progress import progress_bar

__all__ = [
    "CompileJob", "compile_on_all_cores", "driver_jobs", "linked_driver", "missing_jobs",
    "pointer_parameters",
]

#: one compiled version wanted: ``(dispatcher, argument types, weight)``; the
#: weight (about the seconds it takes) spreads the jobs evenly over the cores
CompileJob = tuple[Any, tuple[Any, ...], float]

#: a job of the workers' standard input: ``(module, function name, argument types)``
_Wire = tuple[str, str, tuple[Any, ...]]


def _enabled() -> bool:
    return CACHE_ENABLED and os.environ.get("ANACONDA_SIM_WARMUP", "1").strip() not in {"0", ""}


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _loaded(dispatcher: Any, signature: tuple[Any, ...]) -> bool:
    """Whether ``dispatcher`` has ``signature`` compiled here or in the cache
    (a cached version is loaded, as numba's own first call would)."""
    if signature in dispatcher.overloads:
        return True
    cache = getattr(dispatcher, "_cache", None)
    if cache is None:
        return False
    try:
        cres = cache.load_overload(signature, dispatcher.targetctx)
    except Exception:  # an unreadable entry: let the call compile it
        return False
    if cres is None:
        return False
    dispatcher.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
    dispatcher.add_overload(cres)
    return True


def missing_jobs(jobs: Sequence[CompileJob]) -> list[CompileJob]:
    """The jobs whose version is neither compiled in this process nor cached."""
    return [job for job in jobs if not _loaded(job[0], job[1])]


def _claim_order(jobs: Sequence[CompileJob]) -> list[CompileJob]:
    """The jobs in the order processes claim them: the heaviest first, so
    that the last ones claimed are short and the cores finish together."""
    return sorted(jobs, key=lambda job: -job[2])


def _wire(job: CompileJob) -> _Wire:
    dispatcher = job[0]
    return (dispatcher.py_func.__module__, dispatcher.py_func.__name__, job[1])


def _claim(claims: str, index: int) -> bool:
    """Claim job ``index`` of a round whose claims are files in ``claims``:
    True for the one process that creates its file."""
    try:
        os.close(os.open(os.path.join(claims, str(index)), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _compile_claimed(claims: str, jobs: Sequence[Any], done: Any = None) -> int:
    """Compile, in order, every job of ``jobs`` (``(dispatcher, signature)``
    pairs) this process claims; ``done()`` after each. Returns how many."""
    compiled = 0
    for index, (dispatcher, signature) in enumerate(jobs):
        if _claim(claims, index):
            dispatcher.compile(signature)
            compiled += 1
            if done is not None:
                done()
    return compiled


def compile_on_all_cores(jobs: Sequence[CompileJob], what: str) -> int:
    """Compile the versions of ``jobs`` that are missing, on every core, into
    the cache; returns how many were compiled.

    Nothing happens (0) when the cache is off, when fewer than two versions
    are missing or when the machine has one core: the call that needs them
    then compiles them itself. A worker that fails costs nothing but time:
    the jobs it claimed are compiled by the call, as they would be without
    workers.
    """
    if not _enabled():
        return 0
    missing = missing_jobs(jobs)
    cores = _cores()
    if len(missing) < 2 or cores < 2:
        return 0
    ordered = _claim_order(missing)
    processes = min(cores, len(ordered))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.setdefault("NUMBA_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory(prefix="anaconda-sim-claims-") as claims:
        payload = pickle.dumps((claims, [_wire(job) for job in ordered]))
        workers = []
        for _ in range(processes - 1):
            worker = subprocess.Popen(
                [sys.executable, "-m", "anaconda_sim.warmup"], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
            )  # fmt: skip
            assert worker.stdin is not None
            worker.stdin.write(payload)
            worker.stdin.close()
            workers.append(worker)
        with progress_bar(len(ordered), f"compiling {what} on {processes} cores",
                          unit="kernel", enabled=None, compiling=True) as bar:  # fmt: skip
            mine = _compile_claimed(claims, [(job[0], job[1]) for job in ordered],
                                    lambda: bar.update(1))  # fmt: skip
            for worker in workers:
                worker.wait()
            bar.update(len(ordered) - mine)
    # what the workers cached is loaded here now (what they failed to
    # compile is compiled by the call)
    missing_jobs(missing)
    return len(missing)


#: rough compile seconds of a driver whose phases are function pointers
DRIVER_WEIGHT = 1.0


def pointer_parameters(driver: Any, args_count: int) -> tuple[str, ...]:
    """The names of ``driver``'s function-pointer parameters: those after its
    two chunk bounds and its ``args_count`` arguments, each named after the
    kernel it takes (:func:`linked_driver`)."""
    return _parameter_names(driver.py_func)[2 + args_count:]


@functools.cache
def _parameter_names(function: Any) -> tuple[str, ...]:
    # read once per kernel: a driver's signature is built on every call
    return tuple(inspect.signature(function).parameters)


@functools.cache
def _pointer_type(returned: Any, signature: tuple[Any, ...]) -> Any:
    """The type of a pointer to a kernel compiled for ``signature``."""
    from numba import types

    return types.FunctionType(returned(*signature))


def linked_driver(
    driver: Any, args: Sequence[Any], phases: Sequence[CompileJob], what: str,
    returns: Mapping[str, Any] | None = None, also: Sequence[CompileJob] = (),
) -> tuple[Any, tuple[Any, ...]]:  # fmt: skip
    """A driver kernel compiled with its phase kernels as function pointers.

    ``driver(first, stop, *args, *pointers)`` calls each phase through a
    parameter typed ``types.FunctionType`` (the phase's signature), not by
    name: numba then links none of the phases' code into the driver's module
    and does not optimise it again there, which was most of a driver's
    compile time (about 12 s for the deal driver). Each phase is compiled
    once, on its own, and cached; the driver is small and cached too, under
    a signature that names only types, never a function.

    The pointer parameters (:func:`pointer_parameters`) are named after the
    kernels they take: each gets the job of ``phases`` whose function has its
    name, or ``None`` when there is none (a phase the driver skips for these
    argument types). Its typing needs only the phases' signatures, so the
    driver compiles beside the phases, on every core, not after them.
    ``returns``: the return type of each phase that returns something, by
    name (a phase returns nothing by default); a phase whose compiled return
    type differs is an error. ``also``: more jobs compiled beside them, not
    pointers (kernels the phases call, listed so another core compiles them
    while a phase is typed: :func:`~anaconda_sim.strategies.dispatch.decision_jobs`).

    Returns the driver's compiled entry point for ``(int64, int64, *args,
    *pointers)`` and the arguments that follow ``first, stop`` in a call:
    ``args``, then each pointer parameter's dispatcher or ``None``.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import types
    >>> from anaconda_sim._numba import jit
    >>> @jit(cache=False)
    ... def double(i, out):
    ...     out[i] *= 2
    >>> @jit(cache=False)
    ... def each(first, stop, out, double):
    ...     for i in range(first, stop):
    ...         double(i, out)
    >>> job = (double, (types.int64, types.Array(types.int64, 1, "C")), 1.0)
    >>> entry, rest = linked_driver(each, (np.arange(4),), [job], "an example")
    >>> out = np.arange(4)
    >>> entry(1, 3, out, *rest[1:])
    >>> out.tolist()
    [0, 2, 4, 3]
    >>> linked_driver(each, (np.arange(4),), [(each, (), 1.0)], "an example")
    Traceback (most recent call last):
    ...
    ValueError: each takes no pointer named ['each']
    """
    signature, pointers = _driver_signature(driver, args, phases, returns or {})
    compile_on_all_cores([*phases, *also, (driver, signature, DRIVER_WEIGHT)], what)
    by_name = {job[0].py_func.__name__: job for job in phases}
    slots = pointer_parameters(driver, len(args))
    values: list[Any] = []
    for name, pointer in zip(slots, pointers, strict=True):
        job = by_name.get(name)
        if job is None:
            values.append(None)
            continue
        dispatcher, phase_signature, _ = job
        if tuple(phase_signature) not in dispatcher.overloads:
            dispatcher.compile(phase_signature)  # loaded from the cache when it is there
        compiled = dispatcher.overloads[tuple(phase_signature)].signature.return_type
        if compiled != pointer.signature.return_type:
            raise TypeError(
                f"phase {name} returns {compiled}, not {pointer.signature.return_type}; "
                "name it in linked_driver's returns"
            )
        values.append(dispatcher)
    overload = driver.overloads.get(signature)  # compiled before: no compile call
    entry = overload.entry_point if overload is not None else driver.compile(signature)
    return entry, (*args, *values)


def driver_jobs(
    driver: Any, args: Sequence[Any], phases: Sequence[CompileJob],
    returns: Mapping[str, Any] | None = None, weight: float = DRIVER_WEIGHT,
) -> list[CompileJob]:  # fmt: skip
    """What :func:`linked_driver` compiles for the same arguments, as jobs: the
    phases and the driver (typed with its phases as pointers). For a caller
    that compiles several drivers' kernels in one round of
    :func:`compile_on_all_cores` before the first of them runs; ``weight``:
    the driver's rough compile seconds.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import types
    >>> from anaconda_sim._numba import jit
    >>> @jit(cache=False)
    ... def double(i, out):
    ...     out[i] *= 2
    >>> @jit(cache=False)
    ... def each(first, stop, out, double):
    ...     for i in range(first, stop):
    ...         double(i, out)
    >>> job = (double, (types.int64, types.Array(types.int64, 1, "C")), 1.0)
    >>> [j[0].py_func.__name__ for j in driver_jobs(each, (np.arange(4),), [job])]
    ['double', 'each']
    """
    signature, _ = _driver_signature(driver, args, phases, returns or {})
    return [*phases, (driver, signature, weight)]


def _driver_signature(
    driver: Any, args: Sequence[Any], phases: Sequence[CompileJob], returns: Mapping[str, Any],
) -> tuple[tuple[Any, ...], list[Any]]:  # fmt: skip
    """``driver``'s signature for ``(first, stop, *args, *pointers)`` and its
    pointer parameters' types (:func:`linked_driver`)."""
    from numba import types

    by_name = {job[0].py_func.__name__: job for job in phases}
    slots = pointer_parameters(driver, len(args))
    unknown = set(by_name) - set(slots)
    if unknown:
        raise ValueError(f"{driver.py_func.__name__} takes no pointer named {sorted(unknown)}")
    pointers: list[Any] = []
    for name in slots:
        job = by_name.get(name)
        returned = returns.get(name, types.none)
        pointers.append(types.none if job is None else _pointer_type(returned, tuple(job[1])))
    signature = (types.int64, types.int64, *(argument_type(a) for a in args), *pointers)
    return signature, pointers


def _main() -> None:  # pragma: no cover - runs in the worker processes
    claims, wire = pickle.loads(sys.stdin.buffer.read())
    jobs = [(getattr(importlib.import_module(module), name), signature)
            for module, name, signature in wire]  # fmt: skip
    _compile_claimed(claims, jobs)


if __name__ == "__main__":  # pragma: no cover
    _main()
