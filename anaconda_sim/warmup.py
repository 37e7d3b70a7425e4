"""First calls in seconds: the kernels a call needs, compiled on every core.

A kernel is compiled the first time it is called and kept in the on-disk
cache (:mod:`anaconda_sim._numba`); numba compiles on one core. The deal
kernels are split into phase kernels that compile independently, so a
caller that knows the phases and their argument types hands them to
:func:`compile_on_all_cores`: the ones neither compiled in this process
nor cached are compiled by compile workers, one per other core, and by
this process, straight into the shared cache. The call that follows
then finds every phase in the cache and compiles only its own small
driver. Automatic, with one progress line; nothing to do for the user.

``ANACONDA_SIM_WARMUP=0`` switches the workers off (every kernel is then
compiled in the calling process, as without this module).

The workers (:mod:`anaconda_sim._compile_workers`) are fresh interpreters
that read their rounds from standard input, never forks or
``multiprocessing`` children: those would run the caller's ``__main__``
again in every worker. They are started before the first round when the
cache is empty and kept for the next rounds.
"""

from __future__ import annotations

import functools
import inspect
import os
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from ._compile_workers import Wire, claim, cores, take_workers
from ._numba import CACHE_ENABLED
from .progress import progress_bar

__all__ = [
    "CompileJob", "compile_on_all_cores", "driver_jobs", "linked_driver", "missing_jobs",
    "pointer_parameters",
]

#: one compiled version wanted: ``(dispatcher, argument types, weight)``; the
#: weight (about the seconds it takes) puts the heaviest first
CompileJob = tuple[Any, tuple[Any, ...], float]


def _enabled() -> bool:
    return CACHE_ENABLED and os.environ.get("ANACONDA_SIM_WARMUP", "1").strip() not in {"0", ""}


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


def _kernel_function(value: Any) -> Any:
    """The Python function of a kernel (a numba dispatcher), else ``None``."""
    func = getattr(value, "py_func", None)
    return func if inspect.isfunction(func) else None


@functools.cache
def _reaches(func: Any) -> frozenset[Any]:
    """The Python functions of every kernel that ``func``'s code can call,
    itself excluded, through any depth: the names its code reads, looked up
    in its module's globals, and attributes of a module it reads
    (``D._betting_round``). A superset is harmless: it only orders a round."""
    seen: set[Any] = set()
    todo = [func]
    while todo:
        current = todo.pop()
        code, names = current.__code__, current.__globals__
        read = set(code.co_names)
        modules = [names[n] for n in read if inspect.ismodule(names.get(n))]
        for value in [names.get(n) for n in read] + [getattr(m, n, None) for m in modules
                                                    for n in read]:  # fmt: skip
            callee = _kernel_function(value)
            if callee is not None and callee not in seen and callee is not func:
                seen.add(callee)
                todo.append(callee)
    return frozenset(seen)


def _round_order(jobs: Sequence[CompileJob]) -> list[CompileJob]:
    """The jobs in the order every core walks them (each core takes the next
    one nobody has claimed).

    A kernel comes after every job's kernel it calls: a core that took a
    caller first would compile its callees itself while the other cores
    waited for them. Among the jobs whose callees are all listed, the one
    that starts the longest chain to the end of the round comes first (its
    weight plus the longest chain of the jobs that call it), so the kernels
    that hold up a heavy caller are compiled while the other cores take the
    independent ones; ties in the caller's order.

    Examples
    --------
    >>> from anaconda_sim._numba import jit
    >>> @jit(cache=False)
    ... def inner(x):
    ...     return x + 1
    >>> @jit(cache=False)
    ... def outer(x):
    ...     return inner(x) * 2
    >>> @jit(cache=False)
    ... def apart(x):
    ...     return x
    >>> jobs = [(outer, (), 3.0), (apart, (), 3.5), (inner, (), 1.0)]
    >>> [job[0].py_func.__name__ for job in _round_order(jobs)]
    ['inner', 'apart', 'outer']
    """
    count = len(jobs)
    funcs = [_kernel_function(job[0]) for job in jobs]
    calls = [
        {j for j in range(count) if funcs[i] is not None and funcs[j] is not None
         and funcs[j] is not funcs[i] and funcs[j] in _reaches(funcs[i])}
        for i in range(count)
    ]  # fmt: skip
    chain: dict[int, float] = {}

    def longest(i: int, path: frozenset[int]) -> float:
        if i not in chain:
            callers = [c for c in range(count) if i in calls[c] and c not in path]
            chain[i] = jobs[i][2] + max((longest(c, path | {c}) for c in callers), default=0.0)
        return chain[i]

    order: list[CompileJob] = []
    placed: set[int] = set()
    while len(placed) < count:
        left = [i for i in range(count) if i not in placed]
        ready = [i for i in left if not (calls[i] - placed)] or left  # a ring: any
        pick = max(ready, key=lambda i: (longest(i, frozenset({i})), -i))
        placed.add(pick)
        order.append(jobs[pick])
    return order


def _wire(job: CompileJob) -> Wire:
    dispatcher = job[0]
    return (dispatcher.py_func.__module__, dispatcher.py_func.__name__, job[1])


def compile_on_all_cores(jobs: Sequence[CompileJob], what: str) -> int:
    """Compile the versions of ``jobs`` that are missing, on every core, into
    the cache; returns how many were compiled.

    This process and the compile workers (:mod:`anaconda_sim._compile_workers`:
    started early when the cache is empty, kept between rounds) walk the
    jobs heaviest first, each compiling the ones it claims first. Nothing
    happens (0) when the cache is off, when fewer than two versions are
    missing or when the machine has one core: the call that needs them then
    compiles them itself. A worker that fails costs nothing but time: its
    kernels are compiled by the call, as they would be without workers.
    """
    if not _enabled():
        return 0
    missing = missing_jobs(jobs)
    if len(missing) < 2 or cores() < 2:
        return 0
    order = _round_order(missing)
    wires = [_wire(job) for job in order]
    workers = take_workers(min(cores(), len(order)) - 1)
    with tempfile.TemporaryDirectory(prefix="anaconda-sim-round-") as folder:
        serving = [worker for worker in workers if worker.send(folder, wires)]
        with progress_bar(len(order), f"compiling {what} on {len(serving) + 1} cores",
                          unit="kernel", enabled=None, compiling=True) as bar:  # fmt: skip
            for index, job in enumerate(order):
                if claim(folder, index):
                    job[0].compile(job[1])
                    bar.update(1)
            for worker in serving:
                bar.update(worker.wait())
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
    names = tuple(inspect.signature(driver.py_func).parameters)
    return names[2 + args_count:]


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
        dispatcher.compile(phase_signature)  # loaded from the cache when it is there
        compiled = dispatcher.overloads[tuple(phase_signature)].signature.return_type
        if compiled != pointer.signature.return_type:
            raise TypeError(
                f"phase {name} returns {compiled}, not {pointer.signature.return_type}; "
                "name it in linked_driver's returns"
            )
        values.append(dispatcher)
    entry = driver.compile(signature)
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
    import numba
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
        pointers.append(types.none if job is None else types.FunctionType(returned(*job[1])))
    signature = (types.int64, types.int64, *(numba.typeof(a) for a in args), *pointers)
    return signature, pointers


