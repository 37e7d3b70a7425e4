"""Which three cards to pass: the value of each of the 35 passes (R7)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..cards import parse_cards
from ..hands.evaluator import CATEGORY_COLUMNS, N_CATEGORIES
from ..sim.models import score_passes
from ..sim.simulator import score_choices
from ..stats import SHARE_SCALE, ChoiceAccumulator
from ..strategies.spec import Strategy, get_strategy
from ..table.rules import Rules
from .driver import (
    HILO,
    BatchRun,
    CardsLike,
    OpponentSpec,
    Request,
    Sampling,
    cards_text,
    check_capacity,
    check_confirm,
    check_players,
    check_rules,
    finish,
    known_cards,
    model_attrs,
    opponent_strategies,
    rules_of,
    sampling,
    showdown_kernel_strategies,
)

__all__ = ["pass_values"]

#: deals per batch of the betting model at least (a batch is a simulator run)
BETTING_BATCH_MIN = 4096


def pass_values(
    hand: CardsLike,
    players: int,
    *,
    rules: str | Rules = "pagat",
    known: CardsLike | None = None,
    hero: str | Strategy = "learned",
    opponents: OpponentSpec = "learned",
    betting: bool = False,
    confirm: int = 0,
    request: Request | None = None,
    **keywords: Any,
) -> pd.DataFrame:
    """Value of each of the 35 ways to pass three of seven cards (R7).

    Parameters
    ----------
    hand
        The seven cards dealt to the hero.
    players
        Table size, 2 to 7.
    known
        Cards known to be in no opponent's hand (never dealt).
    rules
        ``"pagat"`` (the default rules) or ``"hi-lo"`` (declarations and a
        split pot, R21-R26). Under hi-lo every model plays complete deals
        through the batch simulator (:func:`score_passes_simulated`; with
        ``betting=False`` nobody bets or folds), the hero keeps, reveals
        and declares by ``hero``'s strategy, ``value`` includes both halves
        of the pot and the table adds the hero's ``high_share`` and
        ``low_share``.
    hero
        The hero's strategy for its decisions other than the pass
        (``betting=True`` or hi-lo; else it keeps its best five). Default
        ``"learned"``: the hero plays the default field's own strategy.
    opponents
        A strategy (name or :class:`~anaconda_sim.strategies.Strategy`) for
        every opponent, or one per opponent seat, left neighbour first.
        ``"learned"`` (the default): the learned strategy family with the
        parameters shipped for the table size (its pass scores each of the
        35 passes by features of the kept four and the three given; it keeps
        its best five; with betting it bets by its learned rule).
        ``"random-pass"``: passes three uniformly random cards, keeps its best
        five, never folds.
    confirm
        Re-estimate the best ``confirm`` passes on fresh, independent deals
        (``confirm_value``, ``confirm_se``: free of the winner's curse; see
        :func:`~anaconda_sim.analysis.driver.confirm_top`).
    betting
        ``False``: showdown model, ``value`` = expected share of the pot.
        ``True``: complete deals with betting (the hero at seat 0, first
        after the dealer), ``value`` = mean net chips; ``left_gain`` is then
        the left neighbour's mean net chips relative to the average pass,
        without a standard error.
    request, **keywords
        The sampling and table keywords (``deals``, ``precision``,
        ``max_deals``, ``seed``, ``batch_size``, ``threads``, ``progress``,
        ``unicode``), as keywords or as one
        :class:`~anaconda_sim.analysis.request.Request`: the same seed gives
        the same table.

    Returns
    -------
    pandas.DataFrame
        One row per pass, best first: ``pass``, ``keep``, the core columns
        ``rank``, ``value``, ``se``, ``ci_low``, ``ci_high``,
        ``diff_vs_best``, ``diff_se``, the hero's final categories
        ``cat_*`` (shares of all deals) and the left neighbour's gain
        ``left_gain`` (its value with this pass minus its average over all
        35 passes, with ``left_gain_se``). The model is in ``attrs``.

    Examples
    --------
    >>> table = pass_values("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", 6, deals=2000, seed=1)
    >>> len(table), int(table["rank"].iloc[0]), table.attrs["value_unit"]
    (35, 1, 'pot share')
    >>> hilo = pass_values("5♠ 4♥ 3♦ 2♣ K♠ K♥ 9♣", 4, rules="hi-lo", deals=400, seed=1)
    >>> bool((hilo["high_share"] + hilo["low_share"] <= hilo["value"] + 1e-9).all())
    True
    >>> pass_values("Qs Qh 9c", 6)
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: hand 'Qs Qh 9c' has 3 cards; it needs 7
    """
    hero7 = np.array(parse_cards(hand, 7, what="hand"), dtype=np.int64)
    players = check_players(players)
    rules_name = check_rules(rules, players)
    strategies = opponent_strategies(opponents, players)
    hero_strategy = get_strategy(hero)
    options = sampling(request, "pass_values", **keywords)
    confirm = check_confirm(confirm, 35)
    extra = known_cards(known, hero7.tolist())
    check_capacity(players, 45 - len(extra), 7 * (players - 1))
    choices = np.array(list(itertools.combinations(hero7.tolist(), 3)), dtype=np.int64)
    attrs = model_attrs("pass", hero7.tolist(), players, opponents=strategies,
                        hero=hero_strategy if betting or rules_name == HILO else None,
                        betting=betting,
                        options=options, rules=rules_name)  # fmt: skip
    frame = pd.DataFrame({
        "pass": [cards_text(c, options.unicode) for c in choices],
        "keep": [cards_text([x for x in hero7 if x not in c], options.unicode) for c in choices],
    })  # fmt: skip
    simulated = betting or rules_name == HILO
    if not simulated:
        # the showdown model runs built-in card play only: refuse custom strategies now
        showdown_kernel_strategies(strategies)

    def score(rows: np.ndarray, opts: Sampling) -> ScoredPasses:
        if simulated:
            return score_passes_simulated(hero7, rows, players, rules_name, hero_strategy,
                                          strategies, extra, opts, betting=betting)  # fmt: skip
        run = BatchRun.of(opts, opts.batch(), "passes")
        shown = score_passes(run.batches, opts.key, players, strategies, hero7.tolist(), rows,
                             known=extra)  # fmt: skip
        return ScoredPasses(shown.acc, shown.left.mean(), shown.left.se(), shown.cat_counts)

    scored = score(choices, options)
    acc = scored.acc
    frame = frame.assign(**scored.halves)
    frame[list(CATEGORY_COLUMNS)] = scored.cat_counts / acc.deals
    frame["left_gain"] = scored.left_gain
    frame["left_gain_se"] = scored.left_gain_se
    order_key = [tuple(sorted(c.tolist())) for c in choices]
    return finish(frame, acc, order_key, attrs, options, confirm=confirm,
                  rescore=lambda rows, opts: score(choices[rows], opts).acc)  # fmt: skip


@dataclass
class ScoredPasses:
    """Pass choices scored: the value accumulator, the left neighbour's gain
    (with its standard error, NaN when not kept), the hero's final category
    counts and, under hi-lo, its mean ``high_share`` and ``low_share``."""

    acc: ChoiceAccumulator
    left_gain: np.ndarray
    left_gain_se: np.ndarray
    cat_counts: np.ndarray
    halves: dict[str, np.ndarray] = field(default_factory=dict)


def score_passes_simulated(
    hero7: np.ndarray, choices: np.ndarray, players: int, rules: str, hero: Strategy,
    opponents: list[Strategy], known: list[int], options: Sampling, *, betting: bool,
    what: str = "passes",
) -> ScoredPasses:  # fmt: skip
    """Pass choices played in complete deals through the batch simulator
    (:func:`~anaconda_sim.sim.score_choices`): the betting model, and every
    model under the hi-lo rules. The hero sits at seat 0, first after the
    dealer; ``betting=False``: nobody bets or folds and the value is the pot
    share, else net chips. The left neighbour's gain is kept as a mean
    (no per-deal cross terms, so no standard error)."""

    seats = [hero, *opponents]
    key_seed = int(options.key)
    k = len(choices)
    acc = ChoiceAccumulator(k, scale=1) if betting else ChoiceAccumulator(k)
    left_total = np.zeros(k)
    halves_total = np.zeros((2, k))
    cat_counts = np.zeros((k, N_CATEGORIES), dtype=np.int64)
    run = BatchRun.of(options, options.batch(minimum=BETTING_BATCH_MIN), what)
    extra: dict[str, Any] = {"known": known} if known else {}
    for start, size in run.batches(lambda: acc.se().max()):
        scores = score_choices(
            rules_of(rules, players), seats, hero=0, kind="pass", choices=choices, deals=size,
            seed=key_seed, dealer=players - 1, fixed={0: hero7.tolist()}, first_deal=start,
            betting=betting, progress=False, **extra,
        )  # fmt: skip
        if betting:
            acc.add_sums(scores.deals, scores.sum_net, scores.cross_net)
            left_total += scores.left_mean_net * scores.deals
        else:
            # shares are whole units of 1/SHARE_SCALE: the sums are exact integers
            acc.add_sums(scores.deals, np.rint(scores.sum_share * SHARE_SCALE),
                         np.rint(scores.cross_share * SHARE_SCALE**2))  # fmt: skip
            left_total += scores.left_mean_share * scores.deals
        if scores.high_share is not None and scores.low_share is not None:
            halves_total += np.stack([scores.high_share, scores.low_share]) * scores.deals
        cat_counts += scores.category_counts
    left_mean = left_total / acc.deals
    halves = {}
    if rules == HILO:
        halves = dict(zip(("high_share", "low_share"), halves_total / acc.deals, strict=True))
    return ScoredPasses(acc, left_mean - left_mean.mean(), np.full(k, np.nan), cat_counts, halves)
