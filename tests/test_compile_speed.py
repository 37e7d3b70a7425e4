"""numba's typing of calls remembered per argument types, and each inlined
kernel translated once (anaconda_sim._compile_speed)."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from numba.core import inline_closurecall
from numba.core.types import functions
from numba.extending import overload

from anaconda_sim import _compile_speed
from anaconda_sim._compile_speed import call_types_once, remembered_call_types, untyped_ir_once
from anaconda_sim._numba import jit

APPLIED = call_types_once()


def _typing_key(answer_key):  # type: ignore[no-untyped-def]
    # the Python function a remembered answer is for
    return getattr(answer_key[0], "typing_key", None)


def test_applied_to_the_numba_it_was_checked_against():
    # importing the package applies it; the answer is the same on every call
    assert call_types_once() is APPLIED
    assert APPLIED is numba.__version__.startswith(_compile_speed._CHECKED_NUMBA)
    patched = functions.BaseFunction.get_call_type.__code__.co_filename
    assert patched.endswith("_compile_speed.py") is APPLIED


@jit(inline="always", cache=False)
def _mixed(i, x):
    # integers and floats of several widths, builtins, math and tuples
    a = np.int32(i) + np.int64(3) * i - (i >> 1)
    b = min(x, 2.5) + max(i, 1) / 3 + math.sqrt(abs(x) + 1.0)
    t = (a, b, i & 7)
    return t[0] * 2 + t[2] - b + float(a % 5)


@jit(cache=False)
def _many_call_sites(xs):
    out = np.empty(xs.size, dtype=np.float64)
    total = np.zeros(1, dtype=np.float64)
    for k in range(xs.size):
        # the same calls at many sites, with the same and with other types
        out[k] = _mixed(k, xs[k]) + _mixed(np.int64(k + 1), xs[k] * 2) - _mixed(k, 0.5)
        total[0] += out[k]
    return out, total[0]


def test_kernels_with_remembered_call_types_compute_what_python_does():
    xs = np.linspace(-3.0, 7.0, 41)
    out, total = _many_call_sites(xs)
    expected = [_mixed.py_func(k, x) + _mixed.py_func(k + 1, x * 2) - _mixed.py_func(k, 0.5)
                for k, x in enumerate(xs.tolist())]  # fmt: skip
    np.testing.assert_allclose(out, expected, rtol=1e-15, atol=1e-12)
    assert total == pytest.approx(sum(expected), rel=1e-12)
    if APPLIED:
        assert remembered_call_types() > 0


def _plain_sum(x):  # pragma: no cover - replaced by its overload in kernels
    return x.sum()


@jit(cache=False)
def _sums_exactly(values):
    return np.sum(values) + np.sum(values[1:])


@numba.njit(cache=False, fastmath=True)
def _sums_fast(values):
    return np.sum(values) + np.sum(values[1:])


def test_each_set_of_compile_flags_keeps_its_own_implementation():
    # np.sum is an @overload: numba compiles its implementation with the
    # caller's flags, so the answer for float64 arrays is remembered once
    # per set of flags, each with its own implementation
    values = np.arange(1.0, 9.0)
    assert _sums_exactly(values) == _sums_fast(values) == 36.0 + 35.0
    if not APPLIED:
        pytest.skip("this numba is left as it is")
    sums = [(key, answer) for key, answer in _compile_speed._answers.items()
            if _typing_key(key) is np.sum and key[3] == (numba.typeof(values),)]  # fmt: skip
    flag_sets = {key[-1] for key, _ in sums}
    assert len(flag_sets) >= 2
    # the implementation each set of flags chose is the one it compiled
    assert len({id(answer[1]) for _, answer in sums}) == len(sums)


def _doubled(x):  # pragma: no cover - replaced by its overload in kernels
    return 2 * x


@overload(_doubled, inline="always")
def _doubled_inlined(x):
    def impl(x):
        return x + x

    return impl


@jit(cache=False)
def _calls_an_inlined_overload(x):
    return _doubled(x) + _doubled(x + 1)


def test_an_overload_inlined_as_ir_is_searched_at_every_call():
    # numba's search records the IR to inline per call: never remembered
    assert _calls_an_inlined_overload(4) == 18
    if APPLIED:
        assert not any(_typing_key(key) is _doubled for key in _compile_speed._answers)


UNTYPED_ONCE = untyped_ir_once()


def _as_ours(func):  # type: ignore[no-untyped-def]
    # the inliner translates the package's kernels once: these stand in for them
    func.__module__ = "anaconda_sim.tests_stand_in"
    return func


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
    assert untyped_ir_once() is UNTYPED_ONCE
    if not UNTYPED_ONCE:
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


@jit(inline="always", cache=False)
@_as_ours
def _stepped_thrice(x):
    return _stepped(x, 0, 2) + _stepped(x, 1, 1) + _stepped(x + 1, 3, 4)


@jit(cache=False)
@_as_ours
def _unkept_copies(xs):
    out = np.empty(xs.size, dtype=np.int64)
    for k in range(xs.size):
        out[k] = _stepped_thrice(xs[k]) - _stepped(xs[k], 2, 3)
    return out


def test_the_package_inliner_makes_no_copy_nobody_reads(monkeypatch):
    """The package's kernels are inlined by numba's inliner without the
    unchanged copy of the callee that ``inline_ir`` returns first and numba's
    pass discards (anaconda_sim._inline_copies): the inlined code is the same."""
    from anaconda_sim._inline_copies import UNKEPT

    unkept = getattr(inline_closurecall.InlineWorker, UNKEPT, None)
    if not (UNTYPED_ONCE and unkept is not None):
        pytest.skip("this numba's inliner differs: it inlines as before")
    returned: list[object] = []

    def counted(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        result = unkept(self, *args, **kwargs)
        returned.append(result[0])
        return result

    monkeypatch.setattr(inline_closurecall.InlineWorker, UNKEPT, counted)
    xs = np.arange(-2, 10)
    expected = [_stepped_thrice.py_func(x) - _stepped.py_func(x, 2, 3) for x in xs.tolist()]
    assert _unkept_copies(xs).tolist() == expected
    # five inlined places (two in the kernel, three in its inlined callee's
    # translation), each through the inliner without the copy
    assert returned == [None] * 5


# a large kernel optimised once (standalone_linked_late)


@jit(cache=False, standalone=True)
def _standalone_square(x):
    return x * x


@jit(cache=False)
def _inlined_square(x):
    return x * x


@jit(cache=False)
def _sum_of_squares(xs):
    total = 0
    for x in xs:
        total += _standalone_square(x) + _inlined_square(x)
    return total


def test_a_standalone_kernel_is_linked_after_its_caller_is_optimised():
    # the name is registered (numba's own jit would refuse the option)
    assert "_standalone_square" in _compile_speed.STANDALONE
    assert "_inlined_square" not in _compile_speed.STANDALONE
    applied = _compile_speed.standalone_linked_late()
    xs = np.arange(-5, 9, dtype=np.int64)
    assert _sum_of_squares(xs) == 2 * int((xs * xs).sum())
    (caller_ir,) = _sum_of_squares.inspect_llvm().values()
    calls = [line for line in caller_ir.splitlines() if " call " in line or "= call" in line]
    # the caller's optimisation inlined the other square, never the standalone one
    assert any("_standalone_square" in line for line in calls) is applied
    assert not any("_inlined_square" in line for line in calls)
    # the standalone kernel's code is in the caller's module all the same
    assert ("define" in caller_ir and "_standalone_square" in caller_ir)


def test_the_late_link_is_applied_to_the_numba_it_was_written_for():
    from numba.core import codegen

    applied = _compile_speed.standalone_linked_late()
    patched = codegen.CPUCodeLibrary.finalize.__code__.co_filename
    assert patched.endswith("_compile_speed.py") is applied
