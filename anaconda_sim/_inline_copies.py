"""Inlined callees copied in linear time: numba's IR inliner, one change.

A function compiled with ``inline="always"`` is inlined into its caller as
numba IR: :meth:`numba.core.inline_closurecall.InlineWorker.inline_ir`
copies the callee's IR twice, block by block, each block with its own
``copy.deepcopy``. Every block refers to the function's one scope, and a
scope holds every variable of the function, so each block's copy copies
the whole scope again: a copy costs blocks x variables, not their sum. The
deal kernels inline chains of helpers with a few hundred variables and
blocks each; those copies were most of numba's inlining pass (0.9 of
2.5 s for the learned reveal order, 0.6-1.2 s for each phase kernel) and a
seventh of a whole deal's compile.

:func:`copy_blocks_once` has ``inline_ir`` copy all the blocks of one IR
with one memo, as one object graph: the copy's blocks share one copy of the
scope, as the original's share the original. Nothing else changes: each of
the two copies is still independent of the callee's IR and of each other,
and the compiled code is the same (the package's pinned digests of whole
simulations check it). The change is made by rewriting those two lines of
numba's own source for the installed version; if they are not found (a
numba that copies differently), numba is left as it is.

The second of those copies is an unchanged copy of the callee's IR that
``inline_ir`` returns first; numba's inlining pass, its only caller through
``inline_function``, discards it. The same inliner without that copy
(``None`` in its place) is put beside it on numba's ``InlineWorker`` as
:data:`UNKEPT`, for the package's inliner
(:func:`anaconda_sim._compile_speed.untyped_ir_once`), which discards it too:
half the copying of every inlined kernel. numba's own ``inline_ir`` still
makes it, for any other caller.
"""

from __future__ import annotations

import inspect
import textwrap
from typing import Any

__all__ = ["UNKEPT", "copy_blocks_once"]

#: the lines of ``InlineWorker.inline_ir`` (its source dedented) that copy
#: each block apart, and what replaces them
_PER_BLOCK = """\
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label])
"""
_ONE_MEMO = """\
        memo = {}  # one memo: the blocks' shared scope is copied once
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label], memo)
"""

#: the line that copies the callee's IR a second time, only to return it
_ORIGINAL_KEPT = "    callee_ir_original = copy_ir(callee_ir)\n"
_ORIGINAL_UNKEPT = "    callee_ir_original = None  # its callers here discard it\n"

_applied: list[bool] = []
#: the name under which numba's inliner class holds the inliner without the
#: returned copy, where :func:`copy_blocks_once` could make it
UNKEPT = "inline_ir_unkept"


def copy_blocks_once() -> bool:
    """Make numba's IR inliner copy a callee's blocks with one memo (module
    docstring); returns whether numba's inliner now does (``False`` when this
    numba's source differs from the one this change was written for). Done
    once per process; later calls return the first answer.

    Examples
    --------
    >>> from anaconda_sim._inline_copies import copy_blocks_once
    >>> copy_blocks_once() in (True, False)
    True
    """
    if _applied:
        return _applied[0]
    from numba.core import inline_closurecall

    method = inline_closurecall.InlineWorker.inline_ir
    try:
        source = textwrap.dedent(inspect.getsource(method))
    except (OSError, TypeError):  # no source installed: leave numba as it is
        _applied.append(False)
        return False
    if source.count(_PER_BLOCK) != 1:
        _applied.append(False)
        return False
    one_memo = source.replace(_PER_BLOCK, _ONE_MEMO)
    changed = _compiled(one_memo, inspect.getsourcefile(method) or "")
    changed.copies_blocks_once = True
    inline_closurecall.InlineWorker.inline_ir = changed  # type: ignore[method-assign]
    if one_memo.count(_ORIGINAL_KEPT) == 1:
        unkept = _compiled(one_memo.replace(_ORIGINAL_KEPT, _ORIGINAL_UNKEPT),
                           inspect.getsourcefile(method) or "")  # fmt: skip
        setattr(inline_closurecall.InlineWorker, UNKEPT, unkept)
    _applied.append(True)
    return True


def _compiled(source: str, filename: str) -> Any:
    """numba's ``inline_ir`` from ``source`` (its own, changed), run in its own module."""
    from numba.core import inline_closurecall

    namespace: dict[str, Any] = {}
    exec(compile(source, filename, "exec"), vars(inline_closurecall), namespace)
    return namespace["inline_ir"]
