"""Three of numba's repeated compile costs removed without changing what it computes.

**A call's types, resolved once per argument types.** numba types every
call in a kernel (``a + b``, ``min(x, y)``, ``np.empty``, an intrinsic) by
asking the function's type for a signature:
:meth:`numba.core.types.functions.BaseFunction.get_call_type` walks every
template registered for the function (for ``+``: integers, floats, arrays,
tuples, datetimes and more), tries each on the arguments, formats an error
for each one that does not match and, for an ``@overload``, looks its
compiled implementation up in a cache whose key hashes the compile flags
(about forty options read one property at a time). The answer depends only
on the function, the argument types, the target and the compile flags, yet
it is worked out again at every call site of every kernel: the package's
kernels inline their helpers, so the same ``int64 + int64`` is typed tens of
thousands of times in one deal's compile, and this search was about a sixth
of numba's compile time (``benchmarks/README.md``, the compile-time rounds).

:func:`call_types_once` makes ``get_call_type`` remember its answer per
(function type, typing context, target, argument types, keyword types,
compile flags) and give it again, together with the implementation key the
answer chose (which the lowering reads next, so it is set again on every
answer, as numba's own search sets it). Nothing else changes: the answer
is the one numba's search gave for the very same inputs. Not remembered:
functions with an ``@overload`` that numba inlines as IR (its search also
records the IR to inline, per call), and answers whose inputs cannot be
hashed. Applied once per process, before any kernel compiles (from
:mod:`anaconda_sim._numba`), for the numba version it was written for;
any other numba is left as it is. The pinned digests of whole simulations,
the agreement and twin tests check that the compiled kernels compute the
same numbers.

**An inlined kernel translated once.** A kernel compiled with
``inline="always"`` is inlined as numba IR, and numba runs the front end of
its compiler (bytecode to IR, with the callee's own inlining) over the
callee again at every call site and depth: a helper inlined into a helper
that is inlined ten times is translated ten times.
:func:`untyped_ir_once` keeps the first translation of each of the
package's kernels (per typing context and set of compile flags) and hands
the inliner that same IR again, as a copy under a new identity (numba's
``inline_function`` with a look-up first). The inliner copies the IR it is
given, block by block, before it changes anything (``InlineWorker.inline_ir``:
"Always copy the callee IR, it gets mutated"), so every call site still
gets IR of its own, and the new identity names its variables apart from any
other copy in the same caller, as a new translation would.

**A large kernel optimised once, not again in every caller.** numba
compiles each kernel into a library of its own, and a kernel that calls
another links the callee's optimised module into its own and then runs
LLVM's whole optimisation pipeline over the result, callee included, "to
allow for inlining" (``CPUCodeLibrary.finalize``). A decision kernel such
as the built-in discard is optimised once in its own library and again in
every kernel on every path up to the driver: the showdown model's discard
five times. Kernels compiled with ``jit(standalone=True)`` (their names in
:data:`STANDALONE`) are too large for LLVM to inline and are called a few
times a deal; :func:`standalone_linked_late` makes a caller optimise its own
code (with every other callee, which LLVM may still inline) first and link
the standalone callees after, as they were optimised. Their code is the
same machine code; a caller's calls to them stay calls, as they were.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = [
    "STANDALONE", "call_types_once", "remembered_call_types", "standalone_linked_late",
    "untyped_ir_once",
]

#: the numba versions whose ``get_call_type`` this was checked against
#: (its search, and the one piece of state it leaves: ``_impl_keys``)
_CHECKED_NUMBA = ("0.68.",)

#: the body of numba's ``InlineWorker.inline_function`` (whitespace folded)
#: that :func:`untyped_ir_once` repeats with a look-up first
_INLINE_BODY = (
    "callee_ir = self.run_untyped_passes(function) freevars = function.__code__.co_freevars "
    "return self.inline_ir(caller_ir, block, i, callee_ir, freevars, arg_typs=arg_typs)"
)

_answers: dict[tuple[Any, ...], tuple[Any, Any]] = {}

#: names of the libraries of the kernels compiled with ``jit(standalone=True)``
#: (numba names a kernel's library after its qualified name): linked into
#: their callers after the callers' optimisation (:func:`standalone_linked_late`)
STANDALONE: set[str] = set()

#: the part of numba's ``CPUCodeLibrary.finalize`` (whitespace folded) that
#: :func:`standalone_linked_late` repeats with the standalone callees last
_FINALIZE_BODY = (
    "seen = set() for library in self._linking_libraries: if library not in seen: "
    "# Parent inherits reload_init self._reload_init.update(library._reload_init) "
    "seen.add(library) self._final_module.link_in( library._get_module_for_linking(), "
    "preserve=True, ) # Optimize the module after all dependences are linked in above, "
    "# to allow for inlining. self._optimize_final_module() self._final_module.verify() "
    "self._finalize_final_module()"
)


def _flag_value(value: Any) -> Any:
    """A compile flag's value as a hashable key (``FastMathOptions`` is not
    hashable: its set of flags is)."""
    try:
        hash(value)
    except TypeError:
        flags = getattr(value, "flags", None)
        return (type(value), frozenset(flags) if flags is not None else repr(value))
    return value


def _flags_key(flags: Any) -> tuple[Any, ...] | None:
    """A set of compile flags as a key: its class and the options set on it
    (equal keys, equal flags; flags equal by their defaults may differ in
    key, which costs a second search, never a wrong answer)."""
    if flags is None:
        return None
    return (type(flags), tuple(sorted((name, _flag_value(v)) for name, v in flags._values.items())))


def _inlines_ir(function_type: Any) -> bool:
    """Whether one of the function's templates is an ``@overload`` that numba
    may inline as IR (its search records the IR per call)."""
    for template in function_type.templates:
        inline = getattr(template, "_inline", None)
        if inline is not None and not inline.is_never_inline:
            return True
    return False


def remembered_call_types() -> int:
    """How many answers :func:`call_types_once` holds in this process.

    Examples
    --------
    >>> from anaconda_sim._compile_speed import remembered_call_types
    >>> remembered_call_types() >= 0
    True
    """
    return len(_answers)


@functools.cache
def call_types_once() -> bool:
    """Make numba's ``get_call_type`` answer each function and argument types
    once per compile flags (module docstring); returns whether it now does
    (``False`` for a numba this was not checked against). Done once per
    process; later calls return the first answer.

    Examples
    --------
    >>> from anaconda_sim._compile_speed import call_types_once
    >>> call_types_once() in (True, False)
    True
    """
    import numba
    from numba.core import targetconfig
    from numba.core.target_extension import get_local_target
    from numba.core.types import functions

    if not numba.__version__.startswith(_CHECKED_NUMBA):
        return False
    search = functions.BaseFunction.get_call_type

    def get_call_type(self: Any, context: Any, args: Any, kws: Any) -> Any:
        try:
            flags = _flags_key(targetconfig.ConfigStack.top_or_none())
            key = (self, context, get_local_target(context), tuple(args),
                   tuple(sorted(kws.items())), flags)  # fmt: skip
            answer = _answers.get(key)
        except TypeError:  # something unhashable: numba's own search
            return search(self, context, args, kws)
        if answer is not None:
            signature, impl_key = answer
            # the key numba's search sets for the lowering that follows
            self._impl_keys[signature.args] = impl_key
            return signature
        signature = search(self, context, args, kws)
        if signature is not None and not _inlines_ir(self):
            _answers[key] = (signature, self._impl_keys[signature.args])
        return signature

    get_call_type.__doc__ = search.__doc__
    functions.BaseFunction.get_call_type = get_call_type  # type: ignore[method-assign]
    return True


def _written_for(method: Any, body: str) -> bool:
    """Whether numba's ``method`` holds ``body`` (whitespace folded): the code
    a patch repeats with its change. No source installed: it does not (numba
    is then left as it is)."""
    import inspect

    try:
        source = inspect.getsource(method)
    except (OSError, TypeError):
        return False
    return body in " ".join(source.split())


def _ours(function: Any) -> bool:
    return str(getattr(function, "__module__", "")).partition(".")[0] == "anaconda_sim"


@functools.cache
def untyped_ir_once() -> bool:
    """Make numba's inliner translate each of the package's inlined kernels
    once per typing context and set of compile flags (module docstring);
    returns whether it now does (``False`` where numba's ``inline_function``
    is not the one this was written for). Kernels of other packages are
    translated as before. Done once per process.

    Examples
    --------
    >>> from anaconda_sim._compile_speed import untyped_ir_once
    >>> untyped_ir_once() in (True, False)
    True
    """
    from numba.core import inline_closurecall

    worker: Any = inline_closurecall.InlineWorker
    if not _written_for(worker.inline_function, _INLINE_BODY):
        return False
    inline = worker.inline_function
    translated: dict[tuple[Any, ...], Any] = {}

    def inline_function(self: Any, caller_ir: Any, block: Any, i: int, function: Any,
                        arg_typs: Any = None) -> Any:  # fmt: skip
        if not _ours(function):
            return inline(self, caller_ir, block, i, function, arg_typs)
        # numba's own method with the translation looked up first; the key
        # holds the flags its front end reads (SSA off, as its method sets)
        self.flags.enable_ssa = False
        key = (function, self.typingctx, _flags_key(self.flags))
        first = translated.get(key)
        if first is None:
            first = translated[key] = self.run_untyped_passes(function)
        # a new identity, as a new translation would have: the inlined
        # variables are named after it, so two copies in one caller never
        # share a name (they would be taken for versions of one variable)
        callee_ir = first.copy()
        callee_ir.func_id = first.func_id.derive()
        # numba's inlining pass discards the unchanged copy inline_ir returns
        # first: the inliner that does not make it, where one was put beside
        # numba's (anaconda_sim._inline_copies)
        inline_ir = getattr(worker, "inline_ir_unkept", worker.inline_ir)
        return inline_ir(self, caller_ir, block, i, callee_ir, function.__code__.co_freevars,
                         arg_typs=arg_typs)  # fmt: skip

    inline_function.__doc__ = inline.__doc__
    worker.inline_function = inline_function
    return True


@functools.cache
def standalone_linked_late() -> bool:
    """Make a kernel's library link the libraries of its :data:`STANDALONE`
    callees after its own optimisation, not before (module docstring);
    returns whether it now does (``False`` where numba's ``finalize`` is not
    the one this was written for). Done once per process.

    Examples
    --------
    >>> from anaconda_sim._compile_speed import standalone_linked_late
    >>> standalone_linked_late() in (True, False)
    True
    """
    from numba.core import codegen

    library_class: Any = codegen.CPUCodeLibrary
    if not _written_for(library_class.finalize, _FINALIZE_BODY):
        return False

    def finalize(self: Any) -> None:
        codegen.require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        if codegen.config.DUMP_FUNC_OPT:
            codegen.dump(f"FUNCTION OPTIMIZED DUMP {self.name}", self.get_llvm_str(), "llvm")
        seen, late = set(), []
        for library in self._linking_libraries:
            if library in seen:
                continue
            self._reload_init.update(library._reload_init)  # as numba: inherited
            seen.add(library)
            if library.name in STANDALONE:
                late.append(library)
            else:
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._optimize_final_module()
        for library in late:  # optimised in their own libraries already
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._final_module.verify()
        self._finalize_final_module()

    finalize.__doc__ = library_class.finalize.__doc__
    library_class.finalize = finalize
    return True
