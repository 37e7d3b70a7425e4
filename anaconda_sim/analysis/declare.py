"""Hi-lo: what to declare with the kept five (R22): high, low or both, each
played from the discard on with betting, on common random numbers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..cards import parse_cards
from ..hands.declare import DECLARE_NAMES
from ..hands.evaluator import CATEGORY_COLUMNS
from ..sim.models import FORCE_ORDER_DECLARE
from ..strategies.spec import Strategy, get_strategy
from ..table.rules import Rules
from .driver import (
    DEFAULT_BATCH,
    CardsLike,
    OpponentSpec,
    Request,
    cards_text,
    check_players,
    finish,
    model_attrs,
    opponent_strategies,
    sampling,
)
from .fromdiscard import discard_model, score_orders

__all__ = ["declare_values"]

#: the rule set :func:`declare_values` plays
HILO_RULES = "hi-lo"


def check_hilo_rules(rules: Any, players: int) -> str:
    """``"hi-lo"``, or a clear error for any other rule set.

    ``rules`` is ``"hi-lo"`` or a :class:`~anaconda_sim.table.rules.Rules`
    equal to ``Rules.hilo(players)``.
    """

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
    hero: str | Strategy = "learned",
    opponents: OpponentSpec = "learned",
    betting: bool = True,
    request: Request | None = None,
    **keywords: Any,
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

    Opponents: by default ``"learned"``, the analyses' default (the learned
    strategy family was fitted to the default rules; docs/strategies.md says
    how it plays under hi-lo); give ``opponents=reveal_opponents()`` for the
    sensible field that reads the exposed cards
    (:func:`~anaconda_sim.analysis.reveal_opponents`). The hero's betting
    is ``hero``'s, by default ``"learned"`` as well.

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
    strategies = opponent_strategies(opponents, players)
    options = sampling(request, "declare_values", **keywords)
    dealer = players - 1
    model = discard_model(five, None, players, rules_name, [hero_strategy, *strategies],
                          betting=betting, dealer=dealer,
                          force=FORCE_ORDER_DECLARE)  # fmt: skip
    choices = np.array([[*shown, d] for d in range(len(DECLARE_NAMES))], dtype=np.int64)
    sums = score_orders(model, choices, options, DEFAULT_BATCH, "declarations")
    n = sums.share.deals
    frame = pd.DataFrame({"declare": list(DECLARE_NAMES)})
    frame["share"] = sums.share.mean()
    frame = frame.assign(**sums.hilo_columns())
    frame["showdown_rate"] = sums.showdowns / n
    frame["mean_pot"] = sums.pot_total / n
    frame[list(CATEGORY_COLUMNS)] = sums.cat_counts / n
    attrs = model_attrs("declare", five, players, opponents=strategies, hero=hero_strategy,
                        betting=betting, options=options, rules=rules_name, dealer=dealer,
                        order=cards_text(shown, options.unicode))  # fmt: skip
    return finish(frame, sums.value(betting), list(range(len(choices))), attrs, options)
