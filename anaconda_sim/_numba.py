"""The one place where numba options live.

Every kernel in the package is compiled through :func:`jit` (or
:func:`jit_parallel`), so the cache switch and floating-point flags are
decided here and nowhere else.

On-disk cache
-------------
Compiled kernels are cached on disk so a new process does not pay the
compile time again. numba invalidates a cache entry only when the file that
defines the function changes, not when a helper it calls in another file
does. To make a stale cache impossible, the cache lives in a folder named
after a hash of every source file a kernel can reach (all of the package but
the pure-Python parts no kernel module imports, :data:`OUTSIDE_KERNELS`): any
change to kernel code gives a new, empty folder. Inside it a kernel is found
by its file's place in the package and its content, never by a path or a
time: a fresh clone in another folder or a second environment with the same
sources uses the same entries.

Environment variables
---------------------
``ANACONDA_SIM_CACHE=0``
    Switch the on-disk cache off (for read-only installs or debugging).
``ANACONDA_SIM_CACHE_DIR``
    Parent folder of the cache (default: ``~/.cache/anaconda_sim``).
``NUMBA_CACHE_DIR``
    If the user set numba's own variable, numba's choice is respected.

A cache that cannot break the library
-------------------------------------
A truncated, corrupt or foreign cache entry is dropped and its kernel
recompiled; a cache folder that cannot be written is not used (kernels are
compiled in memory). Either way one :class:`CacheWarning` says so, once per
process. Nothing is ever written inside the installed package.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import tempfile
import threading
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import numba
import numpy as np
from numba.core import caching, sigutils
from numba.core.caching import CompileResultCacheImpl, FunctionCache
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher
from numba.core.types import unliteral  # type: ignore[attr-defined]
from numba.extending import intrinsic

from ._compile_speed import STANDALONE, call_types_once, standalone_linked_late, untyped_ir_once
from ._inline_copies import copy_blocks_once
from .progress import watch_compiles

__all__ = [
    "CACHE_ENABLED", "CacheWarning", "argument_type", "borrow", "cache_folder", "jit",
    "jit_parallel", "keep", "run_chunks", "source_hash",
]  # fmt: skip


class CacheWarning(UserWarning):
    """The on-disk kernel cache was unusable; the library compiled instead."""


_WARNED: set[str] = set()


def _warn_once(kind: str, message: str) -> None:
    if kind not in _WARNED:
        _WARNED.add(kind)
        warnings.warn(message, CacheWarning, stacklevel=3)

_PACKAGE_DIR = Path(__file__).resolve().parent


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in {"0", "false", "no", "off", ""}


#: the parts of the package no kernel can reach: pure Python that no module
#: defining a kernel imports, directly or through another module (checked by
#: ``tests/test_cache.py`` over the import graph). Editing them keeps the
#: compiled kernels, so work on the shell, the tables or the analyses' Python
#: does not pay the compiler again.
OUTSIDE_KERNELS = frozenset({
    "__main__.py", "analysis", "cli", "errors.py", "game", "learning", "output", "precompile.py",
    "spots", "sweep",
})  # fmt: skip


def _hashed_sources() -> list[Path]:
    """The source files a kernel can depend on, in a fixed order."""
    return [
        path
        for path in sorted(_PACKAGE_DIR.rglob("*.py"))
        if path.relative_to(_PACKAGE_DIR).parts[0] not in OUTSIDE_KERNELS
    ]


@functools.lru_cache(maxsize=1)
def source_hash() -> str:
    """Hash of every ``.py`` file of the package a kernel can depend on, and
    numba's version (16 hex digits)."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in _hashed_sources():
        digest.update(str(path.relative_to(_PACKAGE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path | None:
    """The folder holding compiled kernels, or ``None`` when caching is off."""
    if not CACHE_ENABLED:
        return None
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    parent = os.environ.get("ANACONDA_SIM_CACHE_DIR") or Path.home() / ".cache" / "anaconda_sim"
    return Path(parent) / source_hash()


def _prepare_cache() -> bool:
    if not _env_flag("ANACONDA_SIM_CACHE", True):
        return False
    # numba's own variable is checked like ours: numba would otherwise fall
    # back to __pycache__ beside the sources, inside the installed package
    folder = Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else (
        Path(os.environ.get("ANACONDA_SIM_CACHE_DIR") or Path.home() / ".cache" / "anaconda_sim")
        / source_hash()
    )  # fmt: skip
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        # A read-only home must not break the library: compile in memory only.
        reason = error.strerror or error
        _warn_once(
            "unwritable",
            f"the kernel cache folder {str(folder)!r} cannot be written ({reason}); compiling "
            "in memory (set ANACONDA_SIM_CACHE_DIR to a writable folder, or ANACONDA_SIM_CACHE=0)",
        )
        return False
    # numba reads CACHE_DIR each time it locates a cache, so setting it here
    # (before any kernel of ours is compiled) points our kernels at the folder.
    numba.config.CACHE_DIR = str(folder)
    return True


CACHE_ENABLED: bool = _prepare_cache()

# fastmath stays off: kernels are integer code, and float reductions must give
# the same bits on every thread count.
_OPTIONS = {"nogil": True, "cache": CACHE_ENABLED, "error_model": "numpy"}


@functools.cache
def _file_digest(path: str, mtime_ns: int, size: int) -> str:
    # keyed on the file's time and size only so that an edited file is read again
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class _PackageLocator(caching._CacheLocator):  # type: ignore[misc]
    """Where a kernel of this package is cached: by its file's place *inside*
    the package, stamped with the file's content.

    numba's own locator names a kernel's cache after the absolute path of
    its file and (before numba 0.68) stamps it with the file's modification
    time, so a second checkout of the same sources, a second environment or
    CI's clone in another folder finds nothing and compiles everything
    again. Here the folder is ``<cache folder>/anaconda_sim/<package
    subfolder>`` and the stamp is the file's SHA-256: any installation of
    the same sources on this machine finds the same entries. A stale entry
    stays impossible: the cache folder itself is named after a hash of every
    source file and numba's version (:func:`source_hash`), and numba's index
    key holds the signature, the processor and the function's bytecode.
    """

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        inside = Path(py_file).resolve().relative_to(_PACKAGE_DIR)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, "anaconda_sim",
                                        *inside.parent.parts)  # fmt: skip

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        stat = os.stat(self._py_file)
        return _file_digest(self._py_file, stat.st_mtime_ns, stat.st_size)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _PackageLocator | None:
        if not numba.config.CACHE_DIR or not os.path.exists(py_file):
            return None
        try:
            Path(py_file).resolve().relative_to(_PACKAGE_DIR)
        except ValueError:  # a kernel outside the package (a test's, a notebook's)
            return None
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator


class _FolderOnlyCacheImpl(CompileResultCacheImpl):  # type: ignore[misc]
    """numba's cache of compile results, located in the cache folder only.

    numba tries its locators in turn: the folder of ``numba.config.CACHE_DIR``
    and, when that cannot be written, ``__pycache__`` beside the source file,
    which for an installed library is inside the package. Ours has the cache
    folder alone: a kernel whose folder cannot be written is not cached. The
    package's own kernels are found by their place in the package
    (:class:`_PackageLocator`), others (a test's) by numba's locator.
    """

    # named without the underscore since numba 0.62
    _locator_classes: ClassVar[list[Any]] = [
        _PackageLocator,
        getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator,
    ]


class _SafeFunctionCache(FunctionCache):  # type: ignore[misc]
    """numba's per-function cache, made unable to fail: an entry that cannot be
    read is dropped (the kernel is recompiled and saved again), an entry that
    cannot be saved is skipped. It is kept in the cache folder, never beside
    the sources (:class:`_FolderOnlyCacheImpl`)."""

    _impl_class = _FolderOnlyCacheImpl

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            return super().load_overload(sig, target_context)
        except Exception as error:  # truncated, corrupt or foreign files: any error at all
            _warn_once(
                "corrupt",
                f"a compiled-kernel cache entry in {self.cache_path!r} could not be read "
                f"({type(error).__name__}: {error}); dropped and recompiled",
            )
            try:
                self.flush()  # an empty index: the next save starts clean
            except Exception:
                self.disable()
            return None

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            super().save_overload(sig, data)
        except Exception as error:
            _warn_once(
                "unsaved",
                f"a compiled kernel could not be cached in {self.cache_path!r} "
                f"({type(error).__name__}: {error}); it stays compiled in memory",
            )
            self.disable()


def _typed_without_literals(dispatcher: Any) -> None:
    """Make calls from other kernels compile ``dispatcher`` for plain types only.

    numba compiles a separate specialisation of a called kernel for every
    constant argument it sees (``f(0, ...)`` gives ``f(Literal[int](0), ...)``
    next to ``f(int64, ...)``), which doubled the compile time of the deal
    kernels' betting rounds and passes and gained nothing: no kernel of the
    package asks for literal values.
    """
    typed = dispatcher.get_call_template

    def get_call_template(args: Any, kws: Any) -> Any:
        return typed(tuple(unliteral(a) for a in args),
                     {k: unliteral(v) for k, v in kws.items()})  # fmt: skip

    dispatcher.get_call_template = get_call_template


@contextlib.contextmanager
def _file_lock(path: str) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (made if missing); nothing where
    locking is not available."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: concurrent processes may compile twice
        yield
        return
    try:
        handle = open(path, "a+b")
    except OSError:  # an unwritable folder: the cache is not used anyway
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # releases the lock


def _compiled_once_per_machine(dispatcher: Any) -> None:
    """Make ``dispatcher`` compile each version at most once on this machine,
    however many processes want it at the same time.

    Test workers, the compile workers of :mod:`anaconda_sim.warmup` and Dask
    workers all start with the same empty cache. Before compiling a version
    missing from the cache, a process takes an exclusive lock on the kernel's
    entry in the cache folder; one that waited finds the version cached when
    it gets the lock, and loads it. The lock is taken inside numba's own
    compiler lock (one compile at a time in a process), and a kernel's
    compile waits only for the kernels it calls, so two processes cannot
    wait for each other.
    """
    compile_ = dispatcher.compile
    cache = dispatcher._cache
    lock_path = os.path.join(cache._cache_path, cache._impl.filename_base + ".lock")

    def compile(sig: Any) -> Any:
        with global_compiler_lock:
            args, _ = sigutils.normalize_signature(sig)
            if tuple(args) in dispatcher.overloads:
                return compile_(sig)
            with _file_lock(lock_path):
                return compile_(sig)

    dispatcher.compile = compile


def _compile_lazily(options: dict[str, Any], func: Any) -> Any:
    # numba's own cache=True would build a FunctionCache only for it to be
    # replaced: the safe cache is the only one made
    options = dict(options)
    _standalone(options, func)
    cache = options.pop("cache", False)
    dispatcher = numba.njit(**options)(func)
    if isinstance(dispatcher, Dispatcher):  # not NUMBA_DISABLE_JIT
        _typed_without_literals(dispatcher)
        if cache:
            try:
                safe = _SafeFunctionCache(dispatcher.py_func)
            except RuntimeError as error:  # no locator: the folder went unwritable
                _warn_once("unwritable", f"a kernel is compiled in memory only ({error})")
            else:
                dispatcher._cache = safe  # type: ignore[attr-defined]
                _compiled_once_per_machine(dispatcher)
    return dispatcher


def jit(func=None, **overrides):
    """``numba.njit`` with the package defaults (lazy: compiles on first call).

    Examples
    --------
    >>> from anaconda_sim._numba import jit
    >>> @jit(cache=False)  # functions typed at a prompt have no file to cache in
    ... def twice(x):
    ...     return 2 * x
    >>> twice(21)
    42
    """
    options = {**_OPTIONS, **overrides}
    if func is None:
        return lambda f: _compile_lazily(options, f)
    return _compile_lazily(options, func)


def _standalone(options: dict[str, Any], func: Any) -> None:
    """Register ``func`` as standalone when ``options`` say so (removing
    the option numba does not know)."""
    if options.pop("standalone", False):
        STANDALONE.add(func.__qualname__)


def jit_parallel(func=None, **overrides):
    """Like :func:`jit` with ``parallel=True`` for ``prange`` kernels."""
    return jit(func, parallel=True, **overrides)


def run_chunks(kernel: Any, n_chunks: int, *args: Any) -> None:
    """Call ``kernel(first, stop, *args)`` on chunks ``0 .. n_chunks - 1``,
    split into contiguous ranges over ``numba.get_num_threads()`` threads.

    The deal kernels run their chunks this way rather than with ``prange``:
    a ``parallel=True`` kernel holding a whole deal took 10-20 s longer to
    compile than the same kernel without it, and the kernels release the GIL
    (``nogil``), so plain threads run them in parallel. Every chunk writes
    its own rows of the outputs, so the result does not depend on how the
    chunks are split.

    Examples
    --------
    >>> import numpy as np
    >>> @jit(cache=False)
    ... def squares(first, stop, out):
    ...     for i in range(first, stop):
    ...         out[i] = i * i
    >>> out = np.zeros(5, dtype=np.int64)
    >>> run_chunks(squares, 5, out)
    >>> out.tolist()
    [0, 1, 4, 9, 16]
    """
    threads = max(1, min(numba.get_num_threads(), n_chunks))
    if threads == 1:
        kernel(0, n_chunks, *args)
        return
    bounds = [n_chunks * t // threads for t in range(threads + 1)]
    pool = _thread_pool(threads)
    futures = [pool.submit(kernel, lo, hi, *args) for lo, hi in itertools.pairwise(bounds)]
    for future in futures:
        future.result()


_POOLS: dict[tuple[int, int], ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _thread_pool(threads: int) -> ThreadPoolExecutor:
    """The process's pool of ``threads`` threads for :func:`run_chunks`, made
    on first use and kept: threads started anew for every call were a
    large part of a small call's own cost (a spot's draws, a few thousand
    deals). A chunk never waits for another task, so callers on several
    threads can share a pool. Keyed by the process too: a forked child
    starts pools of its own (its parent's threads do not exist there)."""
    key = (os.getpid(), threads)
    pool = _POOLS.get(key)
    if pool is None:
        with _POOLS_LOCK:
            pool = _POOLS.get(key)
            if pool is None:
                pool = _POOLS[key] = ThreadPoolExecutor(
                    max_workers=threads, thread_name_prefix="anaconda-sim-chunks")
    return pool


#: numba's type of each kind of plain array met, by what the type is made of
_ARRAY_TYPES: dict[tuple[Any, ...], Any] = {}


def argument_type(value: Any) -> Any:
    """``numba.typeof(value)``, remembered for plain arrays.

    The drivers' signatures are built from their arguments on every call
    (:func:`~anaconda_sim.warmup.linked_driver`), and numba's ``typeof``
    builds an array's type anew each time: tens of microseconds, most of a
    small spot call's own cost when it takes fifty arrays. An array's type is
    made of its dtype, its dimensions, its layout (C, F or any) and whether
    it is read-only, so one type per such key is the type numba would give.

    Examples
    --------
    >>> a = np.zeros((2, 3))
    >>> argument_type(a) == numba.typeof(a), argument_type(a.T) == numba.typeof(a.T)
    (True, True)
    >>> print(argument_type(a[:, ::2]), argument_type(np.uint64(1)))
    array(float64, 2d, A) uint64
    """
    if type(value) is not np.ndarray:  # subclasses (masked arrays) as numba sees them
        return numba.typeof(value)
    flags = value.flags
    key = (value.dtype, value.ndim, flags.c_contiguous, flags.f_contiguous, flags.writeable)
    found = _ARRAY_TYPES.get(key)
    if found is None:
        found = _ARRAY_TYPES[key] = numba.typeof(value)
    return found


@intrinsic
def borrow(typingctx, arr):
    """A view of ``arr`` without a reference count (meminfo ``NULL``).

    Every array passed to a compiled function that is not inlined costs an
    atomic increment and decrement of its reference count; on the hot path
    (a few hundred calls per deal) that was most of the run time. Views of a
    borrowed array are not counted either. The caller keeps the original
    array alive for as long as the borrowed view is used (see :func:`keep`).
    """

    def codegen(context, builder, sig, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        dst = context.make_array(arr)(context, builder)
        context.populate_array(
            dst, data=src.data, shape=src.shape, strides=src.strides,
            itemsize=src.itemsize, meminfo=None, parent=None,
        )  # fmt: skip
        return dst._getvalue()

    return arr(arr), codegen


@jit
def keep(a, b, c, d, e, f):
    """A use of six arrays: they are not released before this point (see :func:`borrow`)."""
    return a.size + b.size + c.size + d.size + e.size + f.size


# numba's IR inliner copies a callee's blocks in linear time and translates
# each inlined kernel once, and a call's types are resolved once per
# argument types (all before any compile)
copy_blocks_once()
untyped_ir_once()
call_types_once()
standalone_linked_late()
# a first call that compiles shows it on the progress line (a terminal only)
watch_compiles()
