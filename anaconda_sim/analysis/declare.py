"""Hi-lo: what to declare with the kept five (R22): high, low or both, each
played from the discard on with betting, on common random numbers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..cards import mask_from_cards, parse_cards
from ..hands.declare import DECLARE_NAMES
from ..hands.evaluator import CATEGORY_COLUMNS, N_CATEGORIES
from ..hands.hilo import SWING_FAILED
from ..rng import SeedLike
from ..stats import SHARE_SCALE, ChoiceAccumulator, exact_products
from ..strategies import Strategy, get_strategy
from .driver import (
    DEFAULT_BATCH,
    DEFAULT_MAX_DEALS,
    BatchRun,
    CardsLike,
    OpponentSpec,
    add_categories,
    cards_text,
    check_capacity,
    check_players,
    finish,
    model_attrs,
    opponent_strategies,
    pub_at_pass,
    sampling,
)
from .reveal import reveal_opponents

__all__ = ["declare_values"]

#: the rule set :func:`declare_values` plays
HILO_RULES = "hi-lo"


def check_hilo_rules(rules: Any, players: int) -> str:
    """``"hi-lo"``, or a clear error for any other rule set.

    ``rules`` is ``"hi-lo"`` or a :class:`~anaconda_sim.game.rules.Rules`
    equal to ``Rules.hilo(players)``.
    """
    from ..game.rules import Rules

    if isinstance(rules, Rules):
        if rules == Rules.hilo(players):
            return HILO_RULES
        raise ValueError(
            f"rules={rules!r} differ from Rules.hilo({players}); declare_values models the "
            "hi-lo declaration (R21-R26) only: use rules='hi-lo'"
        )
    if rules == HILO_RULES:
        return HILO_RULES
    raise ValueError(
        f"rules={rules!r}: declare_values models the hi-lo declaration (R21-R26) only; use "
        "rules='hi-lo' (other rule sets have no declaration)"
    )


def declare_values(
    hand: CardsLike,
    players: int,
    *,
    rules: Any = "hi-lo",
    order: CardsLike | None = None,
    hero: str | Strategy = "sensible",
    opponents: OpponentSpec | None = None,
    betting: bool = True,
    deals: int | None = None,
    precision: float | None = None,
    max_deals: int = DEFAULT_MAX_DEALS,
    seed: SeedLike = None,
    batch_size: int | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    unicode: bool = True,
) -> pd.DataFrame:
    """Value of each hi-lo declaration (R22) with the kept five ``hand``.

    The model is that of :func:`~anaconda_sim.analysis.reveal_values` under
    the hi-lo rules (R21-R26): the deal is played from the discard on. The
    hero (seat 0) keeps ``hand`` and reveals it in ``order`` (the order
    given, ``hand``'s own order when ``order`` is None); its two discards
    are unknown cards. Each opponent is dealt seven unseen cards, passes
    three to its left by its strategy, discards and orders by it; betting
    rounds 1 and 2 are taken as checked around, the four reveal rounds are
    bet by ``hero``'s and the opponents' strategies. After the last betting
    round every seat still in declares: the opponents by their strategies,
    the hero as the row being scored (``high``, ``low`` or ``both``); then
    the pot splits (R23-R25). A deal won before the declaration (every
    rival folded) is the same for every row. The dealer is seat
    ``players - 1``, so the hero is first after the dealer.

    Opponents: by default :func:`~anaconda_sim.analysis.reveal_opponents`.

    ``value`` is the hero's mean net chips per deal; with ``betting=False``
    nobody bets or folds and ``value`` is its mean pot share (its hi-lo
    showdown equity with that declaration).

    Parameters
    ----------
    hand
        The hero's kept five.
    order
        The same five cards in reveal order (the last one hidden).
    rules
        ``"hi-lo"`` (or ``Rules.hilo(players)``); other rule sets are refused.

    Returns
    -------
    pandas.DataFrame
        Three rows, best first: ``declare`` (``high``, ``low``, ``both``),
        the core columns; ``share`` (mean pot share), ``high_share`` and
        ``low_share`` (mean shares of the pot taken in each half; a pot won
        before the declaration, every rival having folded, counts in
        ``share`` only),
        ``swing_failed`` (share of deals in which the hero declared both and
        took nothing, R24), ``showdown_rate``, ``mean_pot`` and the hero's
        showdown categories ``cat_*`` (shares of all deals).

    Examples
    --------
    >>> table = declare_values("5♠ 4♥ 3♦ 2♣ A♠", 3, deals=200, seed=1)
    >>> sorted(table["declare"]), table.attrs["rules"], table.attrs["value_unit"]
    (['both', 'high', 'low'], 'hi-lo', 'chips per deal')
    >>> declare_values("5♠ 4♥ 3♦ 2♣ A♠", 3, rules="pagat")
    Traceback (most recent call last):
    ...
    ValueError: rules='pagat': declare_values models the hi-lo declaration (R21-R26) only; ...
    """
    from ..game.rules import Rules
    from ..sim.driver import custom_functions, make_cfg
    from ..sim.kernels.reveal import reveal_batch
    from ..sim.layout import FORCE_ORDER_DECLARE

    five = parse_cards(hand, 5, what="hand")
    players = check_players(players)
    rules_name = check_hilo_rules(rules, players)
    shown = five
    if order is not None:
        shown = parse_cards(order, 5, what="order")
        if sorted(shown) != sorted(five):
            raise ValueError(
                f"order={order!r} is not an order of the hand's five cards; give the same "
                "five cards in reveal order"
            )
    if not isinstance(betting, bool):
        raise TypeError(f"betting={betting!r} must be True or False")
    hero_strategy = get_strategy(hero)
    strategies = opponent_strategies(reveal_opponents() if opponents is None else opponents,
                                     players)  # fmt: skip
    seats = [hero_strategy, *strategies]
    options = sampling(deals=deals, precision=precision, max_deals=max_deals, seed=seed,
                       batch_size=batch_size, progress=progress, unicode=unicode,
                       threads=threads)  # fmt: skip
    kinds = np.array([s.kind for s in seats], dtype=np.int64)
    params = np.stack([s.param_array() for s in seats])
    cbet, _, cdiscard, _, has_cdiscard = custom_functions(seats)
    dealer = players - 1
    cfg = make_cfg(Rules.hilo(players), dealer=dealer, rotate=False, betting=betting, hero=0,
                   force=FORCE_ORDER_DECLARE, random_cards=0, has_cpass=0,
                   has_cdiscard=has_cdiscard, record=False)  # fmt: skip
    # the kernel draws the hero's packet and discards, and the opponents'
    # hands less the three cards the right neighbour passed it
    check_capacity(players, 52 - 5, 5 + 7 * (players - 1) - 3)
    known_mask = mask_from_cards(five)
    choices = np.array([[*shown, d] for d in range(len(DECLARE_NAMES))], dtype=np.int64)
    k = len(choices)
    sums = _DeclareSums(k)
    value_acc = sums.net if betting else sums.share
    run = BatchRun.of(options, options.batch(DEFAULT_BATCH), "declarations")
    for start, size in run.batches(lambda: value_acc.se().max()):
        rows = _DeclareRows(size, k)
        reveal_batch(options.key, start, size, cfg, pub_at_pass(players), kinds, params,
                     known_mask, np.array(five, dtype=np.int64),
                     np.array([-1, -1], dtype=np.int64), np.array([-1, -1, -1], dtype=np.int64),
                     np.array(five[:3], dtype=np.int64), choices, rows.net, rows.share,
                     rows.opens, rows.folds, rows.pots, rows.cats, rows.hilo, cbet,
                     cdiscard)  # fmt: skip
        sums.add(rows)
    n = value_acc.deals
    frame = pd.DataFrame({"declare": list(DECLARE_NAMES)})
    frame["share"] = sums.share.mean()
    frame["high_share"] = sums.high / SHARE_SCALE / n
    frame["low_share"] = sums.low / SHARE_SCALE / n
    frame["swing_failed"] = sums.swing_failed / n
    frame["showdown_rate"] = sums.showdowns / n
    frame["mean_pot"] = sums.pot_total / n
    frame[list(CATEGORY_COLUMNS)] = sums.cat_counts / n
    attrs = model_attrs("declare", five, players, opponents=strategies, hero=hero_strategy,
                        betting=betting, options=options, rules=rules_name, dealer=dealer,
                        order=cards_text(shown, options.unicode))  # fmt: skip
    return finish(frame, value_acc, list(range(k)), attrs, options)


class _DeclareRows:
    """One batch's per-deal results of every declaration (the kernel's outputs)."""

    def __init__(self, deals: int, choices: int):
        self.net = np.zeros((deals, choices), dtype=np.int64)
        self.share = np.zeros((deals, choices), dtype=np.int64)
        self.opens = np.zeros((deals, choices, 4), dtype=np.int8)
        self.folds = np.zeros((deals, choices, 4), dtype=np.int8)
        self.pots = np.zeros((deals, choices), dtype=np.int64)
        self.cats = np.zeros((deals, choices), dtype=np.int8)
        self.hilo = np.zeros((deals, choices, 3), dtype=np.int64)


class _DeclareSums:
    """The sums over all batches: exact accumulators and diagnostic totals."""

    def __init__(self, choices: int):
        self.net = ChoiceAccumulator(choices, scale=1)
        self.share = ChoiceAccumulator(choices)
        self.high = np.zeros(choices, dtype=np.int64)
        self.low = np.zeros(choices, dtype=np.int64)
        self.swing_failed = np.zeros(choices, dtype=np.int64)
        self.pot_total = np.zeros(choices)
        self.showdowns = np.zeros(choices)
        self.cat_counts = np.zeros((choices, N_CATEGORIES), dtype=np.int64)

    def add(self, rows: _DeclareRows) -> None:
        self.net.add_units(rows.net)
        self.share.add_sums(rows.net.shape[0], rows.share.sum(axis=0), exact_products(rows.share))
        self.high += rows.hilo[:, :, 0].sum(axis=0)
        self.low += rows.hilo[:, :, 1].sum(axis=0)
        self.swing_failed += ((rows.hilo[:, :, 2] & SWING_FAILED) != 0).sum(axis=0)
        self.pot_total += rows.pots.sum(axis=0)
        self.showdowns += (rows.cats >= 0).sum(axis=0)
        add_categories(self.cat_counts, rows.cats)
