"""numba's IR inliner with one memo per copy (anaconda_sim._inline_copies)."""

from __future__ import annotations

import copy
import inspect

import numpy as np
import pytest
from numba.core import inline_closurecall

from anaconda_sim._inline_copies import _PER_BLOCK, copy_blocks_once
from anaconda_sim._numba import jit


def test_applied_whenever_numba_copies_block_by_block():
    # importing the package applies it; the answer is the same on every call
    applied = copy_blocks_once()
    assert copy_blocks_once() is applied
    method = inline_closurecall.InlineWorker.inline_ir
    assert getattr(method, "copies_blocks_once", False) is applied
    # the change is two lines: the inliner's source as installed has them once
    installed = inspect.getsourcefile(method)
    assert installed is not None and installed.endswith("inline_closurecall.py")
    if applied:
        with open(installed, encoding="utf-8") as handle:
            lines = [line.strip() for line in handle]
        assert lines.count(_PER_BLOCK.splitlines()[1].strip()) == 1


@jit(inline="always", cache=False)
def _clamped_steps(x, low, high):
    # several blocks and variables: branches and a loop
    total = 0
    for i in range(x):
        if i < low:
            total += 1
        elif i > high:
            total += 3
        else:
            total += 2
    return total


@jit(inline="always", cache=False)
def _twice_clamped(x):
    return _clamped_steps(x, 2, 5) + _clamped_steps(x + 1, 1, 4)


@jit(cache=False)
def _inlined_many_times(xs):
    out = np.empty(xs.size, dtype=np.int64)
    for k in range(xs.size):
        # four inlined copies of the same callee in one caller: each gets
        # its own variables (a shared scope copy must not merge them)
        out[k] = _twice_clamped(xs[k]) - _clamped_steps(xs[k], 0, 0) + _twice_clamped(xs[k] + 2)
    return out


def test_inlined_code_computes_what_python_does():
    xs = np.arange(12)
    expected = [
        _twice_clamped.py_func(x) - _clamped_steps.py_func(x, 0, 0) + _twice_clamped.py_func(x + 2)
        for x in range(12)
    ]  # fmt: skip
    # the Python twins call the dispatchers' own Python functions
    assert _inlined_many_times(xs).tolist() == expected


def test_one_memo_copies_the_scope_once_and_apart_from_the_original():
    """What the changed lines do: the blocks of one copy share one new scope
    (as the callee's blocks share theirs); the callee's IR is not touched."""
    from numba.core.compiler import run_frontend

    callee = run_frontend(_clamped_steps.py_func)
    original = {label: block.scope for label, block in callee.blocks.items()}
    memo: dict[int, object] = {}
    blocks = {label: copy.deepcopy(block, memo) for label, block in callee.blocks.items()}
    assert len({id(block.scope) for block in blocks.values()}) == 1
    assert all(blocks[label].scope is not original[label] for label in blocks)
    assert all(callee.blocks[label].scope is original[label] for label in blocks)


@pytest.mark.parametrize("x", [0, 3, 9])
def test_python_twin(x):
    assert _clamped_steps(x, 2, 5) == _clamped_steps.py_func(x, 2, 5)
