"""The kernel dispatch: each decision of a built-in strategy by its kind.

The batch simulator's kernels and the reference engine's :class:`Strategy`
call these, with a table's :func:`~anaconda_sim.strategies.kinds.kernel_extras`,
so both engines play the same code.
"""

from __future__ import annotations

from .._numba import jit
from ..limits import HAND_SIZE, PASS_SIZE
from ..table import views as V
from .basic import bet_random, discard_random, pass_random
from .hilo import discard_hilo, pass_sensible_hilo, sensible_strength
from .kinds import KIND_LEARNED, KIND_RANDOM, KIND_RANDOM_PASS, KIND_SENSIBLE
from .learned.play import bet_learned_at, learned_bucket, order_learned, pass_learned
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


@jit
def builtin_pass(kind, pub, own, params, rng, out, with_hilo, with_learned):
    """Cards passed by built-in strategy ``kind`` (written to ``out``);
    ``with_hilo``, ``with_learned``: :func:`kernel_extras` of the table."""
    if kind == KIND_RANDOM or kind == KIND_RANDOM_PASS:
        pass_random(pub, own, rng, out)
        return
    if with_learned is not None:
        if kind == KIND_LEARNED and _learned_pass_applies(pub, own):
            pass_learned(own, params, out)
            return
    if with_hilo is not None:
        if pub[V.P_HILO] != 0:
            pass_sensible_hilo(pub, own, out)
            return
    pass_sensible(pub, own, out)


@jit(inline="always")
def _learned_pass_applies(pub, own):
    """The learned pass scores a pass of three of seven under the high
    showdown; other passes (other rule sets, hi-lo) are "sensible"'s."""
    return pub[V.P_PASS_COUNT] == PASS_SIZE and own[V.O_NCARDS] == HAND_SIZE and pub[V.P_HILO] == 0


@jit
def builtin_discard(kind, pub, own, params, rng, out, with_hilo, with_learned):
    """Discards and reveal order of built-in strategy ``kind`` (into ``out``);
    ``with_hilo``, ``with_learned``: :func:`kernel_extras` of the table."""
    if kind == KIND_RANDOM:
        discard_random(own, rng, out)
        return
    if with_hilo is not None:
        if pub[V.P_HILO] != 0:
            discard_hilo(own, out, kind != KIND_RANDOM_PASS)
            return
    # one call site of the inlined best five: each copy costs compile time
    discard_best_five(own, out, kind != KIND_RANDOM_PASS and kind != KIND_LEARNED)
    if with_learned is not None:
        if kind == KIND_LEARNED:
            order_learned(params, out)


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


@jit
def no_custom_bet(pub, own, params, rng):
    return V.INTENT_PASSIVE


@jit
def no_custom_cards(pub, own, params, rng, out):
    pass
