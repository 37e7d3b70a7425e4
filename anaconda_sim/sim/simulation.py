"""Complete deals with error bars: :func:`simulate` and its result,
:class:`SimulationResult` (the public names are also in
:mod:`anaconda_sim.sim.simulator`, which explains how a run goes).

Examples
--------
>>> result = simulate(3, "call-down", deals=500, seed=2, progress=False)
>>> result.deals, result.strategies
(500, ('call-down', 'call-down', 'call-down'))
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..hands.declare import DECLARE_NAMES
from ..hands.evaluator import CATEGORY_COLUMNS
from ..rng import SeedLike
from ..stats import SHARE_SCALE, Z95, estimate
from ..strategies.spec import Strategy
from ..table.rules import Rules
from . import layout as L
from .driver import (
    KernelRun,
    ProgressLike,
    as_rules,
    attach_records,
    check_progress,
    finish_model,
    mean_se,
    run_model,
    start_run,
)  # fmt: skip
from .records import outcome_table

__all__ = ["POT_QUANTILES", "SimulationResult", "simulate"]

#: pot quantiles of :meth:`SimulationResult.outcome_distribution`
POT_QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


@dataclass(frozen=True)
class SimulationResult:
    """Per-seat estimates from :func:`simulate` (arrays indexed by seat).

    Attributes
    ----------
    rules, strategies
        The rules and each seat's strategy name.
    deals
        Deals played (fewer than asked when ``interrupted``).
    key
        The run's root key: deal ``d`` replays in the reference engine as
        ``play_deal(rules, strategies, key=key, deal_index=d, dealer=...)``.
    mean_net, se, ci_low, ci_high
        Mean net chips per deal (won minus put in, ante included), its
        standard error and 95% confidence interval.
    win_rate, tie_rate
        Share of deals won alone (showdown or everyone else folded), and
        share of deals in which the seat split the pot.
    showdown_rate
        Share of deals in which the seat reached the showdown.
    category_freq
        ``(n, 9)``: share of deals in which the seat showed down with each
        hand category (0 high card .. 8 straight flush).
    fold_rate
        ``(n, rounds)``: share of deals in which the seat folded in each
        betting round.
    open_rate
        ``(n, rounds)``: share of deals in which the seat opened each round.
    mean_pot, pot_se
        Mean final pot and its standard error.
    high_share, low_share
        Hi-lo rules only (``None`` otherwise): mean share of the pot taken
        per deal in the high half and in the low half (R24, R25; a half
        is 1/2 of the pot, or all of it when the other side is uncontested,
        split evenly among tied winners, odd chips ignored). Pots won
        because everyone else folded count in neither half.
    high_win_rate, low_win_rate
        Hi-lo only: share of deals in which the seat won or tied the high
        half, the low half.
    declare_freq
        Hi-lo only: ``(n, 3)`` share of deals in which the seat declared
        high, low, both (columns in ``DECLARE_*`` order; the rest of the
        deals it folded or the deal ended early).
    swing_fail_rate
        Hi-lo only: share of deals in which the seat declared both and won
        nothing for it (R24).
    records
        The records (one row per deal and seat, :mod:`~anaconda_sim.sim.records`)
        when ``records=True``, else ``None``.
    records_file
        The Parquet file the records were streamed to (``records=path``),
        else ``None``.
    outcome_counts
        ``(m, 3)`` int64 rows ``(outcome, pot, deals)``: deals by outcome
        (0: no showdown, ``1 + c``: won at the showdown with category ``c``)
        and final pot, when the run counted them (``outcomes=True`` or
        records); else ``None``. See :meth:`outcome_distribution`.
    model
        What the numbers are: rules, strategies with their parameters,
        seed and root key, deals, dealer, fixed and known cards (the
        ``attrs`` of the records and of the outcome table).
    interrupted
        True when Ctrl-C stopped the run early.
    elapsed
        Wall time in seconds (compilation included on a first call).
    """

    rules: Rules
    strategies: tuple[str, ...]
    deals: int
    key: int
    dealer: int
    rotate: bool
    betting: bool
    mean_net: np.ndarray
    se: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    win_rate: np.ndarray
    tie_rate: np.ndarray
    showdown_rate: np.ndarray
    category_freq: np.ndarray
    fold_rate: np.ndarray
    open_rate: np.ndarray
    mean_pot: float
    pot_se: float
    records: pd.DataFrame | None = field(default=None, repr=False)
    interrupted: bool = False
    elapsed: float = 0.0
    high_share: np.ndarray | None = None
    low_share: np.ndarray | None = None
    high_win_rate: np.ndarray | None = None
    low_win_rate: np.ndarray | None = None
    declare_freq: np.ndarray | None = None
    swing_fail_rate: np.ndarray | None = None
    records_file: Path | None = None
    outcome_counts: np.ndarray | None = field(default=None, repr=False)
    model: dict[str, Any] = field(default_factory=dict, repr=False)

    def outcome_distribution(self, quantiles: Sequence[float] = POT_QUANTILES) -> pd.DataFrame:
        """How deals end: the share of deals with each outcome, and their pots.

        One row per outcome: ``no_showdown`` (everybody else folded), then
        the category of the winning hand at the showdown
        (:data:`~anaconda_sim.hands.evaluator.CATEGORY_KEYS`, ``high_card``
        .. ``straight_flush``), then ``all`` (every deal). Needs a run that
        counted outcomes: ``simulate(..., outcomes=True)`` or with records.

        Parameters
        ----------
        quantiles
            Pot quantiles to report (each 0..1): column ``pot_q<100 q>``,
            e.g. ``pot_q50`` for the median.

        Returns
        -------
        pandas.DataFrame
            ``outcome, deals, share, se, ci_low, ci_high, mean_pot, pot_se,
            pot_sd, pot_q10 .. pot_q90, pot_max``. ``share`` is the share
            of all deals, ``se`` its binomial standard error
            ``sqrt(share (1 - share) / deals)`` (each outcome is one cell of
            a multinomial), ``ci_low``/``ci_high`` the 95% Wilson score
            interval (never outside 0..1, honest for rare hands). The pot
            columns describe the deals with that outcome: mean, its standard
            error, standard deviation, exact quantiles (the smallest pot with
            at least that share of those deals at or below it) and maximum;
            NaN for an outcome that never happened. ``attrs`` holds the
            model (:attr:`model`) and ``table='outcomes'``.

        Examples
        --------
        >>> r = simulate(4, "sensible", deals=4000, seed=3, progress=False, outcomes=True)
        >>> table = r.outcome_distribution()
        >>> table["outcome"].tolist()[:3], table["outcome"].tolist()[-1]
        (['no_showdown', 'high_card', 'pair'], 'all')
        >>> int(table["deals"].iloc[:-1].sum()) == r.deals == int(table["deals"].iloc[-1])
        True
        >>> float(table["mean_pot"].iloc[-1]) == r.mean_pot
        True
        >>> table.attrs["players"], table.attrs["deals"], table.attrs["table"]
        (4, 4000, 'outcomes')
        >>> simulate(4, "sensible", deals=10, seed=3, progress=False).outcome_distribution()
        Traceback (most recent call last):
        ...
        ValueError: this run did not count outcomes; run simulate(..., outcomes=True) ...
        """
        if self.outcome_counts is None:
            raise ValueError(
                "this run did not count outcomes; run simulate(..., outcomes=True) "
                "(or with records) to get their distribution"
            )
        qs = _check_quantiles(quantiles)
        table = outcome_table(self.outcome_counts, self.deals, qs)
        table.attrs = {**self.model, "table": "outcomes"}
        return table

    def to_frame(self) -> pd.DataFrame:
        """One row per seat: ``seat, strategy, deals``, the seat's net chips
        per deal as ``value, se, ci_low, ci_high``, then ``win_rate, tie_rate,
        showdown_rate, fold_rate_r1.., mean_pot, cat_high_card, ..,
        cat_straight_flush``; under the hi-lo rules also
        ``high_share, low_share, high_win_rate, low_win_rate, declare_high,
        declare_low, declare_both, swing_fail_rate``. ``attrs`` holds the
        model (:attr:`model`).

        Examples
        --------
        >>> r = simulate(3, "call-down", deals=500, seed=2, progress=False)
        >>> r.to_frame()[["seat", "strategy", "fold_rate_r1"]]
           seat   strategy  fold_rate_r1
        0     0  call-down           0.0
        1     1  call-down           0.0
        2     2  call-down           0.0
        """
        n = self.rules.players
        data: dict[str, Any] = {
            "seat": np.arange(n),
            "strategy": list(self.strategies),
            "deals": np.full(n, self.deals),
            **estimate(self.mean_net, self.se),
            "win_rate": self.win_rate,
            "tie_rate": self.tie_rate,
            "showdown_rate": self.showdown_rate,
        }
        for r in range(self.fold_rate.shape[1]):
            data[f"fold_rate_r{r + 1}"] = self.fold_rate[:, r]
        data["mean_pot"] = np.full(n, self.mean_pot)
        for c, column in enumerate(CATEGORY_COLUMNS):
            data[column] = self.category_freq[:, c]
        if self.declare_freq is not None:
            data["high_share"] = self.high_share
            data["low_share"] = self.low_share
            data["high_win_rate"] = self.high_win_rate
            data["low_win_rate"] = self.low_win_rate
            for d, name in enumerate(DECLARE_NAMES):
                data[f"declare_{name}"] = self.declare_freq[:, d]
            data["swing_fail_rate"] = self.swing_fail_rate
        frame = pd.DataFrame(data)
        frame.attrs = dict(self.model)
        return frame


def simulate(
    rules: Rules | int,
    strategies: str | Strategy | Sequence[str | Strategy],
    deals: int,
    seed: SeedLike = None,
    dealer: int = 0,
    records: bool | str | os.PathLike[str] = False,
    batch_size: int | None = None,
    progress: ProgressLike = None,
    *,
    rotate: bool = True,
    betting: bool = True,
    fixed: Mapping[int, Any] | Sequence[Any] | None = None,
    known: Any = None,
    outcomes: bool = False,
    chunk_size: int | None = None,
) -> SimulationResult:
    """Play ``deals`` complete deals and estimate each seat's results.

    Parameters
    ----------
    rules
        A :class:`~anaconda_sim.table.rules.Rules`, or a number of players (2..7)
        for the default rules.
    strategies
        One strategy for every seat (a built-in name such as ``"sensible"``
        or a :class:`~anaconda_sim.strategies.Strategy`), or a list with one
        per seat. At most one user strategy (:meth:`Strategy.custom`) per
        run; it may sit at several seats.
    deals
        Number of deals (>= 1).
    seed
        Seed of the run (int, ``SeedSequence`` or ``None`` for fresh
        entropy). The same seed gives the same numbers on any thread count
        and batch size.
    dealer
        Dealer of deal 0; the button then moves one seat per deal (R6)
        unless ``rotate=False``.
    records
        Record every deal, one row per deal and seat: ``deal, seat, dealer,
        strategy, pot, showdown, win_category, winner, net, fold_round,
        value, category``, the cards ``dealt_0..6``, ``passed_0..5``,
        ``hand_0..6``, ``discard_0..1`` (int8 card indices, -1 for none);
        every column is listed in :mod:`anaconda_sim.sim.records`.
        ``True`` keeps them in memory (:attr:`SimulationResult.records`, up
        to 2,000,000 deals, about 50 bytes a row); a path ending in
        ``.parquet`` streams them to that file, one row group per chunk, in
        memory that does not grow with the deals
        (:attr:`SimulationResult.records_file`; the model is in the schema
        metadata, read back by :func:`anaconda_sim.read_table`). Records
        also count outcomes (``outcomes=True``).
        Under the hi-lo rules the rows add ``declaration`` (``"high"``,
        ``"low"``, ``"both"``, or empty without one), ``low_value`` (-1
        without a showdown), ``high_share`` and ``low_share``.
    batch_size
        Deals per ``prange`` batch (default 1024). Results do not depend on it.
    progress
        ``None``: a tqdm bar for runs expected to take more than a few
        seconds; ``True``/``False``: always/never; or a callable
        ``progress(done, total)`` called after each chunk.
    rotate
        Move the button one seat per deal (default) or keep ``dealer``.
    betting
        ``False``: nobody bets or folds (every betting decision is a check
        and no strategy is asked), so every deal reaches the showdown and the
        results measure showdown equity.
    fixed
        Fixed starting cards: ``{seat: cards}`` (1 to 7 cards, text or
        indices; the first cards of the seat in deal order, the rest dealt).
    known
        Cards that are never dealt (e.g. cards known to be out of play).
    outcomes
        Count deals by outcome (no showdown or the winning category) and
        pot, for :meth:`SimulationResult.outcome_distribution`.
    chunk_size
        Deals per kernel call (the unit of progress, Ctrl-C and, with
        records, of memory and Parquet row groups). Default: grown to about
        half a second per call; with records or outcomes, 65,536 deals.
        Results and records do not depend on it.

    Returns
    -------
    SimulationResult

    Examples
    --------
    >>> r = simulate(6, ["sensible"] * 3 + ["call-down"] * 3, deals=3000, seed=7,
    ...              progress=False)
    >>> r.strategies[0], r.strategies[5]
    ('sensible', 'call-down')
    >>> bool(np.all(r.ci_low <= r.mean_net)) and bool(np.all(r.mean_net <= r.ci_high))
    True
    >>> simulate(8, "sensible", deals=10)
    Traceback (most recent call last):
    ...
    ValueError: players=8 is not allowed; Anaconda is played by 2 to 7 players (R2)
    >>> simulate(3, "bluffer", deals=10)
    Traceback (most recent call last):
    ...
    ValueError: unknown strategy 'bluffer'; built-ins are 'random', 'call-down', ...
    >>> simulate(3, ["sensible", "random"], deals=10)
    Traceback (most recent call last):
    ...
    ValueError: 2 strategies given for 3 players; give one per seat (or a single name ...
    >>> simulate(3, "sensible", deals=0)
    Traceback (most recent call last):
    ...
    ValueError: deals=0 is too small; give deals >= 1

    A user strategy written with numba (the signatures of
    :mod:`anaconda_sim.strategies`) runs inside the kernel:

    >>> import numba
    >>> from anaconda_sim.table import views as V
    >>> from anaconda_sim.strategies import Strategy
    >>> @numba.njit
    ... def raise_with_aces(pub, own, params, rng):
    ...     aces = 0
    ...     for i in range(own[V.O_NCARDS]):
    ...         if own[V.O_CARDS + i] >= 48:
    ...             aces += 1
    ...     return V.INTENT_AGGRESSIVE if aces >= params[0] else V.INTENT_PASSIVE
    >>> aces = Strategy.custom("aces", bet=raise_with_aces, params={"aces": 2})
    >>> r = simulate(3, [aces, "sensible", "sensible"], deals=500, seed=3, progress=False)
    >>> r.strategies
    ('aces', 'sensible', 'sensible')

    Records, in memory or streamed to Parquet (the same rows):

    >>> r = simulate(3, "sensible", deals=1000, seed=4, records=True, progress=False)
    >>> r.records.shape, int(r.records.memory_usage(deep=True).sum() / 3000)
    ((3000, 34), 48)
    >>> r.records.loc[:2, ["deal", "seat", "dealer", "pot", "win_category", "net", "category"]]
       deal  seat  dealer  pot win_category  net   category
    0     0     0       0    3     two_pair    2   two_pair
    1     0     1       0    3     two_pair   -1       pair
    2     0     2       0    3     two_pair   -1  high_card
    >>> f = simulate(3, "sensible", deals=1000, seed=4, records="deals.parquet",
    ...              progress=False)
    >>> from anaconda_sim import read_table
    >>> stored = read_table(f.records_file)
    >>> stored.equals(r.records), stored.attrs["deals"], stored.attrs["key"] == r.key
    (True, 1000, True)
    """
    rules = as_rules(rules)
    check_progress(progress)
    run = start_run(rules, strategies, deals, seed, dealer, rotate=rotate, betting=betting,
                     fixed=fixed, known=known, hero=-1, force=L.FORCE_NONE, choices=None,
                     forced_pass=None, records=records, batch_size=batch_size,
                     chunk_size=chunk_size, outcomes=outcomes)  # fmt: skip
    model = run_model(run, "simulate", seed, fixed_cards=run.fixed, known=known)
    attach_records(run, records, model)
    run.execute(progress)
    return _simulation_result(run, model)


def _check_quantiles(quantiles: Sequence[float]) -> tuple[float, ...]:
    try:
        qs = tuple(float(q) for q in quantiles)
    except (TypeError, ValueError):
        raise TypeError(f"quantiles={quantiles!r} must be numbers between 0 and 1") from None
    bad = [q for q in qs if not 0.0 <= q <= 1.0]
    if bad:
        raise ValueError(f"quantiles={quantiles!r}: {bad[0]} is not between 0 and 1")
    return qs


def _simulation_result(run: KernelRun, model: dict[str, Any]) -> SimulationResult:
    rules = run.rules
    model = finish_model(run, model)
    count = max(run.done, 1)
    seat = run.sums["seat"][0]
    mean, se = mean_se(seat[:, L.AS_NET], seat[:, L.AS_NET_SQ], run.done)
    rounds = rules.betting_rounds
    pot_mean, pot_se = mean_se(
        run.sums["deal"][0, L.AD_POT], run.sums["deal"][0, L.AD_POT_SQ], run.done
    )
    hilo: dict[str, np.ndarray] = {}
    if rules.hilo_showdown:
        unit = float(SHARE_SCALE)
        hilo = {
            "high_share": seat[:, L.AS_HIGH_SHARE] / unit / count,
            "low_share": seat[:, L.AS_LOW_SHARE] / unit / count,
            "high_win_rate": seat[:, L.AS_HIGH_WINS] / count,
            "low_win_rate": seat[:, L.AS_LOW_WINS] / count,
            "declare_freq": seat[:, L.AS_DECLARE : L.AS_DECLARE + 3] / count,
            "swing_fail_rate": seat[:, L.AS_SWING_FAILED] / count,
        }
    return SimulationResult(
        rules=rules,
        strategies=tuple(s.name for s in run.strategies),
        deals=run.done,
        key=int(run.key),
        dealer=int(run.cfg[L.C_DEALER]),
        rotate=bool(run.cfg[L.C_ROTATE]),
        betting=bool(run.cfg[L.C_BETTING]),
        mean_net=mean,
        se=se,
        ci_low=mean - Z95 * se,
        ci_high=mean + Z95 * se,
        win_rate=seat[:, L.AS_SOLE_WINS] / count,
        tie_rate=seat[:, L.AS_SPLIT_WINS] / count,
        showdown_rate=seat[:, L.AS_SHOWDOWNS] / count,
        category_freq=run.sums["cat"][0] / count,
        fold_rate=run.sums["fold"][0][:, :rounds] / count,
        open_rate=run.sums["open"][0][:, :rounds] / count,
        mean_pot=float(pot_mean),
        pot_se=float(pot_se),
        records=run.records if isinstance(run.records, pd.DataFrame) else None,
        interrupted=run.interrupted,
        elapsed=run.elapsed,
        records_file=run.records if isinstance(run.records, Path) else None,
        outcome_counts=None if run.tally is None else run.tally.rows(0),
        model=model,
        **hilo,
    )
