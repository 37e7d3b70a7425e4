"""In what order to reveal the kept five: the value of each of the 120
orders (R8, R9), played from the discard on with betting."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

from ..cards import parse_cards
from ..checks import check_int
from ..hands.evaluator import CATEGORY_COLUMNS
from ..sim.models import FORCE_ORDER
from ..stats import ChoiceAccumulator
from ..strategies.spec import Strategy, get_strategy
from ..table.rules import REVEAL_ROUNDS, Rules
from .driver import (
    REVEAL_BATCH,
    CardsLike,
    OpponentSpec,
    Request,
    Sampling,
    cards_text,
    check_bool,
    check_confirm,
    check_players,
    check_rules,
    finish,
    model_attrs,
    no_overlap,
    opponent_strategies,
    sampling,
)
from .fromdiscard import discard_model, score_orders
from .symmetry import Folding

__all__ = ["reveal_opponents", "reveal_values"]


def reveal_values(
    hand: CardsLike,
    players: int,
    *,
    rules: str | Rules = "pagat",
    by: str | None = None,
    discards: CardsLike | None = None,
    passed: CardsLike | None = None,
    received: CardsLike | None = None,
    known: CardsLike | None = None,
    hero: str | Strategy = "learned",
    opponents: OpponentSpec = "learned",
    betting: bool = True,
    dealer: int | None = None,
    confirm: int = 0,
    fold: bool = True,
    request: Request | None = None,
    **keywords: Any,
) -> pd.DataFrame:
    """Value of each of the 120 orders in which to reveal the kept five (R8, R9).

    The model: the deal is played from the discard on. The hero (seat 0) holds
    ``hand`` plus its two ``discards`` (unknown cards when not given). The
    opponents' hands after the pass follow the showdown model of
    :mod:`anaconda_sim.analysis`: each is dealt seven unseen cards and
    passes three to its left by its strategy (the hero's ``passed`` cards
    sit in the left neighbour's hand; named ``received`` cards condition the
    right neighbour's seven on its strategy passing them, as in
    :func:`~anaconda_sim.analysis.discard_values`,
    ``attrs["received_acceptance"]``). Betting rounds 1 and 2 are taken as
    checked around, so the pot at the discard holds the antes only. Then
    every opponent discards and orders by its strategy, the hero reveals in
    the order being scored, and the four reveal rounds are bet by
    ``hero``'s and the opponents' strategies (openers per R11/R12), then the
    showdown (R10, R18-R20). The dealer is seat ``players - 1`` unless
    ``dealer`` is given, so the hero is first after the dealer and wins ties
    for the opener (R12). ``known``: other cards in no opponent's hand.

    Opponents: by default ``"learned"`` (the learned strategy family with
    the parameters shipped for the table size, :mod:`anaconda_sim.strategies.learned`;
    it reads the exposed cards). :func:`reveal_opponents` gives a field
    against which the order matters a lot for hands made of groups:
    ``"sensible"`` players who stay in the reveal rounds with two pair or
    better and fold to a bet when a rival's exposed cards already beat them.
    Against opponents who ignore the exposed cards (the plain ``"sensible"``
    preset folds or calls on its own hand alone in the reveal rounds) every
    order is worth the same. The hero's betting is ``hero``'s, by default
    ``"learned"`` too: the best order for a seat of the default field.

    Under ``rules="hi-lo"`` (R21-R26) every seat still in after the last
    betting round declares by its strategy (the hero by ``hero``'s) and the
    pot splits between the high and the low half; the table adds
    ``high_share``, ``low_share`` and ``swing_failed``
    (:meth:`~anaconda_sim.sim.models.OrderSums.hilo_columns`).

    ``value`` is the hero's mean net chips per deal. With ``betting=False``
    nobody bets and ``value`` is its pot share, the same for every order:
    the reveal order matters only through what the table does with it.

    Parameters
    ----------
    by
        ``None``: one row per order. ``"hidden"``: five rows, one per hidden
        card, each the average over its 24 orders (with paired errors),
        plus the best order with that card hidden.
    confirm
        Re-estimate the best ``confirm`` orders on fresh, independent deals
        (:func:`~anaconda_sim.analysis.driver.confirm_top`).
    fold
        ``True``: orders that are one order up to a relabelling of suits
        nothing known tells apart (the hand, ``discards``, ``passed``,
        ``received``, ``known``; :mod:`~anaconda_sim.analysis.symmetry`)
        are one row, valued as the mean of its orders, with their number in
        ``count`` and the orders in ``attrs["members"]`` (and so for the
        hidden cards with ``by="hidden"``). ``False``: one row per order.

    Returns
    -------
    pandas.DataFrame
        Best first: ``order`` (reveal order, last card hidden), ``hidden``,
        ``first``, ``count`` (the orders the row stands for, with ``fold``),
        the core columns; diagnostics ``share`` (mean pot
        share), ``showdown_rate``, ``open_r1`` .. ``open_r4`` (how often the
        hero opens each reveal round), ``opp_fold_r1`` .. ``opp_fold_r4``
        (opponents' fold rate by reveal round), ``mean_pot``, and the hero's
        final categories ``cat_*`` (shares of all deals).

    Examples
    --------
    >>> table = reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 4, deals=300, seed=1)
    >>> len(table), table.columns[:4].tolist(), table.attrs["value_unit"]
    (60, ['order', 'hidden', 'first', 'count'], 'chips per deal')
    >>> table.attrs["suit_symmetries"], int(table["count"].sum())
    (['(♥ ♠)'], 120)
    >>> table.attrs["members"]["Q♠ Q♥ Q♦ 9♣ 9♦"]
    ['Q♠ Q♥ Q♦ 9♣ 9♦', 'Q♥ Q♠ Q♦ 9♣ 9♦']
    >>> len(reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 4, deals=300, seed=1, fold=False))
    120
    >>> sorted(reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 4, by="hidden", deals=300, seed=1)["count"])
    [1, 1, 1, 2]
    >>> reveal_values("Q♠ Q♥ Q♦ 9♣", 4)
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: hand 'Q♠ Q♥ Q♦ 9♣' has 4 cards; it needs 5
    """

    five = parse_cards(hand, 5, what="hand")
    players = check_players(players)
    rules_name = check_rules(rules, players)
    if by not in (None, "hidden"):
        raise ValueError(f"by={by!r} is not supported; use None (every order) or 'hidden'")
    dead = None if discards is None else parse_cards(discards, 2, what="discards")
    if dead is not None:
        no_overlap(five, dead, "discards", "the kept five")
    if dealer is None:
        dealer = players - 1
    dealer = check_int(dealer, "dealer", low=0, high=players - 1,
                       why=f"seats are 0..{players - 1}")  # fmt: skip
    hero_strategy = get_strategy(hero)
    strategies = opponent_strategies(opponents, players)
    options = sampling(request, "reveal_values", **keywords)
    confirm = check_confirm(confirm, 120)
    fold = check_bool(fold, "fold")
    model = discard_model(five, dead, players, rules_name, [hero_strategy, *strategies],
                          betting=betting, dealer=int(dealer), force=FORCE_ORDER,
                          passed=passed, received=received, known=known)  # fmt: skip
    orders = np.array(list(itertools.permutations(five)), dtype=np.int64)
    sums = score_orders(model, orders, options, REVEAL_BATCH, "reveal orders")
    value_acc = sums.value(betting)
    n = value_acc.deals
    frame = pd.DataFrame({
        "order": [cards_text(o, options.unicode) for o in orders],
        "hidden": [cards_text(o[4:], options.unicode) for o in orders],
        "first": [cards_text(o[:1], options.unicode) for o in orders],
    })  # fmt: skip
    frame["share"] = sums.share.mean()
    if model.hilo:
        frame = frame.assign(**sums.hilo_columns())
    frame["showdown_rate"] = sums.showdowns / n
    for r in range(REVEAL_ROUNDS):
        frame[f"open_r{r + 1}"] = sums.opens[:, r] / n
    for r in range(REVEAL_ROUNDS):
        frame[f"opp_fold_r{r + 1}"] = sums.folds[:, r] / (n * (players - 1))
    frame["mean_pot"] = sums.pot_total / n
    frame[list(CATEGORY_COLUMNS)] = sums.cat_counts / n
    attrs = model_attrs("order", five, players, opponents=strategies, hero=hero_strategy,
                        betting=betting, options=options, rules=rules_name,
                        dealer=int(dealer), fold=fold,
                        received_acceptance=model.received_acceptance)  # fmt: skip
    # what the hero knows: the only cards whose suits a relabelling must keep
    seen = [five, dead, *(None if cards is None else parse_cards(cards, what=what)
                          for cards, what in ((passed, "passed cards"),
                                              (received, "received cards"),
                                              (known, "known cards")))]  # fmt: skip
    if by == "hidden":
        if confirm:
            raise ValueError(
                "confirm re-estimates single orders; use it with by=None (the 120 orders)"
            )
        folding = Folding.of([(c,) for c in five], seen, ordered=True,
                             unicode=options.unicode) if fold else None  # fmt: skip
        return _by_hidden(frame, value_acc, orders, five, attrs, options, folding)
    folding = Folding.of(orders.tolist(), seen, ordered=True,
                         unicode=options.unicode) if fold else None  # fmt: skip

    def rescore(rows: np.ndarray, opts: Sampling) -> ChoiceAccumulator:
        return score_orders(model, orders[rows], opts, REVEAL_BATCH, "reveal orders").value(betting)

    return finish(frame, value_acc, [tuple(o) for o in orders.tolist()], attrs, options,
                  confirm=confirm, rescore=rescore, folding=folding)  # fmt: skip


def reveal_opponents() -> Strategy:
    """Opponents for :func:`reveal_values` that make the reveal order count:
    ``"sensible"`` with ``continue_late=2`` (stay in the reveal rounds with
    two pair or better; fold to a bet when a rival's exposed cards alone
    beat their hand, R11). Pass them as ``opponents=reveal_opponents()``;
    the analyses' default opponents are ``"learned"``.

    Examples
    --------
    >>> reveal_opponents().param_dict()["continue_late"]
    2.0
    """
    return get_strategy("sensible", continue_late=2)


def _by_hidden(
    frame: pd.DataFrame, acc: ChoiceAccumulator, orders: np.ndarray, five: list[int],
    attrs: dict[str, Any], options: Sampling, folding: Folding | None,
) -> pd.DataFrame:  # fmt: skip
    """Five rows: the mean over the 24 orders hiding each card, with paired errors
    (hidden cards alike up to a suit relabelling folded by ``folding``)."""
    weights = np.array([[int(o[4] == card) for o in orders] for card in five], dtype=np.int64)
    grouped = acc.combine(weights)
    mean = acc.mean()
    best = [int(np.flatnonzero(weights[h])[np.argmax(mean[weights[h] == 1])]) for h in range(5)]
    table = pd.DataFrame({"hidden": [cards_text([c], options.unicode) for c in five]})
    table["best_order"] = [frame.iloc[b]["order"] for b in best]
    table["best_order_value"] = mean[best]
    shared = ("share", "high_share", "low_share", "swing_failed", "showdown_rate", "mean_pot")
    for column in (c for c in shared if c in frame):
        table[column] = [frame.loc[weights[h] == 1, column].mean() for h in range(5)]
    attrs = {**attrs, "analysis": "order by hidden card"}
    return finish(table, grouped, [(c,) for c in five], attrs, options, folding=folding)
