"""The tables the learning fits to and their regret: the value of every
pass and reveal order in sampled situations (:func:`pass_table`,
:func:`pass_betting_table`, :func:`order_table`), the softmax fit of the
weights to them (:func:`fit_weights`, the loss of :mod:`~anaconda_sim.learning.fit`)
and the regret of its argmax (:func:`argmax_regret`); and the win table of
a field's card play (:func:`estimate_win_table`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..analysis.driver import BatchRun, sampling
from ..cards import parse_cards
from ..hands.classes import hand_classes, sample_hands
from ..sim.models import score_passes, showdown_kernel_strategies
from ..sim.simulator import simulate
from ..stats import systematic_sample
from ..strategies.learned.params import (
    N_ORDER,
    N_PASS,
    WIN_TABLE_SHAPE,
)
from ..strategies.learned.play import order_features_of, pass_features_of
from ..strategies.learned.winprob import tally_pairs
from .exploit import situation_values
from .family import child_seed, passive_variant

__all__ = [
    "argmax_regret",
    "estimate_win_table",
    "fit_weights",
    "order_table",
    "pass_betting_table",
    "pass_table",
    "stratified_hands",
    "unit_regret",
]


# ------------------------------------------------------------------- pass --
def stratified_hands(n: int, seed: int) -> list[list[int]]:
    """``n`` starting hands, stratified over the starting-hand classes:
    class ``i`` is drawn by systematic sampling of the class probabilities
    (one random offset), then a hand uniformly from that class."""

    table = hand_classes()
    rng = np.random.default_rng(seed)
    classes = systematic_sample(table["probability"].to_numpy(), n, rng.random())
    return [parse_cards(sample_hands(int(c), 1, seed=child_seed(seed, i))[0])
            for i, c in enumerate(classes)]  # fmt: skip


def pass_table(hands: Sequence[Sequence[int]], players: int, field_strategy: Any, deals: int,
               seed: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Features ``(hands, 35, N_PASS)`` and values ``(hands, 35)`` of every pass
    against the field (showdown model, common random numbers per hand)."""
    import itertools

    opponents = [field_strategy] * (players - 1)
    showdown_kernel_strategies(opponents)  # refuse a custom field before any hand
    features = np.empty((len(hands), 35, N_PASS))
    values = np.empty((len(hands), 35))
    for i, hand in enumerate(hands):
        hero7 = np.array(hand, dtype=np.int64)
        pass_features_of(hero7, features[i])
        choices = np.array(list(itertools.combinations(hand, 3)), dtype=np.int64)
        options = sampling(deals=deals, precision=None, max_deals=deals, seed=child_seed(seed, i),
                           batch_size=None, progress=False, unicode=False)  # fmt: skip
        run = BatchRun.of(options, options.batch(), "passes")
        scores = score_passes(run.batches, options.key, players, opponents, hand, choices)
        values[i] = scores.acc.mean()
    return features, values


def pass_betting_table(players: int, field_strategy: Any, situations: int, deals: int,
                       seed: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Features ``(situations, 35, N_PASS)`` and values in chips
    ``(situations, 35)`` of every pass with betting, the field playing
    ``field_strategy``: the situations and the model of
    :func:`~anaconda_sim.learning.exploitability`'s ``"pass"`` decision with
    ``betting=True`` (common random numbers per situation)."""
    return _situation_table(players, field_strategy, "pass", situations, deals, seed, N_PASS)


def _situation_table(
    players: int,
    field_strategy: Any,
    decision: str,
    situations: int,
    deals: int,
    seed: int,
    width: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Features and values in chips, with betting, of every choice of
    ``situations`` situations of ``decision`` (``"pass"`` or ``"order"``)."""

    values: np.ndarray | None = None
    features: np.ndarray | None = None
    for i in range(situations):
        choices, row = situation_values(field_strategy, players, decision, seed, i, deals,
                                        betting=True)  # fmt: skip
        if values is None or features is None:
            values = np.empty((situations, len(row)))
            features = np.empty((situations, len(row), width))
        values[i] = row
        if decision == "pass":
            # the 35 passes are itertools.combinations of the dealt seven, so
            # the cards in order of first appearance are the seven in order
            dealt = np.array(list(dict.fromkeys(choices.reshape(-1).tolist())), dtype=np.int64)
            pass_features_of(dealt, features[i])
        else:
            for k, order in enumerate(choices):
                order_features_of(order, features[i, k])
    assert values is not None and features is not None
    return features, values


def unit_regret(values: np.ndarray, available: np.ndarray | None = None) -> np.ndarray:
    """Each choice's value minus its situation's best, divided by the mean
    range across situations (so blocks in pot share and in chips weigh
    alike); only the ``available`` choices count (all when ``None``), the
    others' regret is 0."""
    if available is not None:
        values = np.where(available, values, -np.inf)
    best = values.max(axis=1, keepdims=True) if values.size else values
    worst = (np.where(np.isfinite(values), values, np.inf).min(axis=1, keepdims=True)
             if values.size else values)  # fmt: skip
    regret = np.where(np.isfinite(values), values - best, 0.0)
    spread = float(np.mean(best - worst)) if len(values) else 0.0
    return regret / spread if spread > 0 else regret


def fit_weights(features: np.ndarray, values: np.ndarray, start: np.ndarray, *,
                steps: int = 400, l2: float = 1e-4, tau_end: float = 0.05,
                available: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """The weights maximising ``J(w)`` (module docstring) from ``start``:
    ``features`` ``(situations, choices, features)``, ``values``
    ``(situations, choices)``. The values are scaled by their mean range
    across situations first, so the same step sizes suit pot shares and
    chips. The temperature falls from 0.5 to ``tau_end``; ``available``
    (``(situations, choices)`` bools, ``None``: all) leaves the other choices
    out of each situation's softmax."""
    regret = unit_regret(values, available)  # <= 0; the best choice is 0
    w = start.astype(np.float64).copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    ratio = tau_end / 0.5
    for step in range(steps):
        tau = 0.5 * (ratio ** (step / max(steps - 1, 1)))  # 0.5 -> tau_end
        logits = features @ w / tau
        if available is not None:
            logits = np.where(available, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        policy = np.exp(logits)
        policy /= policy.sum(axis=1, keepdims=True)
        expected = (policy * regret).sum(axis=1, keepdims=True)
        # dJ/dw = mean_i sum_k pi_ik (r_ik - E_i r) F_ik / tau - 2 l2 w
        weights = policy * (regret - expected) / tau
        grad = np.einsum("ik,ikf->f", weights, features) / len(features) - 2 * l2 * w
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        m_hat = m / (1 - beta1 ** (step + 1))
        v_hat = v / (1 - beta2 ** (step + 1))
        w += rate * m_hat / (np.sqrt(v_hat) + 1e-12)
    return w


def argmax_regret(features: np.ndarray, values: np.ndarray, w: np.ndarray) -> float:
    """Mean value lost by the argmax choice of weights ``w`` against the best choice."""
    chosen = np.argmax(features @ w, axis=1)
    return float(np.mean(values.max(axis=1) - values[np.arange(len(values)), chosen]))


# -------------------------------------------------------------- win table --
def estimate_win_table(
    players: int, strategy: Any, deals: int, seed: int, *, prior: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """The win table of a field playing ``strategy``'s card play at
    ``players`` seats, from ``deals`` complete deals in which nobody folds.

    Each entry is ``(wins + prior / 2) / (pairs + prior)`` over the ordered
    pairs of seats that fell in it (a tie counts half): the rate shrunk
    toward 1/2 by ``prior`` pseudo-pairs, so a bucket never seen is 1/2 and a
    rare one is not 0 or 1 by chance.

    Returns the flat table (:data:`~anaconda_sim.strategies.learned.params.WIN_TABLE_SIZE`)
    and the number of pairs behind each entry (same shape).

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> table, pairs = estimate_win_table(3, get_strategy("sensible"), 500, seed=1)
    >>> table.shape, int(pairs.reshape(6, 12, 8)[0].sum())
    ((576,), 3000)
    """

    result = simulate(players, [passive_variant(strategy)] * players, deals, seed=seed,
                      records=True, progress=False)  # fmt: skip
    records = result.records
    assert records is not None
    records = records.sort_values(["deal", "seat"], kind="stable")

    def cards(prefix: str, count: int) -> np.ndarray:
        columns = [f"{prefix}_{k}" for k in range(count)]
        return records[columns].to_numpy(dtype=np.int64).reshape(deals, players, count)

    dealt = cards("dealt", 7)
    five = cards("hand", 5)
    discards = cards("discard", 2)
    held = np.concatenate([five, discards], axis=2)
    value = records["value"].to_numpy(dtype=np.int64).reshape(deals, players)
    if (value < 1).any():
        raise RuntimeError("a seat folded in the passive field; the win table needs showdowns")
    wins = np.zeros(WIN_TABLE_SHAPE, dtype=np.int64)
    pairs = np.zeros(WIN_TABLE_SHAPE, dtype=np.int64)
    tally_pairs(dealt, held, five, value, wins, pairs)
    table = (wins / 2 + prior / 2) / (pairs / 2 + prior)
    return table.reshape(-1), (pairs // 2).reshape(-1)


# ------------------------------------------------------------------ order --
def order_table(players: int, field_strategy: Any, situations: int, deals: int,
                seed: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Features ``(situations, 120, N_ORDER)`` and values in chips
    ``(situations, 120)`` of every reveal order of the kept five, with
    betting, the field playing ``field_strategy``: the situations and the
    model of :func:`~anaconda_sim.learning.exploitability`'s ``"order"``
    decision (the seat and its right neighbour pass and the seat discards
    by the field's strategy; common random numbers per situation)."""
    return _situation_table(players, field_strategy, "order", situations, deals, seed, N_ORDER)
