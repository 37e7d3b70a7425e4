"""Alternative choices of one seat on common random numbers:
:func:`score_choices` and its result, :class:`ChoiceScores` (the public
names are also in :mod:`anaconda_sim.sim.simulator`, which explains how a
run goes)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..cards import CardError, format_cards, parse_cards
from ..checks import check_int
from ..hands.evaluator import CATEGORY_COLUMNS
from ..limits import MAX_DEAL_INDEX
from ..rng import SeedLike
from ..stats import SHARE_SCALE, estimate
from ..strategies.spec import Strategy
from ..table.rules import REVEAL_ROUNDS, Rules
from . import layout as L
from .driver import (
    KernelRun,
    ProgressLike,
    as_rules,
    attach_records,
    check_progress,
    check_seat,
    finish_model,
    fixed_table,
    mean_se,
    run_model,
    start_run,
)  # fmt: skip

__all__ = ["ChoiceScores", "score_choices"]

_KINDS = {"pass": L.FORCE_PASS, "discard": L.FORCE_DISCARD, "order": L.FORCE_ORDER}


_CHOICE_WIDTH = {"discard": 7, "order": 5}


@dataclass(frozen=True)
class ChoiceScores:
    """Values of ``K`` alternative choices of one seat, on common random numbers.

    Arrays are indexed by choice ``k`` (the row of :attr:`choices`).

    Attributes
    ----------
    kind, hero, choices
        What was forced (``"pass"``, ``"discard"``, ``"order"``), for which
        seat, and the ``(K, m)`` card rows.
    deals
        Deals played; every choice was played on every deal.
    mean_net, se_net
        The hero's mean net chips per deal and its standard error.
    mean_share, se_share
        The hero's mean share of the pot (1 when it takes the pot, ``1/k``
        in a ``k``-way split, 0 otherwise; odd chips ignored). With
        ``betting=False`` this is the hero's showdown equity.
    sum_net, sum_share
        Sums over deals (``mean * deals``).
    cross_net, cross_share
        ``(K, K)`` sums over deals of ``x_k * x_j``: with the sums, they give
        the paired standard error of any difference (:meth:`diff`).
    category_counts
        ``(K, 9)``: deals in which the hero showed down with each category.
    showdown_rate
        Share of deals in which the hero reached the showdown.
    open_rate
        ``(K, 4)``: share of deals in which the hero opened reveal rounds 1-4.
    opp_fold_rate
        ``(K, rounds)``: share of opponent-deals (deals x opponents) with a
        fold in each betting round.
    mean_pot
        Mean final pot.
    left_mean_net, left_mean_share
        The same for the hero's left neighbour (seat ``hero + 1``), who
        receives the hero's pass.
    missed
        Deals in which the choice could not be applied (the hero did not
        hold the cards, e.g. after folding or receiving other cards); the
        hero's own strategy decided instead.
    high_share, low_share
        Hi-lo rules only (``None`` otherwise): the hero's mean shares of the
        pot taken in the high and in the low half (they add up to
        ``mean_share`` less the pots won before the declaration).
    records
        One row per deal, choice and seat when ``records=True``
        (:mod:`~anaconda_sim.sim.records`; with ``choice`` and ``missed``).
    records_file
        The Parquet file the records were streamed to (``records=path``).
    model
        What the numbers are (as for :class:`SimulationResult`, plus the
        hero, the kind, the choices and the first deal).
    """

    rules: Rules
    strategies: tuple[str, ...]
    kind: str
    hero: int
    dealer: int
    choices: np.ndarray
    deals: int
    key: int
    mean_net: np.ndarray
    se_net: np.ndarray
    mean_share: np.ndarray
    se_share: np.ndarray
    sum_net: np.ndarray
    sum_share: np.ndarray
    cross_net: np.ndarray
    cross_share: np.ndarray
    category_counts: np.ndarray
    showdown_rate: np.ndarray
    open_rate: np.ndarray
    opp_fold_rate: np.ndarray
    mean_pot: np.ndarray
    left_mean_net: np.ndarray
    left_mean_share: np.ndarray
    missed: np.ndarray
    records: pd.DataFrame | None = field(default=None, repr=False)
    interrupted: bool = False
    elapsed: float = 0.0
    records_file: Path | None = None
    model: dict[str, Any] = field(default_factory=dict, repr=False)
    high_share: np.ndarray | None = None
    low_share: np.ndarray | None = None

    def diff(self, i: int, j: int, value: str = "net") -> tuple[float, float]:
        """Mean of ``x_i - x_j`` over the deals and its paired standard error.

        ``value`` is ``"net"`` (chips) or ``"share"`` (pot share).

        Examples
        --------
        >>> s = score_choices(3, "call-down", hero=0, kind="pass", deals=400, seed=1,
        ...                   fixed={0: "As Ad Kc 7h 5d 3s 2c"},
        ...                   choices=["7h 3s 2c", "As Ad Kc"], progress=False)
        >>> d, se = s.diff(0, 1, "share")
        >>> d > 0 and se > 0
        True
        """
        if value == "net":
            total, cross = self.sum_net, self.cross_net
        elif value == "share":
            total, cross = self.sum_share, self.cross_share
        else:
            raise ValueError(f"value={value!r} must be 'net' or 'share'")
        n = self.deals
        s = float(total[i] - total[j])
        sq = float(cross[i, i] - 2 * cross[i, j] + cross[j, j])
        mean = s / n
        if n < 2:
            return mean, math.nan
        var = max((sq - s * mean) / (n - 1), 0.0)
        return mean, math.sqrt(var / n)

    def to_frame(self) -> pd.DataFrame:
        """One row per choice: ``choice, cards, deals``, the hero's net chips
        per deal as ``value, se, ci_low, ci_high``, then ``mean_share, se_share,
        showdown_rate, open_r1..open_r4, mean_pot, left_mean_net, left_mean_share,
        missed`` (and ``high_share,
        low_share`` under hi-lo) and the hero's showdown category frequencies
        ``cat_*``. ``attrs`` holds the model (:attr:`model`)."""
        k = self.choices.shape[0]
        data: dict[str, Any] = {
            "choice": np.arange(k),
            "cards": [format_cards(row[row >= 0]) for row in self.choices],
            "deals": np.full(k, self.deals),
            **estimate(self.mean_net, self.se_net),
            "mean_share": self.mean_share,
            "se_share": self.se_share,
            "showdown_rate": self.showdown_rate,
        }
        for r in range(self.open_rate.shape[1]):
            data[f"open_r{r + 1}"] = self.open_rate[:, r]
        data["mean_pot"] = self.mean_pot
        data["left_mean_net"] = self.left_mean_net
        data["left_mean_share"] = self.left_mean_share
        data["missed"] = self.missed
        if self.high_share is not None and self.low_share is not None:
            data["high_share"] = self.high_share
            data["low_share"] = self.low_share
        for c, column in enumerate(CATEGORY_COLUMNS):
            data[column] = self.category_counts[:, c] / max(self.deals, 1)
        frame = pd.DataFrame(data)
        frame.attrs = dict(self.model)
        return frame


def _parse_choices(choices: Any, kind: str, width: int) -> np.ndarray:
    if isinstance(choices, np.ndarray) and choices.ndim == 2:
        rows = list(choices)
    elif isinstance(choices, (str, bytes)):
        raise TypeError(f"choices={choices!r} must be a list of card rows, one per choice")
    else:
        rows = list(choices)
    if not rows:
        raise ValueError("choices is empty; give at least one choice")
    out = np.full((len(rows), 7), -1, dtype=np.int64)
    for k, row in enumerate(rows):
        cards = parse_cards(row, count=width, what=f"{kind} choice {k}")
        out[k, :width] = cards
    return out


def score_choices(
    rules: Rules | int,
    strategies: str | Strategy | Sequence[str | Strategy],
    *,
    hero: int,
    kind: str,
    choices: Any,
    deals: int,
    seed: SeedLike = None,
    dealer: int = 0,
    fixed: Mapping[int, Any] | Sequence[Any] | None = None,
    known: Any = None,
    forced_pass: Mapping[int, Any] | None = None,
    betting: bool = True,
    records: bool | str | os.PathLike[str] = False,
    batch_size: int | None = None,
    progress: ProgressLike = None,
    first_deal: int = 0,
    chunk_size: int | None = None,
) -> ChoiceScores:
    """Score ``K`` alternative choices of seat ``hero`` on common random numbers.

    Every deal is played once per choice, with the same cards and the same
    random numbers for everyone; only the hero's forced decision differs (and
    what follows from it). The hero's other decisions use its strategy.

    Parameters
    ----------
    rules, strategies
        As for :func:`simulate`.
    hero
        The seat whose choice is forced.
    kind
        ``"pass"``: ``choices`` are ``(K, c)`` cards passed in the first pass
        (``c`` = its card count); ``"discard"``: ``(K, 7)`` rows, two
        discards then the kept five in reveal order; ``"order"``: ``(K, 5)``
        reveal orders (the two held cards not in the row are discarded).
        Rows are card text (``"Qs Qh 9c"``) or index lists.
    choices
        The alternatives, one row each.
    deals
        Deals per choice.
    seed
        Seed of the run.
    dealer
        The dealer seat (fixed: the hero's position matters).
    fixed, known
        Fixed starting cards per seat and cards never dealt, as in
        :func:`simulate`. To score a pass, fix the hero's seven cards.
    forced_pass
        ``{seat: cards}``: first-pass cards forced for other seats (when they
        hold them). With the hero's pass and its right neighbour's pass
        forced, the hero's hand at the discard is known, which is how a
        discard or reveal order is scored after the pass.
    betting
        ``False``: nobody bets or folds; the share is the showdown equity.
    records, batch_size, progress, chunk_size
        As for :func:`simulate`; records have one row per deal, choice and
        seat, with the columns ``choice`` and ``missed``.
    first_deal
        Index of the first deal: runs ``first_deal .. first_deal + deals - 1``
        of the seed, so a long run can be split into parts that together
        give exactly the numbers of one run.

    Returns
    -------
    ChoiceScores

    Examples
    --------
    Keep the aces or pass them? (3 players, nobody bets: pot shares)

    >>> s = score_choices(3, "sensible", hero=0, kind="pass", deals=2000, seed=5,
    ...                   fixed={0: "As Ad Kc 7h 5d 3s 2c"}, betting=False,
    ...                   choices=["7h 3s 2c", "As Ad Kc"], progress=False)
    >>> bool(s.mean_share[0] > s.mean_share[1])
    True
    >>> s.to_frame()[["choice", "cards"]]
       choice      cards
    0       0   7h 3s 2c
    1       1   As Ad Kc
    >>> score_choices(3, "sensible", hero=0, kind="fold", choices=[[1]], deals=10)
    Traceback (most recent call last):
    ...
    ValueError: kind='fold' is not one of 'pass', 'discard', 'order'
    """
    rules = as_rules(rules)
    n = rules.players
    hero = check_seat(hero, n, "hero")
    if kind not in _KINDS:
        raise ValueError(f"kind={kind!r} is not one of 'pass', 'discard', 'order'")
    if kind == "pass":
        if not rules.passes:
            raise ValueError("kind='pass' needs rules with a pass")
        width = rules.passes[0][0]
    else:
        if not rules.discard:
            raise ValueError(f"kind={kind!r} needs rules with a discard (rules.discard=True)")
        width = _CHOICE_WIDTH[kind]
    rows = _parse_choices(choices, kind, width)
    table, _, _ = fixed_table(fixed, known, n)
    if kind == "pass" and (table[hero] >= 0).all():
        held = set(table[hero].tolist())
        for k, row in enumerate(rows):
            missing = [c for c in row[:width].tolist() if c not in held]
            if missing:
                raise CardError(
                    f"pass choice {k} ({format_cards(row[:width])}) has "
                    f"{format_cards(missing)}, not in the hero's fixed hand "
                    f"{format_cards(table[hero])}"
                )
    fp = np.full((7, 3), -1, dtype=np.int64)
    if forced_pass:
        if not rules.passes:
            raise ValueError("forced_pass needs rules with a pass")
        count = rules.passes[0][0]
        for seat, cards in forced_pass.items():
            seat = check_seat(seat, n, "forced_pass seat")
            if seat == hero:
                raise ValueError("forced_pass cannot force the hero; its choices do")
            fp[seat, :count] = parse_cards(cards, count=count, what=f"forced pass of seat {seat}")
    check_progress(progress)
    run = start_run(rules, strategies, deals, seed, dealer, rotate=False, betting=betting,
                     fixed=fixed, known=known, hero=hero, force=_KINDS[kind], choices=rows,
                     forced_pass=fp, records=records, batch_size=batch_size,
                     chunk_size=chunk_size)  # fmt: skip
    last = MAX_DEAL_INDEX - run.deals  # the end index, first_deal + deals, is an int64 too
    run.first_deal = check_int(
        first_deal,
        "first_deal",
        low=0,
        high=last,
        why=(
            f"the random streams number deals 0 to {MAX_DEAL_INDEX}, and the run takes {run.deals}"
        ),
    )
    model = run_model(run, "score_choices", seed, fixed_cards=run.fixed, known=known, hero=hero,
                   kind=kind, choices=[format_cards(row[:width]) for row in rows],
                   forced_pass={int(seat): format_cards(row[row >= 0])
                                for seat, row in enumerate(fp) if (row >= 0).any()} or None,
                   first_deal=run.first_deal)  # fmt: skip
    attach_records(run, records, model)
    run.execute(progress)
    return _choice_scores(run, kind, hero, rows, width, model)


def _choice_scores(
    run: KernelRun, kind: str, hero: int, rows: np.ndarray, width: int, model: dict[str, Any]
) -> ChoiceScores:
    rules = run.rules
    model = finish_model(run, model)
    n = rules.players
    count = max(run.done, 1)
    seat = run.sums["seat"][:, hero, :]
    cross = run.sums["cross"]
    unit = float(SHARE_SCALE)
    mean_net, se_net = mean_se(seat[:, L.AS_NET], np.diag(cross[L.AX_NET]), run.done)
    mean_share, se_share = mean_se(
        seat[:, L.AS_SHARE] / unit, np.diag(cross[L.AX_SHARE]) / unit**2, run.done
    )
    left = (hero + 1) % n
    left_seat = run.sums["seat"][:, left, :]
    opponents = [s for s in range(n) if s != hero]
    folds = run.sums["fold"][:, opponents, : rules.betting_rounds].sum(axis=1)
    first_reveal_round = 1 + len(rules.passes)
    if rules.progressive_reveal:
        opens = run.sums["open"][:, hero, first_reveal_round : first_reveal_round + REVEAL_ROUNDS]
    else:
        opens = np.zeros((rows.shape[0], 0), np.int64)
    return ChoiceScores(
        rules=rules,
        strategies=tuple(s.name for s in run.strategies),
        kind=kind,
        hero=hero,
        dealer=int(run.cfg[L.C_DEALER]),
        choices=rows[:, :width].copy(),
        deals=run.done,
        key=int(run.key),
        mean_net=mean_net,
        se_net=se_net,
        mean_share=mean_share,
        se_share=se_share,
        sum_net=seat[:, L.AS_NET].astype(np.float64),
        sum_share=seat[:, L.AS_SHARE] / unit,
        cross_net=cross[L.AX_NET].astype(np.float64),
        cross_share=cross[L.AX_SHARE] / unit**2,
        category_counts=run.sums["cat"][:, hero, :].copy(),
        showdown_rate=seat[:, L.AS_SHOWDOWNS] / count,
        open_rate=opens / count,
        opp_fold_rate=folds / (count * (n - 1)),
        mean_pot=run.sums["deal"][:, L.AD_POT] / count,
        left_mean_net=left_seat[:, L.AS_NET] / count,
        left_mean_share=left_seat[:, L.AS_SHARE] / unit / count,
        missed=run.sums["deal"][:, L.AD_MISSED].copy(),
        records=run.records if isinstance(run.records, pd.DataFrame) else None,
        interrupted=run.interrupted,
        elapsed=run.elapsed,
        records_file=run.records if isinstance(run.records, Path) else None,
        model=model,
        high_share=seat[:, L.AS_HIGH_SHARE] / unit / count if rules.hilo_showdown else None,
        low_share=seat[:, L.AS_LOW_SHARE] / unit / count if rules.hilo_showdown else None,
    )
