"""The built-in strategy kinds, the parameter array's size, and which
optional code (hi-lo rules, the learned family) a table's kernels compile."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .learned.params import LEARNED_SLOTS

KIND_RANDOM = 0


KIND_CALL_DOWN = 1


KIND_RANDOM_PASS = 2


KIND_SENSIBLE = 3


KIND_CUSTOM = 4


KIND_LEARNED = 5


#: a seat's cache for its decisions across a deal, kept by the kernels
#: (:mod:`~anaconda_sim.strategies.dispatch`): the strength of the cards held
#: (-1: not known), and the exposure bucket of what the seat shows with the
#: key it was computed for (-1: none)
CACHE_STRENGTH = 0
CACHE_SHOWN_KEY = 1
CACHE_SHOWN = 2
CACHE_SIZE = 3


#: slots of a strategy's parameter array (the "learned" family uses
#: ``LEARNED_SLOTS``: its named parameters, its win table, the pass tables
#: derived from its pass weights, its board-reading betting and equity tables,
#: its show table and what its discard and betting derive from them)
PARAM_SLOTS = 17408


assert LEARNED_SLOTS <= PARAM_SLOTS


BUILTIN_NAMES = {
    "random": KIND_RANDOM,
    "call-down": KIND_CALL_DOWN,
    "random-pass": KIND_RANDOM_PASS,
    "sensible": KIND_SENSIBLE,
    "learned": KIND_LEARNED,
    "learned-v2": KIND_LEARNED,
    "learned-v1": KIND_LEARNED,
}

#: the built-ins of the learned family whose betting reads the board: the
#: default field (``"learned"``) and the one it replaced (``"learned-v2"``)
BOARD_READING = ("learned", "learned-v2")


#: the value of a kernel's ``with_hilo`` argument when the table plays the
#: hi-lo rules (:func:`kernel_extras`)
EXTRAS = True


def kernel_extras(
    hilo: bool, kinds: Iterable[int], params: Any = None, deals: int = 0
) -> tuple[bool | None, Any]:
    """The ``with_hilo`` and ``with_learned`` arguments of the kernels for a
    call of ``deals`` deals at a table of seats of ``kinds`` whose parameter
    rows are ``params`` (one row a seat, or one row; ``None``: not given).

    ``with_hilo`` is :data:`EXTRAS` when the table plays the hi-lo rules,
    else ``None``: the kernels test ``with_hilo is None`` wherever hi-lo code
    would run, and numba settles such a test when it compiles a kernel for
    the argument's type, so with ``None`` that code is not compiled at all
    (the hi-lo rules are a rule set of their own).

    ``with_learned`` is never ``None``: the "learned" code is compiled for
    every table (it is the analyses' default field, so nearly every session
    compiles it anyway, and one compiled set of kernels then serves every
    strategy family). It is the learned pass's table,
    ``(weights, table)`` (:func:`~.learned.passclass.learned_extras`):
    under the high rules, of the learned seats' pass weights when they are
    the default field's and the table is kept or the call is large enough
    to build it, else empty (every learned pass searched, the same passes).
    Its type is the same whatever the table, so it selects no other
    compiled kernel.

    Examples
    --------
    >>> hilo, (weights, table) = kernel_extras(False, [KIND_SENSIBLE, KIND_CALL_DOWN])
    >>> hilo, len(weights), len(table)
    (None, 0, 0)
    >>> kernel_extras(True, [KIND_SENSIBLE])[0]
    True
    """
    from .learned.passclass import NO_TABLE, learned_extras  # late: loads numba (the kernels)

    if hilo:
        return EXTRAS, NO_TABLE  # the learned pass is "sensible"'s under the hi-lo rules
    return None, learned_extras(list(kinds), params, deals)


def reads_shown_cards_as_buckets(kind: int) -> bool:
    """Whether a seat of ``kind`` reads the cards any seat has shown only
    through their exposure bucket
    (:func:`~anaconda_sim.strategies.dispatch.shown_read`: the learned
    family's read, and "sensible"'s R11 category, a function of it): true of
    every built-in family; a custom strategy's functions may read the cards
    themselves. The rules read one thing more, the exposed value that
    decides who opens a reveal round (R11, R12).

    Examples
    --------
    >>> reads_shown_cards_as_buckets(KIND_SENSIBLE), reads_shown_cards_as_buckets(KIND_CUSTOM)
    (True, False)
    """
    return kind != KIND_CUSTOM


def reads_only_what_is_shown(kind: int) -> bool:
    """Whether a seat of ``kind`` decides on the set of cards it holds and
    what the table shows, never on the order of the cards it has yet to
    show: true of every built-in family; a custom strategy's functions read
    the whole seat, its order included. Where it holds, two plays that differ
    only in that order are one deal until the next card shown differs (the
    reveal kernel shares them, :func:`~anaconda_sim.sim.kernels.reveal.prefix_leads`).

    Examples
    --------
    >>> reads_only_what_is_shown(KIND_LEARNED), reads_only_what_is_shown(KIND_CUSTOM)
    (True, False)
    """
    return kind != KIND_CUSTOM
