"""The hands and parameter vectors the learned decisions are checked on
(test_decisions_exact.py, test_pass_tables.py), and a loop that makes one
decision per hand."""

from __future__ import annotations

import numpy as np
from numba import njit

from anaconda_sim.strategies.learned.params import (
    LEARNED_RANGES,
    N_ORDER,
    N_PASS,
    O0,
    PARAM_NAMES,
    as_array,
    shipped_params,
    shipped_win_table,
)
from anaconda_sim.table import views as V

HANDS = 200_000


def parameter_vectors(slots: int) -> list[tuple[str, np.ndarray]]:
    """14 named vectors of ``slots`` slots: the shipped ones for 2-7 players,
    four drawn inside the family's ranges (two of them up to +-1000), four of
    small whole numbers (exact ties common; the last ties every order)."""
    vectors = [(f"shipped {n}p", as_array(shipped_params(n), shipped_win_table(n), slots))
               for n in range(2, 8)]  # fmt: skip
    rng = np.random.default_rng(2026)
    base = as_array(shipped_params(6), shipped_win_table(6), slots)
    for i in range(4):
        v = base.copy()
        for j, name in enumerate(PARAM_NAMES[: N_PASS + N_ORDER]):
            low, high = LEARNED_RANGES[name].low, LEARNED_RANGES[name].high
            scale = min(high, 5.0) if i < 2 else min(high, 1000.0)
            v[j] = rng.uniform(max(low, -scale), scale)
        vectors.append((f"random {i}", v))
    for i in range(4):
        v = base.copy()
        v[: N_PASS + N_ORDER] = rng.integers(-2, 3, N_PASS + N_ORDER)
        if i == 3:
            v[O0 : O0 + N_ORDER] = 0.0  # every order ties: the first must win
        vectors.append((f"whole {i}", v))
    return vectors


def random_hands(seed: int, count: int = HANDS) -> np.ndarray:
    """``count`` random seven-card hands (distinct cards, in random order)."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7].astype(np.int32)


@njit(cache=False)
def hold(own, hand):
    """Seat view ``own`` holding the seven cards of ``hand``."""
    own[V.O_NCARDS] = 7
    for j in range(7):
        own[V.O_CARDS + j] = hand[j]


@njit(cache=False)
def passes_of(kernel, hands, params):
    """The three cards ``kernel`` (a pass kernel) passes from each hand."""
    chosen = np.empty((hands.shape[0], 3), dtype=np.int32)
    own = np.zeros(V.OWN_SIZE, dtype=np.int32)
    out = np.zeros(8, dtype=np.int64)  # int64, as the deal kernels pass it
    for i in range(hands.shape[0]):
        hold(own, hands[i])
        kernel(own, params, out)
        for j in range(3):
            chosen[i, j] = out[j]
    return chosen
