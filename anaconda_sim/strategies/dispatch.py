"""The kernel dispatch: each decision of a strategy by its kind, written once.

The batch simulator's kernels and the reference engine's :class:`Strategy`
call these, with a table's :func:`~anaconda_sim.strategies.kinds.kernel_extras`,
so both engines play the same code. This is the one place that branches on
a strategy's kind inside a kernel: the deal, batch and spot kernels call
:func:`seat_bet`, :func:`seat_pass`, :func:`seat_discard`,
:func:`bets_passively`, :func:`keeps_best_five` and :func:`declares_as`
and name no kind, so a new family is its module in this package, a branch
here and a line in :mod:`~anaconda_sim.strategies.families`.

A seat's cache
--------------
The kernels keep, per seat, ``CACHE_SIZE`` int64 slots the decisions may use
across the deal (``caches[seat]``, laid out by the ``CACHE_*`` offsets):
the strength of the cards held (``CACHE_STRENGTH``, -1 when they change:
:func:`forget_cards`) and, for the learned family's betting, the exposure
bucket of what the seat shows with the key it was computed for
(``CACHE_SHOWN``, ``CACHE_SHOWN_KEY``; -1: none, :func:`forget_shown`). A
cached value is exactly what the decision would compute again, so the
engine, which keeps no cache, makes the same decisions.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import types

from .._numba import jit
from ..hands.evaluator import eval5, eval7
from ..limits import HAND_SIZE, PASS_SIZE
from ..table import views as V
from ..table.rules import REVEAL_ROUNDS
from .basic import bet_random, discard_random, pass_random
from .hilo import discard_hilo, pass_sensible_hilo, sensible_strength
from .kinds import (
    CACHE_SHOWN,
    CACHE_SHOWN_KEY,
    CACHE_STRENGTH,
    KIND_CALL_DOWN,
    KIND_CUSTOM,
    KIND_LEARNED,
    KIND_RANDOM,
    KIND_RANDOM_PASS,
    KIND_SENSIBLE,
)
from .learned.params import EXPOSURE_BUCKETS, OWN_BUCKETS, READS_MODE, SHOW_MODE, TABLE0
from .learned.passclass import pass_learned_by_class, prefetch_pass
from .learned.play import (
    bet_learned_at,
    bet_learned_on,
    learned_bucket,
    order_learned,
    passes_learned,
)
from .learned.readbet import UNDECIDED, bet_reads_decided, read_intent
from .learned.show import discard_shown
from .learned.winprob import OWN_BUCKET, exposure_bucket_read, win_stage
from .sensible import SENSIBLE_PARAMS, bet_sensible_at, discard_best_five, pass_sensible


@jit(inline="always")
def builtin_bet(kind, pub, own, params, rng):
    """Betting intent of built-in strategy ``kind`` (``KIND_*``)."""
    if kind == KIND_RANDOM:
        return bet_random(pub, own, rng)
    if kind == KIND_SENSIBLE:
        return _bet_sensible(pub, own, params, rng)
    if kind == KIND_LEARNED:
        if pub[V.P_HILO] != 0:
            return bet_sensible_at(pub, own, SENSIBLE_PARAMS, rng, sensible_strength(pub, own))
        return bet_learned_at(pub, own, params, rng, learned_bucket(own))
    return V.INTENT_PASSIVE


@jit(inline="always")
def _bet_sensible(pub, own, params, rng):
    return bet_sensible_at(pub, own, params, rng, sensible_strength(pub, own))


@jit(standalone=True)
def builtin_pass(kind, pub, own, params, rng, out, with_hilo, with_learned):
    """Cards passed by built-in strategy ``kind`` (written to ``out``);
    ``with_hilo``, ``with_learned``: :func:`kernel_extras` of the table."""
    if kind == KIND_RANDOM or kind == KIND_RANDOM_PASS:
        pass_random(pub, own, rng, out)
        return
    if with_learned is not None:
        if kind == KIND_LEARNED and _learned_pass_applies(pub, own):
            pass_learned_by_class(own, params, with_learned, out)
            return
    if with_hilo is not None:
        if pub[V.P_HILO] != 0:
            pass_sensible_hilo(pub, own, out)
            return
    pass_sensible(pub, own, out)


@jit(inline="always")
def passes_exactly(kind, pub, own, params, rng, chosen, packet, with_hilo, with_learned):
    """True when built-in ``kind``, holding ``own``'s seven cards, passes
    exactly the three ``packet`` cards, its pass decided with the random
    state ``rng`` reset to zero (meant for deterministic passes; ``chosen``
    is scratch for three cards). The learned pass answers without making
    the pass where another beats the packet
    (:func:`~anaconda_sim.strategies.learned.play.passes_learned`): the same
    answer at a fraction of the work when the packet is not its pass."""
    if with_learned is not None:
        if kind == KIND_LEARNED and _learned_pass_applies(pub, own):
            return passes_learned(own, params, packet)
    rng[0] = np.uint64(0)
    builtin_pass(kind, pub, own, params, rng, chosen, with_hilo, with_learned)
    hits = 0
    for i in range(3):
        for j in range(3):
            if chosen[i] == packet[j]:
                hits += 1
    return hits == 3


@jit(inline="always")
def prefetch_seat_pass(kind, own, with_learned):
    """Start reading what a seat of ``kind`` holding seven cards will need
    for its pass (:func:`seat_pass`): the learned pass's table entry
    (:func:`~.learned.passclass.prefetch_pass`; none under the hi-lo rules,
    whose ``with_learned`` holds no table); nothing for other kinds. A read
    started for a pass that is not made only costs the read."""
    if with_learned is not None:
        if kind == KIND_LEARNED and own[V.O_NCARDS] == HAND_SIZE:
            prefetch_pass(own, with_learned)


@jit(inline="always")
def _learned_pass_applies(pub, own):
    """The learned pass scores a pass of three of seven under the high
    showdown; other passes (other rule sets, hi-lo) are "sensible"'s."""
    return pub[V.P_PASS_COUNT] == PASS_SIZE and own[V.O_NCARDS] == HAND_SIZE and pub[V.P_HILO] == 0


@jit(standalone=True)
def builtin_discard(kind, pub, own, params, rng, out, with_hilo, with_learned):
    """Discards and reveal order of built-in strategy ``kind`` (into ``out``);
    ``with_hilo``, ``with_learned``: :func:`kernel_extras` of the table.
    Returns the value of the kept five when the choice gave it (the best
    five of seven, whatever their reveal order), else -1."""
    if kind == KIND_RANDOM:
        discard_random(own, rng, out)
        return np.int64(-1)
    if with_hilo is not None:
        if pub[V.P_HILO] != 0:
            discard_hilo(own, out, kind != KIND_RANDOM_PASS)
            return np.int64(-1)
    if with_learned is not None:
        if kind == KIND_LEARNED and params[SHOW_MODE] != 0.0:
            return discard_shown(own, params, rng, out)
    # one call site of the inlined best five: each copy costs compile time
    value = discard_best_five(own, out, kind != KIND_RANDOM_PASS and kind != KIND_LEARNED)
    if with_learned is not None:
        if kind == KIND_LEARNED:
            order_learned(params, out)
    return value


@jit
def pass_sensible_high(pub, own, out):
    """:func:`builtin_pass` of ``"sensible"`` and ``"call-down"`` under the
    high rules (the same cards), as a kernel of its own: with three array
    arguments instead of five and no dispatch, it is small enough for LLVM
    to inline into the deal kernel's pass phase, which plays it 18 times in
    a 6-player deal."""
    pass_sensible(pub, own, out)


@jit
def discard_sensible_high(own, out):
    """:func:`builtin_discard` of ``"sensible"`` and ``"call-down"`` under the
    high rules (the same cards and order), as a kernel of its own, for the
    same reason as :func:`pass_sensible_high`. Returns the value of the
    kept five (found with them from seven cards; -1 from fewer), so that the
    showdown need not evaluate them again."""
    return discard_best_five(own, out, True)


@jit(standalone=True)
def discard_learned_high(own, params, rng, out):
    """:func:`builtin_discard` of ``"learned"`` under the high rules (read
    off its show array, :func:`~.learned.show.discard_shown`, where it has
    one; else the best five in the reveal order
    :func:`~.learned.play.order_learned` scores best), as a kernel of its
    own, for the same reason as :func:`discard_sensible_high`. Returns the
    value of the kept five (found with them from seven cards; -1 from fewer
    without a show array)."""
    if params[SHOW_MODE] != 0.0:
        return discard_shown(own, params, rng, out)
    value = discard_best_five(own, out, False)
    order_learned(params, out)
    return value


@jit
def no_custom_bet(pub, own, params, rng):
    return V.INTENT_PASSIVE


@jit
def no_custom_cards(pub, own, params, rng, out):
    pass


@jit(inline="always")
def bets_passively(kind):
    """True for the families whose betting intent is always passive
    (``"call-down"``, ``"random-pass"``): their action is read off the
    table (check, or call a bet), whatever they hold."""
    return kind == KIND_CALL_DOWN or kind == KIND_RANDOM_PASS


@jit(inline="always")
def keeps_best_five(kind):
    """True for the built-in families whose discard keeps the best five of
    the seven held (every one but ``"random"``), so the showdown value of
    what they hold after the pass is the seven cards' value."""
    return kind != KIND_RANDOM


@jit(inline="always")
def showdown_value(kind, own, rng, scratch):
    """The value (R10) of the five that a seat of built-in ``kind``, holding
    the seven cards of ``own`` after the pass, shows down in the showdown
    model (:mod:`~anaconda_sim.sim.models`: every seat passes by its
    strategy and keeps its best five, nobody bets): the seven's value for
    every family that keeps its best five (:func:`keeps_best_five`), else
    (``"random"``) the value of the five its random discard keeps
    (:func:`builtin_discard`'s first branch, drawn from ``rng``;
    ``scratch``: its output). The model needs nothing else of the discard."""
    if keeps_best_five(kind):
        return eval7(
            own[V.O_CARDS], own[V.O_CARDS + 1], own[V.O_CARDS + 2], own[V.O_CARDS + 3],
            own[V.O_CARDS + 4], own[V.O_CARDS + 5], own[V.O_CARDS + 6],
        )  # fmt: skip
    discard_random(own, rng, scratch)
    f = V.OUT_FIVE
    return eval5(scratch[f], scratch[f + 1], scratch[f + 2], scratch[f + 3], scratch[f + 4])


@jit(inline="always")
def declares_as(kind):
    """The built-in kind whose declaration (R21-R26) a seat of ``kind``
    makes: a custom strategy declares as ``"sensible"``."""
    return KIND_SENSIBLE if kind == KIND_CUSTOM else kind


@jit(inline="always")
def forget_cards(cache):
    """The cards a seat holds changed (a deal, a pass, a discard): its cached
    strength goes."""
    cache[CACHE_STRENGTH] = -1


@jit(inline="always")
def kept_five(kind, pub, cache, value, with_learned):
    """A seat of ``kind`` now holds the five it kept at the discard, whose
    value is ``value`` (-1: not known): its cached strength becomes what its
    betting would compute from them, or goes (:func:`forget_cards`). Only
    the learned family's is kept (under the high rules, its own-strength
    bucket is the bucket of the five's value): the evaluation the first
    bet after the discard would make."""
    forget_cards(cache)
    if with_learned is not None:
        if kind == KIND_LEARNED and value >= 0 and pub[V.P_HILO] == 0:
            cache[CACHE_STRENGTH] = OWN_BUCKET[value]


@jit(inline="always")
def forget_shown(cache):
    """A new deal: nothing the seat shows is cached."""
    cache[CACHE_SHOWN_KEY] = -1


@jit(inline="always")
def _win_probability_cached(pub, own, params, bucket, caches):
    """:func:`~anaconda_sim.strategies.learned.winprob.win_probability` of
    seat ``own`` (own-strength bucket ``bucket``), each rival's exposure
    bucket read from the seats' ``caches`` (``CACHE_SHOWN``): computed once
    per seat and reveal, not once per rival of every betting decision. The
    key is what the seat shows (the reveal count and the four exposed
    cards), so a stale entry is never read. The same factors multiplied in
    the same order (the active rivals in seat order), so the same number.

    Before the reveals every rival's factor is the same entry (nothing
    shown), so the product is that entry multiplied in once per active
    rival, with no look at the seats."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    me = own[V.O_SEAT]
    row = TABLE0 + (win_stage(pub) * OWN_BUCKETS + bucket) * EXPOSURE_BUCKETS
    p = 1.0
    if revealed == 0:
        q = params[row]
        for _ in range(pub[V.P_ACTIVE] - np.int64(pub[V.P_FOLDED + me] == 0)):
            p *= q
        return p
    for seat in range(pub[V.P_PLAYERS]):
        if seat == me or pub[V.P_FOLDED + seat] != 0:
            continue
        p *= params[row + _shown_bucket(pub, caches, seat, revealed)]
    return p


@jit(inline="always")
def _shown_bucket(pub, caches, seat, revealed):
    """Seat ``seat``'s exposure bucket of what it shows now (``revealed``
    cards, at least one), from its cache (``CACHE_SHOWN``), computed
    (:func:`~anaconda_sim.strategies.learned.winprob.exposure_bucket_read`)
    and cached when the cache's key is not what the seat shows: the reveal
    count and the four exposed cards, so a stale entry is never read."""
    base = V.P_EXPOSED + 4 * seat
    c0, c1 = np.int64(pub[base]), np.int64(pub[base + 1])
    c2, c3 = np.int64(pub[base + 2]), np.int64(pub[base + 3])
    key = revealed + 8 * ((c0 + 1) + 64 * ((c1 + 1) + 64 * ((c2 + 1) + 64 * (c3 + 1))))
    if caches[seat, CACHE_SHOWN_KEY] != key:
        caches[seat, CACHE_SHOWN] = exposure_bucket_read(c0, c1, c2, c3, revealed)
        caches[seat, CACHE_SHOWN_KEY] = key
    return caches[seat, CACHE_SHOWN]


@jit(inline="always")
def shown_read(c0, c1, c2, c3, shown):
    """What every built-in family reads of the first ``shown`` (1..4) of the
    cards ``c0 .. c3`` one seat has shown: their exposure bucket
    (:func:`~anaconda_sim.strategies.learned.winprob.exposure_bucket_read`,
    the learned family's read), of which "sensible"'s R11 category of them
    is a function (``tests/analysis/test_reveal_shared_prefixes.py`` checks
    every four cards): two seats that show cards of one bucket are the same
    to every built-in decision
    (:func:`~anaconda_sim.strategies.kinds.reads_shown_cards_as_buckets`)."""
    return exposure_bucket_read(c0, c1, c2, c3, shown)


@jit(inline="always")
def _shown_buckets(pub, caches):
    """Every active seat's exposure bucket (:func:`_shown_bucket`), as
    ``caches[:, CACHE_SHOWN]``, once a card is shown (a folded seat's entry
    is left as it was: nothing reads a folded seat's exposure)."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    if revealed > 0:
        for seat in range(pub[V.P_PLAYERS]):
            if pub[V.P_FOLDED + seat] == 0:
                _shown_bucket(pub, caches, seat, revealed)
    return caches[:, CACHE_SHOWN]


@jit(inline="always")
def _cached_bucket(own, caches, seat):
    """The learned own-strength bucket of the cards seat ``seat`` holds,
    from its cache (``CACHE_STRENGTH``), computed and kept there when the
    cards changed."""
    bucket = caches[seat, CACHE_STRENGTH]
    if bucket < 0:
        bucket = learned_bucket(own)
        caches[seat, CACHE_STRENGTH] = bucket
    return bucket


@jit(_nrt=False, standalone=True)
def _learned_intent(pub, own, params, rng, caches, seat):
    """The learned family's betting intent (high rules), its strength and the
    rivals' exposures read from the seats' ``caches``."""
    bucket = _cached_bucket(own, caches, seat)
    if params[READS_MODE] != 0.0:  # the board-reading betting ("learned")
        # readbet.bet_reads_from in its two steps: the rivals' exposures
        # (each checked against its cache's key) read only for the second
        revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
        shown = _shown_bucket(pub, caches, seat, revealed) if revealed > 0 else 0
        intent = bet_reads_decided(pub, own, params, rng, bucket, shown)
        if intent != UNDECIDED:
            return intent
        return read_intent(pub, own, params, bucket, _shown_buckets(pub, caches))
    p = _win_probability_cached(pub, own, params, bucket, caches)
    return bet_learned_on(pub, own, params, rng, p)


@jit(_nrt=False, standalone=True)
def _learned_read(pub, own, params, bucket, caches):
    """:func:`~.learned.readbet.read_intent` of a seat whose bluff and
    bounds left its intent undecided before the reveals (no exposure read)."""
    return read_intent(pub, own, params, bucket, caches[:, CACHE_SHOWN])


@jit(inline="always")
def seat_bet(kind, pub, own, params, rng, cbet, caches, seat, with_hilo, with_learned):
    """Betting intent of seat ``seat`` (:func:`builtin_bet`, or the custom
    ``cbet``), with its strength and the rivals' exposures read from the
    seats' ``caches`` (module docstring): the same intent, computed once.

    A board-reading learned seat's bet before the reveals stops here where
    its bluff or the bounds of its estimate decide (about half of them, for
    the default field); the rest read the rivals in :func:`_learned_read`.
    Its later bets are :func:`_learned_intent`'s."""
    if kind == KIND_CUSTOM:
        return cbet(pub, own, params, rng)
    cache = caches[seat]
    if with_learned is not None:
        if kind == KIND_LEARNED and pub[V.P_HILO] == 0:
            if pub[V.P_REVEALED] == 0 and params[READS_MODE] != 0.0:
                # before the reveals (nothing shown): the bluff and the bounds
                # here, the rivals' reads in a kernel of their own
                bucket = _cached_bucket(own, caches, seat)
                intent = bet_reads_decided(pub, own, params, rng, bucket, 0)
                if intent != UNDECIDED:
                    return intent
                return _learned_read(pub, own, params, bucket, caches)
            return _learned_intent(pub, own, params, rng, caches, seat)
    if kind == KIND_SENSIBLE or kind == KIND_LEARNED:
        # "learned" bets as "sensible" under the hi-lo rules
        strength = cache[CACHE_STRENGTH]
        if strength < 0:
            strength = sensible_strength(pub, own)
            cache[CACHE_STRENGTH] = strength
        return bet_sensible_at(pub, own, params if kind == KIND_SENSIBLE else SENSIBLE_PARAMS,
                               rng, strength)  # fmt: skip
    if kind == KIND_RANDOM:
        return bet_random(pub, own, rng)
    # every other built-in is passive
    return V.INTENT_PASSIVE


@jit(inline="always")
def seat_pass(kind, pub, own, params, rng, out, cache, cpass, has_cpass, with_hilo,
              with_learned):  # fmt: skip
    """Cards a seat of ``kind`` passes (:func:`builtin_pass`, or the custom
    ``cpass`` when ``has_cpass``; a custom strategy without one passes as
    ``"sensible"``), into ``out``. A custom pass may write anywhere in its
    row, so the seat's ``cache`` is forgotten after it."""
    if (kind == KIND_SENSIBLE or kind == KIND_CALL_DOWN) and pub[V.P_HILO] == 0:
        pass_sensible_high(pub, own, out)  # builtin_pass's choice, without its dispatch
        return
    if with_learned is not None:
        if kind == KIND_LEARNED and _learned_pass_applies(pub, own):
            pass_learned_by_class(own, params, with_learned, out)  # builtin_pass's, one call fewer
            return
    if kind == KIND_CUSTOM:
        if has_cpass:
            cpass(pub, own, params, rng, out)
            forget_cards(cache)
            forget_shown(cache)
        else:
            builtin_pass(KIND_SENSIBLE, pub, own, params, rng, out, with_hilo, with_learned)
    else:
        builtin_pass(kind, pub, own, params, rng, out, with_hilo, with_learned)


@jit(inline="always")
def seat_discard(kind, pub, own, params, rng, out, cache, cdiscard, has_cdiscard, with_hilo,
                 with_learned):  # fmt: skip
    """Discards and reveal order of a seat of ``kind`` (:func:`builtin_discard`,
    or the custom ``cdiscard`` when ``has_cdiscard``; a custom strategy
    without one discards as ``"sensible"``), into ``out``. Returns the value
    of the kept five when the choice gave it (else -1), so the showdown need
    not evaluate them again. A custom discard may write anywhere in its row,
    so the seat's ``cache`` is forgotten after it."""
    if (kind == KIND_SENSIBLE or kind == KIND_CALL_DOWN) and pub[V.P_HILO] == 0:
        return discard_sensible_high(own, out)
    if with_learned is not None:
        if kind == KIND_LEARNED and pub[V.P_HILO] == 0:
            return discard_learned_high(own, params, rng, out)
    if kind == KIND_CUSTOM:
        if has_cdiscard:
            cdiscard(pub, own, params, rng, out)
            forget_cards(cache)
            forget_shown(cache)
            return np.int64(-1)
        return builtin_discard(KIND_SENSIBLE, pub, own, params, rng, out, with_hilo, with_learned)
    return builtin_discard(kind, pub, own, params, rng, out, with_hilo, with_learned)


#: the types of the public table, the seat's own row, its parameters, its
#: stream and a decision's output, as every kernel and the engine pass them
#: to a seat's built-in decisions
SEAT_TYPES = (
    types.Array(types.int32, 1, "C"), types.Array(types.int32, 1, "C"),
    types.Array(types.float64, 1, "C"), types.Array(types.uint64, 1, "C"),
    types.Array(types.int64, 1, "C"),
)  # fmt: skip


def decision_jobs(with_hilo: Any, with_learned: Any) -> list[tuple[Any, tuple[Any, ...], float]]:
    """The built-in discard and pass (:func:`builtin_discard`,
    :func:`builtin_pass`, with every family's decision they call) as compile
    jobs (:data:`~anaconda_sim.warmup.CompileJob`) for a table whose kernel
    extras are ``with_hilo, with_learned``: the largest kernels every deal
    kernel calls, listed apart so that another core compiles them while the
    phase that calls them is typed (it waits for them, then loads them).
    The weights are about their compile seconds, their callees included.

    Examples
    --------
    >>> from anaconda_sim.strategies.kinds import kernel_extras
    >>> [job[0].py_func.__name__ for job in decision_jobs(*kernel_extras(False, []))]
    ['builtin_discard', 'builtin_pass']
    """
    seat = (types.int64, *SEAT_TYPES, numba.typeof(with_hilo), numba.typeof(with_learned))
    return [(builtin_discard, seat, 4.6), (builtin_pass, seat, 1.6)]
