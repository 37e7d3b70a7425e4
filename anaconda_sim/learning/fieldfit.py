"""Learning the default field (``"learned"``) whole: its pass, its discard
and reveal order, and its betting, in one loop with a significance test on
every change and a stopping rule (:func:`learn_field`), and the command that
runs it: ``python -m anaconda_sim.learning.fieldfit``.

The field at iteration ``t`` is one ``"learned"`` strategy: the pass
weights, the show and keep tables its reveal order and discard read
(:mod:`~anaconda_sim.strategies.learned.show`, drawn at a fixed
temperature), the board-reading betting, and the equity tables that betting
reads. Each iteration

1. **screens** a best response for each decision against the field, on
   situations of :func:`~anaconda_sim.learning.exploitability` valued on
   common deals: the pass (``situations`` hands stratified over the
   starting-hand classes in the showdown model and ``pass_bet_situations``
   in chips with betting, fitted together as :func:`~anaconda_sim.learning.learn`
   does), the reveal order (``order_situations``, stratified over the
   starting-hand families, :func:`~anaconda_sim.learning.exploit.stratified_situations`;
   :func:`~anaconda_sim.learning.showfit.fit_table`), the discard
   (``discard_situations``, stratified likewise;
   :func:`~anaconda_sim.learning.showfit.fit_keep`) and the betting (one pass
   of the paired coordinate search of :mod:`~anaconda_sim.learning.betting`
   against the population field, ``bet_deals`` deals per candidate);
2. **confirms** each on data the fit did not see: a card-play decision's
   situations are split in two halves, the fit of each half chooses in the
   other, and the gain is the mean over all situations of what that choice
   is worth over the field's (the order's as the expected value of the
   kernel's draw); the betting response plays ``bet_deals`` fresh deals of
   the population field against the field's betting, paired deal by deal;
3. **keeps** a change only when its confirmed gain exceeds ``z`` standard
   errors, ``z`` the one-sided normal quantile of ``alpha / 4`` (Bonferroni
   over the four candidates of an iteration). A kept decision moves toward
   its fit on all the situations (the search's response, for the betting):
   the pass and the betting by ``1 / (t + 2)`` (the starting field is a fit
   of its own), the show and keep tables by ``1 / (t + 1)`` (the first fit
   replaces the prior): fictitious play, the field the running mean of the
   responses, which settles where a plain best-response iteration swings;
4. re-estimates the **equity tables** against the moved field on
   ``table_deals`` deals, ``settle`` times, each estimate averaged with the
   tables before (damped, as :func:`~anaconda_sim.learning.readfit.settle_tables`
   damps them: at six players, replacing the tables by the first estimate
   made the discard swing further, 0.21 -> 0.99 -> 1.51 chips per deal in
   the first three iterations, against 0.21 -> 0.88 -> 0.55 damped);
5. **measures** the field it started from: the one-decision
   exploitability of its pass, discard and reveal order with betting
   (:func:`~anaconda_sim.learning.exploitability`, ``eval_situations`` x
   ``eval_deals``), its betting's as the confirmed gain of step 2, and the
   **head to head** of the moved field against it (one seat of the new
   field among the previous one, paired with the previous field in that
   seat on the same ``bet_deals`` deals).

**Stopping rule.** Learning stops after an iteration whose head to head and
the two before it are each within two standard errors of zero (the iterates
no longer beat each other), or after ``iterations``.

Every draw comes from ``seed`` and the iteration's number, so the same seed
gives the same field, and a run that is stopped resumes from its
``checkpoint`` (written whole after every iteration) to the same field as a
run that was not.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import shlex
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_deals, check_int, check_players
from ..strategies.learned.fielddata import CARD_NAMES, FIELD_FILE, board_reading_sources
from ..strategies.learned.params import (
    PASS_FEATURES,
    READ_BET_NAMES,
)
from ..strategies.learned.show import keep_prior, show_prior
from ..strategies.spec import Strategy, get_strategy
from .betting import coordinate_search, deviation_gain, population_nets, read_steps
from .equity import EquityTables, estimate_equity, stored_arrays, table_sizes, write_arrays
from .exploit import exploitability, stratified_situations
from .family import child_seed
from .readfit import damped_tables
from .showfit import (
    ORDER_TEMPERATURE,
    DiscardData,
    OrderData,
    discard_values,
    fit_keep,
    fit_table,
    keep_policy_values,
    order_policy_values,
    order_values,
    show_strategy,
)
from .tables import fit_weights, pass_betting_table, pass_table, stratified_hands, unit_regret

__all__ = [
    "DECISIONS",
    "FieldFit",
    "FieldState",
    "confirmed_gain",
    "discard_candidate",
    "field_strategy",
    "keep_threshold",
    "learn_field",
    "main",
    "order_candidate",
    "ship_field",
    "shipped_field_path",
    "stopping_rule",
]

#: the field's decisions, in the order of the history's columns
DECISIONS = ("pass", "order", "discard", "bet")
#: reveal-order situations screened each iteration by default (the
#: seven-player field is learned on 900: ``--order-situations``)
ORDER_SITUATIONS = 300
#: the card-play parameters of ``"learned"``: the pass weights, then the
#: order weights (unused once the field reads a show table)
PASS_NAMES = tuple(f"w_{f}" for f in PASS_FEATURES)
#: the head to head's band, in standard errors, for the stopping rule
_STOP_Z = 2.0
_STOP_WINDOW = 3


def keep_threshold(alpha: float, candidates: int) -> float:
    """The confirmed gain, in standard errors, a change needs to be kept: the
    one-sided normal quantile of ``alpha / candidates`` (Bonferroni).

    Examples
    --------
    >>> round(keep_threshold(0.05, 4), 3)
    2.241
    >>> round(keep_threshold(0.05, 1), 3)
    1.645
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha!r} must be in (0, 1): the chance of keeping a change "
                         "that gains nothing")  # fmt: skip
    return NormalDist().inv_cdf(1.0 - alpha / check_int(candidates, "candidates", low=1))


def confirmed_gain(gains: np.ndarray) -> tuple[float, float]:
    """The mean of paired ``gains`` (one per situation or deal) and its
    standard error (0 when fewer than two).

    Examples
    --------
    >>> confirmed_gain(np.array([1.0, 3.0]))
    (2.0, 1.0)
    """
    gains = np.asarray(gains, dtype=np.float64)
    if len(gains) < 2:
        return (float(gains.mean()) if len(gains) else 0.0), 0.0
    return float(gains.mean()), float(gains.std(ddof=1) / math.sqrt(len(gains)))


@dataclasses.dataclass(frozen=True)
class FieldState:
    """One field of the loop: every parameter of a ``"learned"`` strategy.

    Attributes
    ----------
    card : dict
        The card-play weights by name (:data:`CARD_NAMES`).
    betting : dict
        The board-reading betting by name (``READ_BET_NAMES``).
    show, keep : ndarray
        The show table (flat, 288) and the keep table (13).
    temperature : float
        The temperature of the reveal order's draw.
    tables : EquityTables
        The equity tables the betting reads.
    keep_temperature : float
        The temperature of the discard's draw among the fives (0: the five
        of best score).
    """

    card: dict[str, float]
    betting: dict[str, float]
    show: np.ndarray
    keep: np.ndarray
    temperature: float
    tables: EquityTables
    keep_temperature: float = 0.0

    def strategy(self) -> Strategy:
        """The field as a ``"learned"`` strategy."""
        return field_strategy(self.card, self.betting, self.tables, self.show,
                              self.temperature, self.keep, self.keep_temperature)  # fmt: skip


def field_strategy(card: dict[str, float], betting: dict[str, float], tables: EquityTables,
                   show: np.ndarray, temperature: float, keep: np.ndarray,
                   keep_temperature: float = 0.0) -> Strategy:  # fmt: skip
    """``"learned"`` with the card weights ``card``, the betting ``betting``,
    its own equity ``tables`` and its own show array (``temperature``, the
    show table ``show``, the keep table ``keep``, ``keep_temperature``)."""
    return show_strategy({**card, **betting}, tables, show, temperature, keep, name="learned",
                         keep_temperature=keep_temperature)  # fmt: skip


@dataclasses.dataclass(frozen=True)
class FieldFit:
    """What :func:`learn_field` returns: the last field, one history row per
    iteration (the module docstring's measures, ``*_exploitability`` and
    ``*_se`` of the field the iteration started from, ``*_gain``,
    ``*_gain_se`` and ``*_kept`` of each candidate, ``bet_changes``,
    ``h2h_chips`` and ``h2h_se``, ``seconds`` and ``cpu_seconds``), whether
    the stopping rule ended it, and the settings it ran with."""

    players: int
    seed: int
    state: FieldState
    history: pd.DataFrame
    converged: bool
    settings: dict[str, Any]

    def strategy(self) -> Strategy:
        """The learned field as a ``"learned"`` strategy."""
        return self.state.strategy()


def learn_field(
    players: int,
    *,
    iterations: int = 16,
    situations: int = 200,
    deals: int = 1000,
    pass_bet_situations: int = 80,
    order_situations: int = ORDER_SITUATIONS,
    discard_situations: int = 150,
    card_deals: int = 300,
    bet_deals: int = 20_000,
    table_deals: int = 100_000,
    settle: int = 1,
    eval_situations: int = 60,
    eval_deals: int = 600,
    temperature: float = ORDER_TEMPERATURE,
    keep_temperature: float = 0.0,
    alpha: float = 0.05,
    strangers: tuple[str, ...] = ("sensible",),
    fitted: tuple[str, ...] = DECISIONS,
    seed: int = 2026,
    checkpoint: str | Path | None = None,
    log: Any = None,
) -> FieldFit:
    """Learn the default field at ``players`` seats (module docstring).

    Parameters
    ----------
    players
        Table size, 2 to 7.
    iterations
        At most this many iterations (fewer when the stopping rule holds: at
        six players it held after 13 with the other defaults).
    situations, deals
        Stratified hands of the pass fit in the showdown model, and deals per hand.
    pass_bet_situations, order_situations, discard_situations
        Situations of the pass valued with betting, of the reveal order and
        of the discard (each at least 4: they are split in two halves).
    card_deals
        Deals per situation of those three.
    bet_deals
        Deals per candidate of the betting search, of its confirmation and
        of the head to head.
    table_deals
        Deals of each estimate of the equity tables.
    settle
        Estimates of the equity tables per iteration (at least 1), each
        averaged with the tables before.
    eval_situations, eval_deals
        The one-decision exploitability measured each iteration.
    temperature
        The temperature of the field's draw of its reveal order.
    keep_temperature
        The temperature of the field's draw of its discard among the fives
        (0: the five of best score): above 0 the keep table is fitted as
        the softmax policy the kernel draws from, and a fit's gain is the
        expected value of that draw, so that averaging the fitted tables
        averages discard policies that move smoothly.
    alpha
        The chance, per iteration, of keeping a change that gains nothing
        (split over the four candidates).
    strangers
        Strategy specs that sit in one seat of the betting search's
        population field (empty: self-play only).
    fitted
        The decisions the loop fits (of :data:`DECISIONS`); the others keep
        the starting field's and are only measured (their gain columns are
        NaN), and the Bonferroni threshold is over the decisions fitted.
    seed
        An int.
    checkpoint
        An npz file written after every iteration; a run given one that
        exists resumes from it (the same players, seed and settings, or an
        error says which differ).
    log
        A callable told one line per iteration.

    Returns
    -------
    FieldFit

    Examples
    --------
    >>> fit = learn_field(2, iterations=1, situations=8, deals=40, pass_bet_situations=4,
    ...                   order_situations=4, discard_situations=4, card_deals=20,
    ...                   bet_deals=200, table_deals=400, eval_situations=2, eval_deals=20,
    ...                   seed=1)
    >>> fit.history[["iteration", "order_kept"]].to_dict("records")[0]["iteration"]
    0
    >>> fit.strategy().name
    'learned'
    """
    players = check_players(players)
    check_int(iterations, "iterations", low=1)
    for name, value, low in (("situations", situations, 2), ("deals", deals, 2),
                             ("pass_bet_situations", pass_bet_situations, 4),
                             ("order_situations", order_situations, 4),
                             ("discard_situations", discard_situations, 4),
                             ("card_deals", card_deals, 2), ("bet_deals", bet_deals, 2),
                             ("table_deals", table_deals, 2), ("settle", settle, 1),
                             ("eval_situations", eval_situations, 2),
                             ("eval_deals", eval_deals, 2)):  # fmt: skip
        check_deals(value, name, low=low)
    if not 0.0 <= temperature < 10.0:
        raise ValueError(f"temperature={temperature!r} must be in [0, 10): the order's draw "
                         "(0: the order of best score)")  # fmt: skip
    if not 0.0 <= keep_temperature < 10.0:
        raise ValueError(f"keep_temperature={keep_temperature!r} must be in [0, 10): the "
                         "discard's draw (0: the five of best score)")  # fmt: skip
    if isinstance(fitted, str) or not set(fitted) <= set(DECISIONS) or not fitted:
        raise ValueError(f"fitted={fitted!r} must name one or more of {DECISIONS}")
    fitted = tuple(d for d in DECISIONS if d in fitted)
    z = keep_threshold(alpha, len(fitted))
    seed = check_int(seed, "seed", fix="give seed as an int: learning is seeded")
    if isinstance(strangers, str):
        raise TypeError(f"strangers={strangers!r} must be a sequence of strategy specs, "
                        f"for example ({strangers!r},)")  # fmt: skip
    settings = {"players": players, "seed": seed, "situations": situations, "deals": deals,
                "pass_bet_situations": pass_bet_situations,
                "order_situations": order_situations, "discard_situations": discard_situations,
                "card_deals": card_deals, "bet_deals": bet_deals, "table_deals": table_deals,
                "settle": settle,
                "eval_situations": eval_situations, "eval_deals": eval_deals,
                "temperature": float(temperature), "alpha": float(alpha),
                "keep_temperature": float(keep_temperature),
                "strangers": list(strangers), "fitted": list(fitted)}  # fmt: skip
    path = None if checkpoint is None else Path(checkpoint)
    if path is not None and path.exists():
        state, rows = _load(path, settings)
    else:
        state, rows = _start(players, float(temperature), table_deals, seed,
                             float(keep_temperature)), []  # fmt: skip
    while len(rows) < iterations and not stopping_rule(rows):
        began, cpu = time.perf_counter(), time.process_time()
        row, state = _iteration(settings, state, len(rows), z)
        row["seconds"] = round(time.perf_counter() - began, 1)
        row["cpu_seconds"] = round(time.process_time() - cpu, 1)
        rows.append(row)
        if path is not None:
            _save(path, settings, state, rows)
        if log is not None:
            log(_summary(players, row))
    return FieldFit(players, seed, state, pd.DataFrame(rows), stopping_rule(rows), settings)


# ---------------------------------------------------------------- the loop --
def _start(players: int, temperature: float, table_deals: int, seed: int,
           keep_temperature: float = 0.0) -> FieldState:  # fmt: skip
    """``"learned-v2"`` (the board-reading field before the loop) showing and
    keeping by the priors (the discard drawn at ``keep_temperature``), with
    tables estimated against it."""
    sources = board_reading_sources("learned-v2", players)
    card, betting = dict(sources.card), dict(sources.betting)
    show, keep = show_prior(), keep_prior()
    start = dataclasses.replace(get_strategy("learned-v2", **card, **betting),
                                equity=tuple(sources.equity),
                                show=(temperature, *show, *keep, keep_temperature))  # fmt: skip
    tables = estimate_equity(players, start, deals=table_deals, seed=child_seed(seed, 0))
    return FieldState(card, betting, show, keep, temperature, tables, keep_temperature)


def _halves(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The two halves of ``n`` situations: even and odd indices."""
    index = np.arange(n)
    return index[index % 2 == 0], index[index % 2 == 1]


def _pass_candidate(s: dict[str, Any], field: Strategy, w: np.ndarray, t: int,
                    ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The pass's fit on all situations and the confirmed gains (chips, one
    per situation valued with betting) of the half fits."""
    players, seed = s["players"], s["seed"]
    hands = stratified_hands(s["situations"], child_seed(seed, t, 1))
    features, values = pass_table(hands, players, field, s["deals"], child_seed(seed, t, 2))
    b_features, b_values = pass_betting_table(players, field, s["pass_bet_situations"],
                                              s["card_deals"], child_seed(seed, t, 3))  # fmt: skip

    def fit(rows: np.ndarray | None, b_rows: np.ndarray | None) -> np.ndarray:
        f = features if rows is None else features[rows]
        v = values if rows is None else values[rows]
        bf = b_features if b_rows is None else b_features[b_rows]
        bv = b_values if b_rows is None else b_values[b_rows]
        return fit_weights(np.concatenate([f, bf]),
                           np.concatenate([unit_regret(v), unit_regret(bv)]), w)  # fmt: skip

    def choice(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return np.asarray(b_values[rows, np.argmax(b_features[rows] @ weights, axis=1)])

    gains = np.empty(len(b_values))
    a, b = _halves(len(hands))
    ba, bb = _halves(len(b_values))
    for rows, b_rows, held in ((a, ba, bb), (b, bb, ba)):
        gains[held] = choice(fit(rows, b_rows), held) - choice(w, held)
    return fit(None, None), gains


def order_candidate(data: OrderData, show: np.ndarray, temperature: float,
                    ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The show table's fit to ``data`` from ``show``, and its confirmed
    gains: for each situation, the expected value (chips) of the order drawn
    at ``temperature`` from the fit of the other half of the situations,
    less that of ``show``'s draw."""
    gains = _cross_fitted(len(data.own), lambda rows: _order_rows(data, rows),
                          lambda part: fit_table(show, part, temperature),
                          lambda table, part: order_policy_values(table, temperature, part),
                          show)  # fmt: skip
    return fit_table(show, data, temperature), gains


def _order_rows(data: OrderData, rows: np.ndarray) -> OrderData:
    return OrderData(data.own[rows], data.features[rows], data.values[rows],
                     data.candidates[rows])  # fmt: skip


def discard_candidate(data: DiscardData, keep: np.ndarray, temperature: float = 0.0,
                      ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The keep table's fit to ``data`` from ``keep``, and its confirmed
    gains: for each situation, the value (chips) of the five the fit of the
    other half of the situations keeps, less that of ``keep``'s five (each
    the expected value of the draw at ``temperature`` when it is above 0)."""

    def rows_of(rows: np.ndarray) -> DiscardData:
        strength = None if data.strength is None else data.strength[rows]
        return DiscardData(data.features[rows], data.values[rows], strength)

    gains = _cross_fitted(len(data.values), rows_of,
                          lambda part: fit_keep(keep, part, temperature=temperature),
                          lambda table, part: keep_policy_values(table, temperature, part),
                          keep)  # fmt: skip
    return fit_keep(keep, data, temperature=temperature), gains


def _cross_fitted(n: int, subset: Callable[[np.ndarray], Any], fit: Callable[[Any], np.ndarray],
                  worth: Callable[[np.ndarray, Any], np.ndarray],
                  current: np.ndarray) -> np.ndarray:  # fmt: skip
    """The confirmed gains of a fit over the ``n`` situations of some data:
    each half's fit (``fit(subset(rows))``) against ``current`` in the other
    half, by ``worth(table, part)`` (each situation's value of the table's
    choice)."""
    gains = np.empty(n)
    a, b = _halves(n)
    for rows, held in ((a, b), (b, a)):
        part = subset(held)
        gains[held] = worth(fit(subset(rows)), part) - worth(current, part)
    return gains


def _bet_candidate(s: dict[str, Any], state: FieldState, field: Strategy, t: int,
                   ) -> tuple[dict[str, float], list[str], np.ndarray]:  # fmt: skip
    """The betting search's response, the changes it kept, and its confirmed
    gains (one per deal of the population field, fresh deals)."""
    players, seed, strangers = s["players"], s["seed"], tuple(s["strangers"])

    def make(betting: dict[str, float]) -> Strategy:
        return field_strategy(state.card, betting, state.tables, state.show,
                              state.temperature, state.keep, state.keep_temperature)  # fmt: skip

    response, kept = coordinate_search(players, field, make, dict(state.betting),
                                       read_steps(state.betting), s["bet_deals"],
                                       child_seed(seed, t, 6), strangers)  # fmt: skip
    if not kept:
        return response, kept, np.zeros(2)
    confirm = child_seed(seed, t, 7)
    gains = population_nets(
        players, make(response), field, s["bet_deals"], confirm, strangers
    ) - population_nets(players, field, field, s["bet_deals"], confirm, strangers)
    return response, kept, gains


def _iteration(s: dict[str, Any], state: FieldState, t: int,
               z: float) -> tuple[dict[str, Any], FieldState]:  # fmt: skip
    players, seed = s["players"], s["seed"]
    field = state.strategy()
    w = np.array([state.card[name] for name in PASS_NAMES])
    # 1-2. each fitted decision's best response, screened and confirmed
    fitting = set(s["fitted"])
    none = np.full(0, np.nan)
    w_fit, pass_gains = _pass_candidate(s, field, w, t) if "pass" in fitting else (w, none)
    show_fit, order_gains, keep_fit, discard_gains = state.show, none, state.keep, none
    if "order" in fitting:
        at = child_seed(seed, t, 4)
        orders = order_values(players, field, 0, s["card_deals"], at,
                              indices=stratified_situations(s["order_situations"], at))  # fmt: skip
        show_fit, order_gains = order_candidate(orders, state.show, state.temperature)
    if "discard" in fitting:
        at = child_seed(seed, t, 5)
        picked = stratified_situations(s["discard_situations"], at)
        discards = discard_values(players, field, state.show, 0, s["card_deals"], at,
                                  indices=picked)  # fmt: skip
        keep_fit, discard_gains = discard_candidate(discards, state.keep, state.keep_temperature)
    response, bet_gains = dict(state.betting), none
    changes: list[str] = []
    if "bet" in fitting:
        response, changes, bet_gains = _bet_candidate(s, state, field, t)
    # 3. the changes kept move the field
    row: dict[str, Any] = {"iteration": t}
    kept = {}
    for decision, gains in (("pass", pass_gains), ("order", order_gains),
                            ("discard", discard_gains), ("bet", bet_gains)):  # fmt: skip
        gain, se = confirmed_gain(gains) if len(gains) else (math.nan, math.nan)
        kept[decision] = bool(gain > 0 and gain > z * se)
        row.update({f"{decision}_gain": gain, f"{decision}_gain_se": se,
                    f"{decision}_kept": kept[decision]})  # fmt: skip
    row["bet_changes"] = ",".join(changes)
    row["z"] = z
    card_rate, show_rate = 1.0 / (t + 2), 1.0 / (t + 1)
    card = dict(state.card)
    if kept["pass"]:
        for i, name in enumerate(PASS_NAMES):
            card[name] = float(w[i] + card_rate * (w_fit[i] - w[i]))
    betting = dict(state.betting)
    if kept["bet"]:
        betting = {k: round(v + card_rate * (response[k] - v), 6) for k, v in betting.items()}
    show = state.show + show_rate * (show_fit - state.show) if kept["order"] else state.show
    keep = state.keep + show_rate * (keep_fit - state.keep) if kept["discard"] else state.keep
    # 4. the equity tables of the moved field, damped
    tables = state.tables
    for i in range(s["settle"]):
        moved = field_strategy(card, betting, tables, show, state.temperature, keep,
                               state.keep_temperature)  # fmt: skip
        at = child_seed(seed, t, 8) if i == 0 else child_seed(seed, t, 8, i)
        tables = damped_tables(estimate_equity(players, moved, deals=s["table_deals"], seed=at),
                               tables)  # fmt: skip
    after = FieldState(card, betting, show, keep, state.temperature, tables,
                       state.keep_temperature)  # fmt: skip
    # 5. the field the iteration started from, measured; the head to head
    measured = exploitability(field, players, ("pass", "order", "discard"),
                              hands=s["eval_situations"], deals=s["eval_deals"], betting=True,
                              seed=child_seed(seed, t, 9), progress=False)  # fmt: skip
    for decision in ("pass", "order", "discard"):
        line = measured[measured["decision"] == decision].iloc[0]
        row[f"{decision}_exploitability"] = float(line["value"])
        row[f"{decision}_se"] = float(line["se"])
    row["bet_exploitability"], row["bet_se"] = row["bet_gain"], row["bet_gain_se"]
    h2h = deviation_gain(players, after.strategy(), field, s["bet_deals"],
                         child_seed(seed, t, 10))  # fmt: skip
    row["h2h_chips"], row["h2h_se"] = h2h
    return row, after


def stopping_rule(rows: list[dict[str, Any]]) -> bool:
    """Whether learning stops after the iterations of ``rows`` (history rows):
    the last three head to heads each within two standard errors of zero.

    Examples
    --------
    >>> still = {"h2h_chips": 0.01, "h2h_se": 0.02}
    >>> stopping_rule([still, still]), stopping_rule([still] * 3)
    (False, True)
    >>> stopping_rule([still, still, {"h2h_chips": 0.1, "h2h_se": 0.02}])
    False
    """
    last = rows[-_STOP_WINDOW:]
    return len(last) == _STOP_WINDOW and all(
        abs(r["h2h_chips"]) <= _STOP_Z * r["h2h_se"] for r in last
    )


def _summary(players: int, row: dict[str, Any]) -> str:
    parts = [f"{d} {row[f'{d}_exploitability']:.3f}±{row[f'{d}_se']:.3f}"
             f"{' kept' if row[f'{d}_kept'] else ''}" for d in DECISIONS]  # fmt: skip
    return (
        f"players={players} iteration {row['iteration']}: "
        + ", ".join(parts)
        + f"; head to head {row['h2h_chips']:+.3f}±{row['h2h_se']:.3f} "
        f"({row['cpu_seconds']:.0f} s CPU)"
    )


# ------------------------------------------------------------ checkpoints --
#: the arrays of one table size's field in ``field.npz`` (each with ``_{players}``)
_ARRAY_NAMES = ("card", "betting", "show", "keep", "temperature", "factor", "curve", "pairs",
                "decisions", "tables_model")  # fmt: skip


def _arrays(state: FieldState) -> dict[str, np.ndarray]:
    return {"card": np.array([state.card[n] for n in CARD_NAMES]),
            "betting": np.array([state.betting[n] for n in READ_BET_NAMES]),
            "show": np.asarray(state.show, dtype=np.float64),
            "keep": np.asarray(state.keep, dtype=np.float64),
            "temperature": np.array(state.temperature),
            "keep_temperature": np.array(state.keep_temperature),
            "factor": state.tables.factor, "curve": state.tables.curve,
            "pairs": state.tables.pairs, "decisions": state.tables.decisions,
            "tables_model": np.array(json.dumps(state.tables.model, default=str))}  # fmt: skip


def _save(path: Path, settings: dict[str, Any], state: FieldState,
          rows: list[dict[str, Any]]) -> None:  # fmt: skip
    write_arrays(path, {**_arrays(state), "settings": np.array(json.dumps(settings)),
                        "history": np.array(json.dumps(rows))})  # fmt: skip


#: settings a checkpoint written before they existed ran with
_SETTING_DEFAULTS = {"keep_temperature": 0.0}


def _load(path: Path, settings: dict[str, Any]) -> tuple[FieldState, list[dict[str, Any]]]:
    with np.load(path) as data:
        saved = json.loads(str(data["settings"]))
        differ = sorted(k for k in settings
                        if saved.get(k, _SETTING_DEFAULTS.get(k)) != settings[k])  # fmt: skip
        if differ:
            raise ValueError(
                f"checkpoint {str(path)!r} was written with other settings ({', '.join(differ)}: "
                f"{', '.join(f'{k}={saved.get(k)!r}' for k in differ)}); give the same ones "
                "to resume, or another checkpoint file"
            )
        tables = EquityTables(data["factor"], data["curve"], data["pairs"], data["decisions"],
                              json.loads(str(data["tables_model"])))  # fmt: skip
        card = dict(zip(CARD_NAMES, map(float, data["card"]), strict=True))
        betting = dict(zip(READ_BET_NAMES, map(float, data["betting"]), strict=True))
        state = FieldState(card, betting, data["show"], data["keep"],
                           float(data["temperature"]), tables,
                           float(data.get("keep_temperature", 0.0)))  # fmt: skip
        rows = json.loads(str(data["history"]))
    return state, rows


# ---------------------------------------------------------------- command --
def main(argv: list[str] | None = None) -> int:
    """Learn the default field at each table size and write it.

    Each size runs :func:`learn_field` with a checkpoint in ``--checkpoints``
    (a stopped run resumes where it stopped) and is written to ``--out`` as
    soon as it is done: ``field.npz`` (each size's card weights, betting,
    show, keep and equity tables, and its model: the command, the settings
    and the history) and ``field_history.csv``."""
    parser = argparse.ArgumentParser(prog="python -m anaconda_sim.learning.fieldfit",
                                     description=main.__doc__.splitlines()[0])  # type: ignore[union-attr]  # fmt: skip
    parser.add_argument("--players", default="2,3,4,5,6,7", help="table sizes (comma list)")
    parser.add_argument("--out", type=Path, default=Path("field-fit"))
    parser.add_argument(
        "--checkpoints",
        type=Path,
        default=None,
        help="folder of the checkpoints (default: OUT/checkpoints)",
    )
    parser.add_argument("--iterations", type=int, default=16)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--temperature", type=float, default=ORDER_TEMPERATURE,
                        help="temperature of the field's reveal-order draw")  # fmt: skip
    parser.add_argument("--order-situations", type=int, default=ORDER_SITUATIONS,
                        help="situations of the reveal order screened each iteration")  # fmt: skip
    parser.add_argument("--keep-temperature", type=float, default=0.0,
                        help="temperature of the field's discard draw (0: the five of best "
                        "score)")  # fmt: skip
    parser.add_argument(
        "--ship",
        type=Path,
        default=None,
        metavar="FIELD_NPZ",
        help="instead of learning, copy the sizes of --players from FIELD_NPZ (a field.npz "
        "this command wrote) into the package's shipped field, the default 'learned'",
    )
    args = parser.parse_args(argv)
    if args.ship is not None:
        sizes = table_sizes(parser, args.players)
        ship_field(args.ship, sizes)
        print(f"players={','.join(map(str, sizes))}: shipped from {args.ship} to "
              f"{shipped_field_path()}")  # fmt: skip
        return 0
    sizes = table_sizes(parser, args.players)
    checkpoints = args.checkpoints or args.out / "checkpoints"
    command = (
        f"python -m anaconda_sim.learning.fieldfit --players {shlex.quote(args.players)} "
        f"--iterations {args.iterations} --seed {args.seed}"
        + (f" --temperature {args.temperature}" if args.temperature != ORDER_TEMPERATURE else "")
        + (f" --keep-temperature {args.keep_temperature}" if args.keep_temperature else "")
        + (f" --order-situations {args.order_situations}"
           if args.order_situations != ORDER_SITUATIONS else "")
    )
    for players in sizes:
        fit = learn_field(players, iterations=args.iterations, seed=args.seed,
                          temperature=args.temperature, keep_temperature=args.keep_temperature,
                          order_situations=args.order_situations,
                          checkpoint=checkpoints / f"field_{players}.npz", log=print)  # fmt: skip
        _write(args.out, fit, command)
        print(f"players={players}: written to {args.out}", flush=True)
    return 0


def shipped_field_path() -> Path:
    """The package's shipped field (``strategies/learned/data/field.npz``):
    what ``"learned"`` plays at each table size it holds."""
    return Path(__file__).resolve().parent.parent / "strategies" / "learned" / FIELD_FILE


def ship_field(source: Path, sizes: Sequence[int], target: Path | None = None) -> None:
    """Copy the fields of ``sizes`` from ``source`` (a ``field.npz`` that
    :func:`main` wrote) into ``target`` (default: :func:`shipped_field_path`),
    keeping the other sizes there; whole or not at all.

    A size ``source`` lacks, or learned with a model of other shapes, is
    refused before anything is written."""
    have = stored_arrays(Path(source))
    target = shipped_field_path() if target is None else Path(target)
    arrays = stored_arrays(target)
    for p in sizes:
        names = [f"{name}_{p}" for name in (*_ARRAY_NAMES, "model")]
        # a field learned before the discard had a temperature has none (0)
        names += [name for name in (f"keep_temperature_{p}",) if name in have]
        missing = [name for name in names if name not in have]
        if missing:
            raise ValueError(
                f"{str(source)!r} holds no learned field for players={p} (missing "
                f"{', '.join(missing)}); learn it first: python -m anaconda_sim.learning.fieldfit "
                f"--players {p} --out DIR"
            )
        if have[f"card_{p}"].shape != (len(CARD_NAMES),) or \
                have[f"betting_{p}"].shape != (len(READ_BET_NAMES),):  # fmt: skip
            raise ValueError(
                f"the field for players={p} in {str(source)!r} has {have[f'card_{p}'].size} card "
                f"weights and {have[f'betting_{p}'].size} betting parameters; this version "
                f"takes {len(CARD_NAMES)} and {len(READ_BET_NAMES)}: learn it again"
            )
        arrays.update((name, have[name]) for name in names)
    write_arrays(target, arrays)


def _write(out: Path, fit: FieldFit, command: str) -> None:
    """Add ``fit``'s size to ``out``/field.npz and ``out``/field_history.csv."""
    target = out / "field.npz"
    arrays = stored_arrays(target)
    p = fit.players
    for name, value in _arrays(fit.state).items():
        arrays[f"{name}_{p}"] = value
    model = {"players": p, "command": command, "settings": fit.settings,
             "converged": fit.converged, "history": fit.history.to_dict("records"),
             "field": fit.strategy().spec()}  # fmt: skip
    arrays[f"model_{p}"] = np.array(json.dumps(model, default=str))
    write_arrays(target, arrays)
    history = out / "field_history.csv"
    frame = fit.history.assign(players=p)
    if history.exists():
        frame = pd.concat([pd.read_csv(history).query("players != @p"), frame])
    frame.to_csv(history, index=False)


if __name__ == "__main__":
    raise SystemExit(main())
