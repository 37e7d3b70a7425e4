"""What a kernel call costs besides its kernel: argument types looked up
once per kind of array, and the chunk threads kept in a pool."""

from __future__ import annotations

import os
import signal
import threading

import numba
import numpy as np
import pytest

from anaconda_sim._numba import _POOLS, argument_type, jit, run_chunks

_BASE = np.arange(24, dtype=np.int64).reshape(4, 6)
_READ_ONLY = np.arange(5.0)
_READ_ONLY.flags.writeable = False
_RECORDS = np.zeros(3, dtype=[("a", np.int32), ("b", np.float64)])


@pytest.mark.parametrize("value", [
    _BASE, _BASE.T, _BASE[:, ::2], _BASE[1], _BASE[:, 1], _BASE[:0], np.zeros((0, 3)),
    np.array(3), _READ_ONLY, _READ_ONLY[::2], np.zeros(4, np.bool_), np.zeros(2, np.uint64),
    np.zeros((2, 2, 2), np.float32)[:, :, 0], np.zeros(7, np.int8), _RECORDS,
    np.ma.masked_array([1, 2]), np.uint64(7), 3, 2.5, True, None, (1, 2.0), "text",
], ids=repr)  # fmt: skip
def test_argument_type_is_numba_s_type(value):
    try:
        expected = numba.typeof(value)
    except Exception as error:  # what numba refuses, refused the same way
        with pytest.raises(type(error)):
            argument_type(value)
        return
    assert argument_type(value) == expected
    assert argument_type(value) == expected  # remembered: the same answer again


@jit(cache=False)
def _squares(first, stop, out):
    for i in range(first, stop):
        out[i] = i * i


def _run(n: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.int64)
    run_chunks(_squares, n, out)
    return out


def test_chunks_on_any_number_of_threads_from_any_number_of_callers():
    expected = np.arange(1000, dtype=np.int64) ** 2
    before = numba.get_num_threads()
    try:
        for threads in range(1, before + 1):
            numba.set_num_threads(threads)
            assert np.array_equal(_run(1000), expected)
    finally:
        numba.set_num_threads(before)
    # callers on several threads share the pool: each gets its own rows
    results: list[np.ndarray] = []
    callers = [threading.Thread(target=lambda: results.append(_run(1000))) for _ in range(6)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert len(results) == 6 and all(np.array_equal(r, expected) for r in results)
    # one pool per process and number of threads, not one per call
    assert len([key for key in _POOLS if key[0] == os.getpid()]) <= before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_runs_chunks_on_threads_of_its_own():
    _run(100)  # the parent's pool exists (and its threads do not in the child)
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through its exit code
        signal.alarm(60)  # a chunk waiting on the parent's threads would wait forever
        ok = numba.get_num_threads() < 2 or np.array_equal(_run(100), np.arange(100) ** 2)
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
