"""Two costs of numba's compiler removed without changing what it compiles.

A profile of a first deal's compile (``cProfile`` over ``simulate`` with an
empty cache) spends about a tenth of numba's Python time on two kinds of
repeated work that give the same answer every time:

- **Option sets compared field by field.** numba keys its cache of typed
  ``@overload`` implementations (``np.empty``, ``min``, array methods) on
  the compile flags, and a flags object hashes and compares itself through
  :meth:`~numba.core.targetconfig.TargetConfig.values`: a dictionary of
  every option (about forty) read one property at a time, rebuilt for each
  of the quarter of a million look-ups of one deal's compile.
  :func:`fast_option_values` builds the same dictionary from the class's
  defaults and the options set (a copy and an update, in C): about 5% of
  the compile.
- **A callee's IR made again at every place it is inlined.** A kernel
  compiled with ``inline="always"`` is inlined as numba IR, and numba runs
  the front end of the compiler (bytecode to IR, SSA, the callee's own
  inlining) over the callee at every call site, at every depth: a helper
  inlined into a helper that is inlined ten times is translated ten times.
  :func:`untyped_ir_once` keeps the first translation of each of the
  package's kernels (per set of compile flags) and hands the inliner that
  same IR again (numba's ``inline_function`` with a look-up first); the
  inliner copies the IR it is given before it changes
  anything (``InlineWorker.inline_ir``: "Always copy the callee IR, it gets
  mutated"), so every call site still gets IR of its own: 2-4% of the
  compile.

Both are applied once per process, before any kernel compiles (from
:mod:`anaconda_sim._numba`), and only where the installed numba is the one
they were written for (the property the first replaces reads
``self._values.get(name, option.default)``; the inliner's
``inline_function`` is numba 0.68's three lines); otherwise numba is left as it is. The
pinned digests of whole simulations and the twin tests check that the
compiled code computes the same numbers.
"""

from __future__ import annotations

import inspect
from typing import Any

__all__ = ["fast_option_values", "untyped_ir_once"]

_applied: dict[str, bool] = {}

#: the body of numba's ``InlineWorker.inline_function`` (whitespace folded)
#: that :func:`untyped_ir_once` repeats with a look-up first
_INLINE_BODY = (
    "callee_ir = self.run_untyped_passes(function) freevars = function.__code__.co_freevars "
    "return self.inline_ir(caller_ir, block, i, callee_ir, freevars, arg_typs=arg_typs)"
)

#: the line of numba's option property that :func:`fast_option_values` relies on
_GETTER_LINE = "return self._values.get(name, option.default)"


def fast_option_values() -> bool:
    """Make ``TargetConfig.values`` build its dictionary in one copy (module
    docstring); returns whether it now does. Done once per process.

    Examples
    --------
    >>> from numba.core.compiler import Flags
    >>> from anaconda_sim._compile_speed import fast_option_values
    >>> fast_option_values() in (True, False)
    True
    >>> flags = Flags()
    >>> flags.boundscheck = True
    >>> values = flags.values()
    >>> values["boundscheck"], values["nrt"], len(values) == len(Flags.options)
    (True, False, True)
    """
    if "values" in _applied:
        return _applied["values"]
    from numba.core import targetconfig

    try:
        meta_source = inspect.getsource(targetconfig._MetaTargetConfig)
    except (OSError, TypeError, AttributeError):
        meta_source = ""
    if _GETTER_LINE not in meta_source:
        _applied["values"] = False
        return False
    config_class: Any = targetconfig.TargetConfig
    plain_values = config_class.values
    defaults_by_class: dict[type, dict[str, Any]] = {}

    def values(self: Any) -> dict[str, Any]:
        cls = type(self)
        defaults = defaults_by_class.get(cls)
        if defaults is None:
            defaults = {name: option.default for name, option in cls.options.items()}
            defaults_by_class[cls] = defaults
        if not self._values.keys() <= defaults.keys():  # copied from another class
            return plain_values(self)  # type: ignore[no-any-return]
        out = dict(defaults)
        out.update(self._values)
        return out

    values.__doc__ = plain_values.__doc__
    config_class.values = values
    _applied["values"] = True
    return True


def _ours(func: Any) -> bool:
    return str(getattr(func, "__module__", "")).partition(".")[0] == "anaconda_sim"


def untyped_ir_once() -> bool:
    """Make numba's inliner translate each of the package's inlined kernels
    once per set of compile flags (module docstring); returns whether it now
    does. Kernels of other packages are translated as before. Done once per
    process.

    Examples
    --------
    >>> from anaconda_sim._compile_speed import untyped_ir_once
    >>> untyped_ir_once() in (True, False)
    True
    """
    if "ir" in _applied:
        return _applied["ir"]
    from numba.core import inline_closurecall

    worker: Any = inline_closurecall.InlineWorker
    try:
        inline_source = inspect.getsource(worker.inline_function)
    except (OSError, TypeError, AttributeError):
        inline_source = ""
    if _INLINE_BODY not in " ".join(inline_source.split()):
        _applied["ir"] = False
        return False
    inline = worker.inline_function
    translated: dict[tuple[Any, str], Any] = {}

    def inline_function(
        self: Any, caller_ir: Any, block: Any, i: int, function: Any, arg_typs: Any = None,
    ) -> Any:  # fmt: skip
        if not _ours(function):
            return inline(self, caller_ir, block, i, function, arg_typs)
        # numba's own method, with the translation looked up first; the key
        # holds the flags the front end reads (SSA off, as numba's method has it)
        self.flags.enable_ssa = False
        key = (function, repr(sorted(self.flags.values().items())))
        first = translated.get(key)
        if first is None:
            first = translated[key] = self.run_untyped_passes(function)
        # a new identity as a new translation would have: the inlined
        # variables are named after it, so two copies in one caller never
        # share a name (they would be taken for versions of one variable)
        callee_ir = first.copy()
        callee_ir.func_id = first.func_id.derive()
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars,
                              arg_typs=arg_typs)  # fmt: skip

    inline_function.__doc__ = inline.__doc__
    worker.inline_function = inline_function
    _applied["ir"] = True
    return True
