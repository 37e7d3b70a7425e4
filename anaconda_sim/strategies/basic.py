"""``"random"``'s decisions (uniformly random legal play) and
``"random-pass"``'s pass; ``"call-down"`` and ``"random-pass"`` play
``"sensible"``'s other cards (:mod:`~anaconda_sim.strategies.sensible`) and
never bet (:mod:`~anaconda_sim.strategies.dispatch`)."""

from __future__ import annotations

from .._numba import jit
from ..rng import rand_below
from ..table import views as V
from .common import facing_bet, shuffle_prefix


@jit
def pass_random(pub, own, rng, out):
    """``pub[P_PASS_COUNT]`` held cards chosen uniformly (partial Fisher-Yates
    over the held cards in hand order)."""
    n = own[V.O_NCARDS]
    for i in range(n):
        out[i] = own[V.O_CARDS + i]
    shuffle_prefix(out, 0, n, pub[V.P_PASS_COUNT], rng)


@jit
def discard_random(own, rng, out):
    """Two held cards chosen uniformly to discard, then the other five in a
    uniformly random order (two partial Fisher-Yates shuffles)."""
    n = own[V.O_NCARDS]
    for i in range(n):
        out[i] = own[V.O_CARDS + i]
    shuffle_prefix(out, 0, n, 2, rng)
    shuffle_prefix(out, 2, n - 2, 5, rng)


@jit
def bet_random(pub, own, rng):
    """Betting intent of the ``"random"`` strategy: uniform over the legal kinds."""
    if facing_bet(pub, own):
        choices = 3 if pub[V.P_LEVEL] < pub[V.P_MAX_LEVEL] else 2
        pick = rand_below(rng, choices)
        if pick == 0:
            return V.INTENT_FOLD
        return V.INTENT_PASSIVE if pick == 1 else V.INTENT_AGGRESSIVE
    return V.INTENT_PASSIVE if rand_below(rng, 2) == 0 else V.INTENT_AGGRESSIVE
