"""The learned pass read off a table of every seven-card hand up to its suits.

The learned pass (:func:`~.play.pass_learned`) scores the 35 passes of a
seven by features that read the suits only as equal or not (a kept four
of one suit, passed cards of one suit), so two hands that differ by a
renaming of the suits get the same 35 scores, and their passes are the
same cards renamed. There are 6,009,159 such classes of seven-card hands
(:data:`CLASSES`): the pass table holds, for each, the pass of its
representative, so a pass is a class index, one read and a decoding
instead of 35 scores.

A class is named by its four suits' rank sets, sorted: by how many cards
each holds, then by the set (13 bits, deuce lowest), most first
(:func:`suit_keys`). Its index (:func:`class_index`) counts, within the
pattern of suit counts (one of eleven, from 7 to 2-2-2-1), the sets as
numbered combinations, suits with as many cards counted as a multiset. The
representative holds suit ``q`` in the ``q``-th place of that order, and its
cards in *class order*: by place, then by rank.

An entry is the pass as a 7-bit mask of class-order positions (bit
``6 - position``, as the search marks hand positions), or :data:`SEARCH`
where the representative's best score is shared by another pass (or a
score is not a number). Then the pass of a hand depends on its card order
(ties go to the first pass in hand order), and the kernel searches: about
one hand in a hundred and fifteen for the packaged weights. Where the best
is the only one, the table's pass is the search's for every hand of the
class, bit for bit (the same features, the same sums in the same order,
whatever the names of the suits).

Tables are built for the pass weights of the default field (:data:`TABLED`,
:func:`learned_extras`), once per machine and weight vector, into the cache
folder (:func:`pass_table`, about 1.3 s on two cores), and reach the kernels
as ``with_learned`` (:func:`~anaconda_sim.strategies.kinds.kernel_extras`).
A table of other weights is never read for a seat
(:func:`pass_learned_by_class`), and a learning run's weights, which change
at every step, search as before. The pass phase of the deal kernels starts
each seat's read a play ahead (:func:`prefetch_pass`): a read from six
megabytes mostly misses the cache, and overlapped it costs a fraction of
the search.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections import Counter
from itertools import product
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..._numba import jit, run_chunks
from ..._table_cache import cached_arrays, stored_arrays
from ...cards import SUIT_LANE_BITS
from ...limits import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from ...rng import card_bit
from ...table import views as V
from ..common import held_mask
from ..kinds import KIND_LEARNED
from .params import N_PASS, W0
from .play import lowest_bit, pass_learned

__all__ = [
    "BUILD_DEALS",
    "CLASSES",
    "NO_TABLE",
    "SEARCH",
    "build_pass_table",
    "class_index",
    "class_of_cards",
    "learned_extras",
    "pass_learned_by_class",
    "pass_table",
    "prefetch_pass",
    "suit_keys",
    "table_pass_into",
]

#: an entry whose class's best pass is not unique: the kernel searches
SEARCH = 255
_RANKS = 13
_SET = (1 << _RANKS) - 1
#: number of cards each 13-bit rank set holds
_POP = np.array([bin(s).count("1") for s in range(1 << _RANKS)], dtype=np.int64)


def _colex() -> np.ndarray:
    """Each rank set's number among the sets of as many ranks, in colex order
    (which, for sets of one size, is the order of their 13-bit values)."""
    colex = np.zeros(1 << _RANKS, dtype=np.int16)  # at most C(13, 6) - 1: 16 KB, kept in cache
    for s in range(1 << _RANKS):
        seen = number = 0
        for rank in range(_RANKS):
            if (s >> rank) & 1:
                seen += 1
                number += math.comb(rank, seen)
        colex[s] = number
    return colex


_COLEX = _colex()
#: ``C(n, k)`` for the multiset counts (``n`` up to ``C(13, 6) + 3``), one
#: array for each ``k`` (2, 3, 4): neighbouring ``n`` in one cache line
_PAIRS, _TRIPLES, _QUADRUPLES = (np.array([math.comb(n, k) for n in range(1720)], dtype=np.int64)
                                 for k in (2, 3, 4))  # fmt: skip
#: ``C(13, c)``: the rank sets of ``c`` cards
_SETS_OF = np.array([math.comb(_RANKS, c) for c in range(HAND_SIZE + 1)], dtype=np.int64)


def _patterns() -> tuple[list[tuple[int, ...]], np.ndarray, np.ndarray]:
    """The eleven patterns of suit counts (most first), each pattern's
    number by ``64 c0 + 8 c1 + c2``, and the first index of each."""
    counts = product(range(HAND_SIZE + 1), repeat=4)
    patterns = sorted({tuple(sorted(p, reverse=True)) for p in counts if sum(p) == HAND_SIZE},
                      reverse=True)  # fmt: skip
    number = np.full(512, -1, dtype=np.int64)
    first = np.zeros(len(patterns) + 1, dtype=np.int64)
    for i, pattern in enumerate(patterns):
        number[pattern[0] * 64 + pattern[1] * 8 + pattern[2]] = i
        size = 1
        for count, suits in Counter(pattern).items():
            size *= math.comb(math.comb(_RANKS, count) + suits - 1, suits)
        first[i + 1] = first[i] + size
    return patterns, number, first


_PATTERNS, _PATTERN_NUMBER, _PATTERN_FIRST = _patterns()
#: the classes of seven-card hands up to a renaming of the suits
CLASSES = int(_PATTERN_FIRST[-1])
assert CLASSES == 6_009_159

_LANE = np.uint64(_SET)
_LANE1, _LANE2, _LANE3 = (np.uint64(q * SUIT_LANE_BITS) for q in (1, 2, 3))


@intrinsic
def _bit_count(typingctx, bits):
    """The number of bits set in the int64 ``bits`` (LLVM's ``ctpop``: one
    instruction, no table)."""
    if bits != types.int64:
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.int64(bits), codegen


@jit(inline="always")
def _ordered(a, b):
    return (a, b) if a >= b else (b, a)


@jit(inline="always")
def _suit_key(cards, ranks, suit):
    """A suit's sort key (:func:`suit_keys`): its number of cards, then its
    rank set, then three less the suit."""
    return (((cards << _RANKS) | ranks) << 2) | (3 - suit)


@jit(inline="always")
def suit_keys(mask):
    """The four suits of a hand as sorted keys, most first.

    ``mask`` holds the cards (the :func:`~anaconda_sim.cards.bit_index`
    layout); a suit's key is its number of cards, then its rank set, then
    three less the suit (two bits), so equal sets keep their suits' order.
    The hand's class is :func:`class_index` of the keys."""
    m = np.uint64(mask)
    s0 = np.int64(m & _LANE)
    s1 = np.int64((m >> _LANE1) & _LANE)
    s2 = np.int64((m >> _LANE2) & _LANE)
    s3 = np.int64((m >> _LANE3) & _LANE)
    k0 = _suit_key(_bit_count(s0), s0, 0)
    k1 = _suit_key(_bit_count(s1), s1, 1)
    k2 = _suit_key(_bit_count(s2), s2, 2)
    k3 = _suit_key(_bit_count(s3), s3, 3)
    # a sorting network of four
    k0, k1 = _ordered(k0, k1)
    k2, k3 = _ordered(k2, k3)
    k0, k2 = _ordered(k0, k2)
    k1, k3 = _ordered(k1, k3)
    k1, k2 = _ordered(k1, k2)
    return k0, k1, k2, k3


@jit(inline="always")
def _multiset(a0, a1, a2, a3, suits):
    """The number of a multiset of ``suits`` set numbers ``a0 >= a1 >= ...``
    (combinations with repetition, colex)."""
    if suits == 1:
        return a0
    if suits == 2:
        return _PAIRS[a0 + 1] + a1
    if suits == 3:
        return _TRIPLES[a0 + 2] + _PAIRS[a1 + 1] + a2
    return _QUADRUPLES[a0 + 3] + _TRIPLES[a1 + 2] + _PAIRS[a2 + 1] + a3


@jit(inline="always")
def _multisets(sets, suits):
    """How many multisets of ``suits`` (2 or 3) of ``sets`` rank sets there are."""
    return _PAIRS[sets + 1] if suits == 2 else _TRIPLES[sets + 2]


@jit(inline="always")
def class_index(k0, k1, k2, k3):
    """The class (0 .. :data:`CLASSES` - 1) of the hand whose sorted suit
    keys are ``k0 >= k1 >= k2 >= k3`` (:func:`suit_keys`): the pattern's
    first index, plus the sets' numbers in mixed radix, the suits of equal
    counts as one multiset."""
    c0, c1, c2, c3 = k0 >> 15, k1 >> 15, k2 >> 15, k3 >> 15
    a0, a1 = np.int64(_COLEX[(k0 >> 2) & _SET]), np.int64(_COLEX[(k1 >> 2) & _SET])
    a2, a3 = np.int64(_COLEX[(k2 >> 2) & _SET]), np.int64(_COLEX[(k3 >> 2) & _SET])
    n1, n2, n3 = _SETS_OF[c1], _SETS_OF[c2], _SETS_OF[c3]
    if c0 == c1:
        if c1 == c2:
            if c2 == c3:
                at = _multiset(a0, a1, a2, a3, 4)
            else:
                at = _multiset(a0, a1, a2, 0, 3) * n3 + a3
        elif c2 == c3:
            at = _multiset(a0, a1, 0, 0, 2) * _multisets(n2, 2) + _multiset(a2, a3, 0, 0, 2)
        else:
            at = (_multiset(a0, a1, 0, 0, 2) * n2 + a2) * n3 + a3
    elif c1 == c2:
        if c2 == c3:
            at = a0 * _multisets(n1, 3) + _multiset(a1, a2, a3, 0, 3)
        else:
            at = (a0 * _multisets(n1, 2) + _multiset(a1, a2, 0, 0, 2)) * n3 + a3
    elif c2 == c3:
        at = (a0 * n1 + a1) * _multisets(n2, 2) + _multiset(a2, a3, 0, 0, 2)
    else:
        at = ((a0 * n1 + a1) * n2 + a2) * n3 + a3
    return _PATTERN_FIRST[_PATTERN_NUMBER[c0 * 64 + c1 * 8 + c2]] + at


@jit
def class_of_cards(cards):
    """The class (:func:`class_index`) of seven distinct cards.

    Examples
    --------
    >>> from anaconda_sim.cards import parse_cards
    >>> a = class_of_cards(np.array(parse_cards("A♠ A♥ K♦ 9♣ 6♠ 4♥ 2♣")))
    >>> b = class_of_cards(np.array(parse_cards("A♥ A♠ K♣ 9♦ 6♥ 4♠ 2♦")))  # suits renamed
    >>> bool(a == b), 0 <= a < CLASSES
    (True, True)
    """
    mask = np.uint64(0)
    for i in range(HAND_SIZE):
        mask |= card_bit(cards[i])
    k0, k1, k2, k3 = suit_keys(mask)
    return class_index(k0, k1, k2, k3)


@jit(inline="always")
def table_pass_into(own, k0, k1, k2, k3, entry, out):
    """Write the pass of table ``entry`` (not :data:`SEARCH`) for the seven
    held cards of ``own``, whose suit keys are ``k0`` to ``k3``, into
    ``out[0:3]`` in hand order, as :func:`~.play.pass_learned` does."""
    passed = np.uint64(0)  # the passed cards' bits, by card index
    position = np.int64(HAND_SIZE - 1)
    for key in (k0, k1, k2, k3):  # class order: by place, then by rank
        ranks = np.uint64((key >> 2) & _SET)
        suit = np.uint64(3 - (key & 3))
        while ranks:
            rank = lowest_bit(ranks)
            passed |= np.uint64((entry >> position) & 1) << (rank * np.uint64(4) + suit)
            position -= 1
            ranks &= ranks - np.uint64(1)
    n = 0
    for i in range(HAND_SIZE):
        card = np.uint64(own[V.O_CARDS + i])
        if (passed >> card) & np.uint64(1):
            out[n] = own[V.O_CARDS + i]
            n += 1


@intrinsic
def _prefetch(typingctx, array, index):
    """Ask for the cache line of ``array[index]`` (LLVM's ``prefetch``,
    for reading, kept close): the read starts now, nothing waits for it."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0])
        where = cgutils.get_item_pointer(context, builder, sig.args[0], data, [args[1]])
        byte = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]),
            "llvm.prefetch.p0i8")  # fmt: skip
        builder.call(prefetch, [builder.bitcast(where, byte), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


@jit(standalone=True)
def prefetch_pass(own, learned):
    """Start reading the pass table's entry (``learned = (weights, table)``)
    of the seven held cards of ``own``: the pass phase asks for each seat's
    a play ahead of its pass, so the seats' reads (a random place in six
    megabytes, mostly not in the cache) overlap with other work instead of
    each pass waiting for its own. A kernel of its own: the class index
    compiled once, not in every phase that starts reads."""
    table = learned[1]
    if table.shape[0] == CLASSES:
        k0, k1, k2, k3 = suit_keys(held_mask(own))
        _prefetch(table, class_index(k0, k1, k2, k3))


@jit(standalone=True)
def pass_learned_by_class(own, params, learned, out):
    """:func:`~.play.pass_learned`'s pass of the seven held cards of
    ``own`` (the same cards, in hand order, into ``out[0:3]``), read off the
    pass table of ``learned = (weights, table)`` (:func:`learned_extras`)
    when it was built for ``params``' pass weights and gives the class's
    pass; else searched (:func:`~.play.pass_learned`)."""
    weights, table = learned
    usable = table.shape[0] == CLASSES and weights.shape[0] == N_PASS
    for f in range(N_PASS if usable else 0):
        usable &= params[W0 + f] == weights[f]
    if not usable:
        pass_learned(own, params, out)
        return
    k0, k1, k2, k3 = suit_keys(held_mask(own))
    entry = np.int64(table[class_index(k0, k1, k2, k3)])
    if entry == SEARCH:
        pass_learned(own, params, out)
        return
    table_pass_into(own, k0, k1, k2, k3, entry, out)


def _tasks() -> np.ndarray:
    """The building's units of work, (pattern, first place's set number),
    shuffled (a fixed order) so that the threads' contiguous ranges of them
    hold about as many classes each."""
    tasks = np.array([(p, a0) for p, pattern in enumerate(_PATTERNS)
                      for a0 in range(math.comb(_RANKS, pattern[0]))], dtype=np.int64)  # fmt: skip
    return tasks[np.random.default_rng(0).permutation(len(tasks))]


def _sets_by_size() -> np.ndarray:
    """``[c, i]``: the ``i``-th rank set of ``c`` cards in colex order (-1 past the last)."""
    sets = np.full((HAND_SIZE + 1, math.comb(_RANKS, 6)), -1, dtype=np.int64)
    for s in range(1 << _RANKS):
        if _POP[s] <= HAND_SIZE:
            sets[_POP[s], _COLEX[s]] = s
    return sets


_PATTERN_COUNTS = np.array(_PATTERNS, dtype=np.int64)


@jit(inline="always")
def _representative_pass(sets, own, again, params, chosen):
    """The entry of the class whose places hold rank sets ``sets[0..3]``:
    its representative's pass (:func:`~.play.pass_learned`) as a mask of
    class-order positions, or :data:`SEARCH` when the pass made with those
    three cards put last (the pass that every other is ranked before at
    equal scores) is another: another pass scores as well."""
    position = 0
    for place in range(4):
        ranks = sets[place]
        for rank in range(_RANKS):
            if (ranks >> rank) & 1:
                own[V.O_CARDS + position] = rank * 4 + place
                position += 1
    pass_learned(own, params, chosen)
    entry = 0
    first = 0
    last = HAND_SIZE - 3
    for i in range(HAND_SIZE):
        card = own[V.O_CARDS + i]
        if card == chosen[0] or card == chosen[1] or card == chosen[2]:
            entry |= 1 << (HAND_SIZE - 1 - i)
            again[V.O_CARDS + last] = card
            last += 1
        else:
            again[V.O_CARDS + first] = card
            first += 1
    pass_learned(again, params, chosen)
    for i in range(HAND_SIZE - 3, HAND_SIZE):
        if chosen[i - (HAND_SIZE - 3)] != again[V.O_CARDS + i]:
            return SEARCH
    return entry


@jit
def _fill(first, stop, params, tasks, sets_of, counts, table, built):
    """The entries (:func:`_representative_pass`) of tasks ``first ..
    stop - 1``: task ``t`` builds the classes of pattern ``tasks[t, 0]``
    whose first place holds set ``tasks[t, 1]``; places of equal counts take
    sets in descending colex order. ``built[t]``: the classes it built."""
    for t in range(first, stop):
        pattern, a0 = tasks[t, 0], tasks[t, 1]
        c0, c1 = counts[pattern, 0], counts[pattern, 1]
        c2, c3 = counts[pattern, 2], counts[pattern, 3]
        own = np.full(V.OWN_SIZE, -1, dtype=np.int32)
        own[V.O_NCARDS] = HAND_SIZE
        again = own.copy()
        chosen = np.empty(3, dtype=np.int64)
        sets = np.zeros(4, dtype=np.int64)
        sets[0] = sets_of[c0, a0]
        done = 0
        for a1 in range(a0 + 1 if c1 == c0 else _SETS_OF[c1]):
            sets[1] = sets_of[c1, a1]
            for a2 in range(a1 + 1 if c2 == c1 else _SETS_OF[c2]):
                sets[2] = sets_of[c2, a2]
                for a3 in range(a2 + 1 if c3 == c2 else _SETS_OF[c3]):
                    sets[3] = sets_of[c3, a3]
                    k0, k1 = _suit_key(c0, sets[0], 0), _suit_key(c1, sets[1], 1)
                    k2, k3 = _suit_key(c2, sets[2], 2), _suit_key(c3, sets[3], 3)
                    table[class_index(k0, k1, k2, k3)] = _representative_pass(sets, own, again,
                                                                              params, chosen)
                    done += 1
        built[t] = done


def build_pass_table(params: np.ndarray) -> np.ndarray:
    """The pass table (uint8, :data:`CLASSES` entries) of the learned pass
    weights in ``params`` (a learned strategy's parameter array), built on
    every core: two searches of each class's representative."""
    tasks = _tasks()
    table = np.full(CLASSES, SEARCH - 1, dtype=np.uint8)  # no entry is SEARCH - 1 once built
    built = np.zeros(len(tasks), dtype=np.int64)
    run_chunks(_fill, len(tasks), np.ascontiguousarray(params, dtype=np.float64), tasks,
               _sets_by_size(), _PATTERN_COUNTS, table, built)  # fmt: skip
    if built.sum() != CLASSES or (table == SEARCH - 1).any():
        raise RuntimeError("the pass table's classes were not each built once")
    return table


def pass_table(params: np.ndarray) -> np.ndarray:
    """The pass table of ``params``' learned pass weights
    (:func:`build_pass_table`), kept in the cache folder under a digest of
    the weights and the sources (so a table is built once per weight vector
    and machine), and in memory for the process.

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> table = pass_table(get_strategy("learned").param_array(6))
    >>> table.shape, table.dtype.name
    ((6009159,), 'uint8')
    """
    weights = np.ascontiguousarray(params[W0 : W0 + N_PASS], dtype=np.float64)
    table = _pass_table(weights.tobytes(), np.ascontiguousarray(params, dtype=np.float64), True)
    assert table is not None
    return table


_TABLES: dict[bytes, np.ndarray] = {}


def _pass_table(weights: bytes, params: np.ndarray, build: bool) -> np.ndarray | None:
    """The table of ``weights`` from memory or the cache folder, else built
    when ``build``, else ``None``."""
    table = _TABLES.get(weights)
    if table is None:
        name = f"learned-pass-{hashlib.sha256(weights).hexdigest()[:16]}"
        if build:
            table = cached_arrays(name, lambda: {"table": build_pass_table(params)})["table"]
        else:
            stored = stored_arrays(name)
            if stored is None:
                return None
            table = stored["table"]
        _TABLES[weights] = table
    return table


#: the fewest deals a call plays for a missing table to be built for it (the
#: building, about 2.6 s of CPU, pays for itself over later calls): a
#: smaller call reads a table the cache folder holds, else searches
BUILD_DEALS = 20_000
#: ``with_learned`` of a table whose learned seats (if any) search their passes
NO_TABLE = (np.zeros(0, dtype=np.float64), np.zeros(0, dtype=np.uint8))
#: the strategies whose pass tables are built: the default field's
TABLED = ("learned",)


@functools.cache
def _tabled_weights() -> frozenset[bytes]:
    """The pass weights of the :data:`TABLED` strategies at every table size."""
    from ..spec import get_strategy  # late: loads numba (the strategies)

    return frozenset(np.ascontiguousarray(get_strategy(name).param_array(players)[W0 : W0 + N_PASS])
                     .tobytes() for name in TABLED
                     for players in range(MIN_PLAYERS, MAX_PLAYERS + 1))  # fmt: skip


def learned_extras(kinds: Any, params: Any, deals: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' ``with_learned`` for a call of ``deals`` deals at a
    table of seats of ``kinds`` with parameter rows ``params`` (one row a
    seat, or one row for all): ``(weights, table)``, the pass table
    (:func:`pass_table`) of the learned seats' pass weights when they are
    those of a :data:`TABLED` strategy (the default field) and the table is
    in memory or the cache folder, or the call plays at least
    :data:`BUILD_DEALS` deals (then it is built); else :data:`NO_TABLE`. A
    seat whose weights are not the table's searches its pass
    (:func:`pass_learned_by_class`), so the choice of table never changes a
    pass.

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> from anaconda_sim.strategies.kinds import KIND_LEARNED, KIND_SENSIBLE
    >>> weights, table = learned_extras([KIND_LEARNED], get_strategy("learned").param_array(4),
    ...                                 deals=BUILD_DEALS)
    >>> len(weights), len(table)
    (12, 6009159)
    >>> [len(a) for a in learned_extras([KIND_SENSIBLE], get_strategy("sensible").param_array(4))]
    [0, 0]
    """
    if params is None:
        return NO_TABLE
    rows = np.asarray(params, dtype=np.float64)
    rows = rows.reshape(1, -1) if rows.ndim == 1 else rows
    learned = [i for i, kind in enumerate(np.asarray(kinds).ravel()) if int(kind) == KIND_LEARNED]
    for i in learned:
        row = rows[min(i, len(rows) - 1)]
        if row.shape[0] < W0 + N_PASS:
            continue
        weights = np.ascontiguousarray(row[W0 : W0 + N_PASS])
        if weights.tobytes() in _tabled_weights():
            table = _pass_table(weights.tobytes(), np.ascontiguousarray(row),
                                deals >= BUILD_DEALS)  # fmt: skip
            if table is not None:
                return weights.copy(), table
    return NO_TABLE
