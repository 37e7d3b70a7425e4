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
"""

from __future__ import annotations

import inspect
import textwrap

__all__ = ["copy_blocks_once"]

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

_applied: list[bool] = []


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
    namespace: dict[str, object] = {}
    code = compile(source.replace(_PER_BLOCK, _ONE_MEMO), inspect.getsourcefile(method) or "",
                   "exec")  # fmt: skip
    # numba's own source with those lines changed, run in its own module
    exec(code, vars(inline_closurecall), namespace)
    changed = namespace["inline_ir"]
    changed.copies_blocks_once = True  # type: ignore[attr-defined]
    inline_closurecall.InlineWorker.inline_ir = changed  # type: ignore[method-assign]
    _applied.append(True)
    return True
