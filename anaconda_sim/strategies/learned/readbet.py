"""The board-reading betting of the ``"learned"`` family: fold, call, bet and
raise from its equity estimate against the pot odds of each action.

The estimate ``p`` (:mod:`~anaconda_sim.strategies.learned.reads`) is the
seat's probability of winning the pot against the ``k`` active rivals, given
its cards, what each shows and what each did this deal. With ``k + 1``
seats in, a bet that everyone calls returns ``p (k + 1)`` bets for the one
put in, so (per group of rounds ``g``: before the reveals, reveal rounds
1-2, reveal rounds 3-4):

- with nothing to call, **bet** when ``p (k + 1) >= 1 + bet_margin_g``;
- facing a bet, **raise** when ``p (k + 1) >= 1 + raise_margin_g``,
  **call** when ``p (pot + to_call) >= call_factor_g * to_call`` (the pot
  odds; 1 is break-even), **fold** otherwise;
- **bluff** (bet or raise whatever the estimate) with a probability by what
  the seat itself shows: nothing yet (before the reveals), nothing of note,
  a four-card draw, a pair or better (``bluff_hidden``, ``bluff_weak``,
  ``bluff_draw``, ``bluff_strong``; R11). The random number is drawn only
  when that probability is above 0.

Thirteen parameters (:data:`~.params.READ_BET_NAMES`), fitted by the paired
best-response search of :mod:`anaconda_sim.learning.betting`.
"""

from __future__ import annotations

import numpy as np

from ..._numba import jit
from ...limits import MAX_PLAYERS
from ...rng import rand_float
from ...table import views as V
from ...table.rules import REVEAL_ROUNDS
from .params import (
    ACTION_CLASSES,
    BET_MARGIN0,
    BOARD_BLUFF0,
    CALL_FACTOR0,
    EQUITY0,
    EXPOSURE_BUCKETS,
    OWN_BUCKETS,
    RAISE_MARGIN0,
)
from .reads import action_class, action_flags, curve_value
from .winprob import seat_exposure, win_stage

__all__ = ["bet_reads", "bet_reads_from", "board_class", "read_group", "reads_equity",
           "reads_equity_from"]


@jit(inline="always")
def read_group(revealed):
    """The group of rounds of ``revealed`` cards shown: 0 before the
    reveals, 1 in reveal rounds 1-2, 2 in reveal rounds 3-4."""
    if revealed <= 0:
        return 0
    return 1 if revealed <= 2 else 2


@jit(inline="always")
def board_class(exposure, revealed):
    """What a seat shows, for its bluffs: 0 nothing yet, 1 nothing of note,
    2 a four-card draw, 3 a pair or better (its exposure bucket)."""
    if revealed <= 0:
        return 0
    if exposure == 0:
        return 1
    return 2 if exposure <= 2 else 3


@jit(inline="always")
def _equity_of(params, stage, rivals, product):
    """The estimate from the product of ``rivals`` factors (certain with no
    rival left)."""
    if rivals == 0:
        return 1.0, 0
    u = product if rivals == 1 else product ** (1.0 / rivals)
    return curve_value(params, EQUITY0, stage, rivals, u), rivals


@jit(inline="always")
def reads_equity(pub, me, params, bucket):
    """The seat ``me``'s equity estimate (own bucket ``bucket``) from the
    equity tables in ``params`` (from :data:`~.params.EQUITY0`), and the
    number of active rivals: :func:`reads_equity_from` with the rivals'
    exposure buckets computed off the table (the engine keeps no cache)."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    exposures = np.zeros(MAX_PLAYERS, dtype=np.int64)
    if revealed > 0:
        for seat in range(pub[V.P_PLAYERS]):
            if seat != me and pub[V.P_FOLDED + seat] == 0:
                exposures[seat] = seat_exposure(pub, seat, revealed)
    return reads_equity_from(pub, me, params, bucket, exposures)


@jit(inline="always")
def reads_equity_from(pub, me, params, bucket, exposures):
    """The seat ``me``'s equity estimate and the number of active rivals,
    each rival's exposure bucket read from ``exposures[seat]`` (the kernels'
    per-seat cache, valid once a card is shown): the factors multiplied in
    seat order, as :func:`~.reads.factor_mean` does, so the very same number."""
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    rnd = pub[V.P_ROUND]
    stage = win_stage(pub)
    flags = action_flags(pub)
    row = EQUITY0 + (stage * OWN_BUCKETS + bucket) * (EXPOSURE_BUCKETS * ACTION_CLASSES)
    product = 1.0
    rivals = 0
    for seat in range(pub[V.P_PLAYERS]):
        if seat == me or pub[V.P_FOLDED + seat] != 0:
            continue
        e = exposures[seat] if revealed > 0 else 0
        product *= params[row + e * ACTION_CLASSES + action_class(flags, seat, rnd)]
        rivals += 1
    return _equity_of(params, stage, rivals, product)


@jit(inline="always")
def _reads_intent(pub, own, params, rng, p, rivals, shown):
    """The intent (module docstring) on the estimate ``p`` against ``rivals``
    active rivals, the seat showing exposure bucket ``shown``."""
    seat = own[V.O_SEAT]
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    g = read_group(revealed)
    bluff_p = params[BOARD_BLUFF0 + board_class(shown, revealed)]
    bluff = bluff_p > 0.0 and rand_float(rng) < bluff_p
    edge = p * (rivals + 1)
    to_call = pub[V.P_LEVEL] * pub[V.P_BET_SIZE] - pub[V.P_IN_ROUND + seat]
    if to_call <= 0:
        if edge >= 1.0 + params[BET_MARGIN0 + g] or bluff:
            return V.INTENT_AGGRESSIVE
        return V.INTENT_PASSIVE
    if edge >= 1.0 + params[RAISE_MARGIN0 + g] or bluff:
        return V.INTENT_AGGRESSIVE
    if p * (pub[V.P_POT] + to_call) >= params[CALL_FACTOR0 + g] * to_call:
        return V.INTENT_PASSIVE
    return V.INTENT_FOLD


@jit
def bet_reads(pub, own, params, rng, bucket):
    """Betting intent of a board-reading ``"learned"`` seat whose own cards
    are in strength bucket ``bucket`` (module docstring)."""
    seat = own[V.O_SEAT]
    revealed = min(pub[V.P_REVEALED], REVEAL_ROUNDS)
    p, rivals = reads_equity(pub, seat, params, bucket)
    shown = seat_exposure(pub, seat, revealed) if revealed > 0 else 0
    return _reads_intent(pub, own, params, rng, p, rivals, shown)


@jit
def bet_reads_from(pub, own, params, rng, bucket, exposures):
    """:func:`bet_reads` with every seat's exposure bucket read from
    ``exposures[seat]`` (the kernels' per-seat cache, valid once a card is
    shown): the same intent."""
    seat = own[V.O_SEAT]
    p, rivals = reads_equity_from(pub, seat, params, bucket, exposures)
    shown = exposures[seat] if pub[V.P_REVEALED] > 0 else 0
    return _reads_intent(pub, own, params, rng, p, rivals, shown)
