"""numba's compiler with two repeated costs removed (anaconda_sim._compile_speed)."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core import inline_closurecall
from numba.core.compiler import Flags

from anaconda_sim._compile_speed import fast_option_values, untyped_ir_once
from anaconda_sim._numba import jit


def _as_ours(func):  # type: ignore[no-untyped-def]
    # the inliner translates the package's kernels once: these stand in for them
    func.__module__ = "anaconda_sim.tests_stand_in"
    return func


def test_option_values_are_numbas_own_dictionary():
    assert fast_option_values() in (True, False)
    flags = Flags()
    assert flags.values() == {name: getattr(flags, name) for name in Flags.options}
    flags.boundscheck = True
    flags.error_model = "numpy"
    values = flags.values()
    assert values == {name: getattr(flags, name) for name in Flags.options}
    assert values["boundscheck"] is True and values["error_model"] == "numpy"
    # equal option sets hash and compare equal, different ones compare unequal
    twin = Flags(copy_from=flags)
    assert twin == flags and hash(twin) == hash(flags)
    twin.boundscheck = False
    assert twin != flags


@jit(inline="always", cache=False)
@_as_ours
def _stepped(x, low, high):
    # branches and a loop: several blocks and variables
    total = x - x
    for i in range(5):
        if i < low:
            total += x
        elif i > high:
            total -= x
        else:
            total += 1
    return total


@jit(inline="always", cache=False)
@_as_ours
def _stepped_twice(x):
    return _stepped(x, 1, 3) + _stepped(x, 2, 2)


@jit(cache=False)
@_as_ours
def _mixed_copies(ints, floats):
    # copies of one translation in one caller, with integer and float
    # arguments: each copy keeps its own variables and its own types
    out = np.empty(ints.size, dtype=np.float64)
    for k in range(ints.size):
        out[k] = _stepped_twice(ints[k]) + _stepped_twice(floats[k]) - _stepped(ints[k], 0, 4)
    return out


def test_copies_of_one_translation_compute_what_python_does(monkeypatch):
    if not untyped_ir_once():
        pytest.skip("this numba's inliner differs: it translates as before")
    translated: list[str] = []
    translate = inline_closurecall.InlineWorker.run_untyped_passes

    def counted(self, func, enable_ssa=False):  # type: ignore[no-untyped-def]
        translated.append(func.__name__)
        return translate(self, func, enable_ssa)

    monkeypatch.setattr(inline_closurecall.InlineWorker, "run_untyped_passes", counted)
    ints = np.arange(-3, 9)
    floats = ints * 0.75
    expected = [
        _stepped_twice.py_func(i) + _stepped_twice.py_func(f) - _stepped.py_func(i, 0, 4)
        for i, f in zip(ints.tolist(), floats.tolist(), strict=True)
    ]  # fmt: skip
    assert _mixed_copies(ints, floats).tolist() == expected
    # seven inlined places, two kernels: each translated once
    assert sorted(translated) == ["_stepped", "_stepped_twice"]
