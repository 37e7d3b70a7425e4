"""Which two cards to discard (the value of each of the 21 discards, R8) and
the showdown equity of a hand at its stage: the showdown model after the pass."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..cards import format_cards, parse_cards
from ..hands.evaluator import CATEGORY_COLUMNS, best_five, evaluate
from ..hands.low import evaluate_low
from ..limits import DECK_SIZE
from ..rng import STREAM_SEAT, new_state
from ..sim.models import (
    FORCE_ORDER,
    RevealModel,
    compile_pass_model,
    score_keeps,
    score_passes,
)
from ..stats import ChoiceAccumulator
from ..strategies.spec import Strategy, get_strategy
from ..table.rules import Rules
from .driver import (
    DEFAULT_BATCH,
    HILO,
    BatchRun,
    CardsLike,
    OpponentSpec,
    ReceivedCondition,
    Request,
    Sampling,
    cards_text,
    check_bool,
    check_capacity,
    check_confirm,
    check_players,
    check_rules,
    finish,
    known_after_pass,
    known_cards,
    model_attrs,
    opponent_strategies,
    own_view,
    pub_at_pass,
    sampling,
    showdown_kernel_strategies,
)
from .fromdiscard import discard_model, score_orders, sensible_order
from .passes import score_passes_simulated
from .symmetry import Folding

__all__ = ["discard_values", "equity"]


def discard_values(
    hand: CardsLike,
    players: int,
    *,
    rules: str | Rules = "pagat",
    passed: CardsLike | None = None,
    received: CardsLike | None = None,
    known: CardsLike | None = None,
    hero: str | Strategy = "learned",
    opponents: OpponentSpec = "learned",
    confirm: int = 0,
    fold: bool = True,
    request: Request | None = None,
    **keywords: Any,
) -> pd.DataFrame:
    """Value of each of the 21 ways to discard two of the seven cards held (R8).

    Showdown model (see :mod:`anaconda_sim.analysis`): ``value`` is the
    hero's expected pot share. ``passed``: the three cards the hero passed
    (they are in the left neighbour's hand); ``received``: the three of
    ``hand`` that came from the right neighbour. Unnamed ones are unknown:
    an unknown packet passed is three unseen cards; unknown received cards
    are three of the hand drawn, per deal, together with the right
    neighbour's kept four from their posterior (every three of the hand and
    every four equally likely before the pass, kept when the neighbour's
    strategy passes that three from that seven: a rejection draw per deal,
    so a packet the strategy rarely passes is rarely the one it passed).
    Named received cards condition
    the right neighbour's seven on its having passed exactly them by its
    strategy (a ``"sensible"`` or ``"call-down"`` neighbour that passed
    2♣ 3♦ 4♥ held almost no other low card): its kept four are drawn among
    the fours with which its pass gives them, uniformly, enumerated once per call
    (exact, no rejection loop; :class:`~anaconda_sim.sim.models.ReceivedCondition`).
    A ``"random"`` or ``"random-pass"`` neighbour passes any three with the
    same probability, so for it the named cards change nothing. The table's
    ``attrs["received_acceptance"]`` is the share of the unseen fours that
    pass the named cards (``None`` when nothing is conditioned; 0.0 when no
    four does, and the neighbour's four are then left unconditioned).
    ``known``: other cards known to be in no opponent's hand (never dealt).
    The hero keeps the five being scored, so it has no strategy to name and
    nobody bets. ``confirm``:
    re-estimate the best ``confirm`` discards on fresh, independent deals
    (:func:`~anaconda_sim.analysis.driver.confirm_top`). ``fold``: discards
    that are one discard up to a relabelling of suits nothing known tells
    apart (the hand, ``passed``, ``received``, ``known``;
    :mod:`~anaconda_sim.analysis.symmetry`) are one row, valued as the mean
    of its discards, with their number in ``count`` and the discards in
    ``attrs["members"]``; ``fold=False`` gives one row per discard.

    Under ``rules="hi-lo"`` (R21-R26) the deal is played on from the discard
    by the simulator's kernels (:mod:`~anaconda_sim.analysis.fromdiscard`),
    nobody betting: every opponent discards by its strategy, the hero reveals
    the five being scored hiding its most telling card
    (:func:`~anaconda_sim.strategies.reveal_order_hiding_most_telling`),
    every seat declares by its strategy (the hero by ``hero``'s, R22) and
    the pot splits between the high and the low half (R23-R25). ``value``
    is the hero's expected share of the pot, both halves included.
    Elsewhere ``hero`` plays no part (the hero keeps the five scored).
    Default hero and opponents: ``"learned"``.

    Returns
    -------
    pandas.DataFrame
        21 rows (fewer when folded), best first: ``discard``, ``keep``,
        ``count`` (with ``fold``), the core columns, the
        kept five's ``hand_value`` and its category as ``cat_*`` columns
        (one of them 1.0). Exact ties (discards giving the same five-card
        value) are ordered like :func:`~anaconda_sim.hands.evaluator.best_five`.
        Under hi-lo also ``low_value`` (the five's ace-to-five low value,
        :func:`~anaconda_sim.hands.low.evaluate_low`), ``high_share``,
        ``low_share`` (the hero's mean shares of the pot taken in each half)
        and ``swing_failed``; ``cat_*`` are then the hero's categories at
        the showdown (shares of all deals).

    Examples
    --------
    >>> table = discard_values("Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠", 6, passed="3♠ 4♥ 2♣",
    ...                        received="Q♦ 9♦ 5♠", deals=2000, seed=1)
    >>> table["discard"].iloc[0]
    '8♦ 5♠'
    >>> mirrored = discard_values("K♠ K♥ 9♠ 9♥ 5♠ 5♥ 2♣", 4, deals=300, seed=1)
    >>> len(mirrored), int(mirrored["count"].sum()), mirrored.attrs["suit_symmetries"]
    (12, 21, ['(♥ ♠)'])
    >>> discard_values("Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠", 6, passed="Q♠ 4♥ 2♣")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: passed card Qs is still in the hand 'Qs Qh Qd 9c 9d 8d 5s'; ...
    """

    hero7 = parse_cards(hand, 7, what="hand")
    players = check_players(players)
    rules_name = check_rules(rules, players)
    strategies = opponent_strategies(opponents, players)
    options = sampling(request, "discard_values", **keywords)
    confirm = check_confirm(confirm, 21)
    fold = check_bool(fold, "fold")
    passed_cards, received_cards = known_after_pass(hero7, passed, received)
    discards = list(itertools.combinations(hero7, 2))
    fives = [[c for c in hero7 if c not in d] for d in discards]
    frame = pd.DataFrame({
        "discard": [cards_text(d, options.unicode) for d in discards],
        "keep": [cards_text(f, options.unicode) for f in fives],
    })  # fmt: skip
    frame["hand_value"] = evaluate(np.array(fives)).astype(int)
    hero_strategy = get_strategy(hero)
    hilo = rules_name == HILO
    if hilo:

        model = _hilo_model(hero7[:5], hero7[5:], players, hero_strategy, strategies,
                            passed_cards, received_cards, known)  # fmt: skip
        orders = np.array([sensible_order(f) for f in fives], dtype=np.int64)
        sums = score_orders(model, orders, options, DEFAULT_BATCH, "discards")
        acc, cat_counts = sums.share, sums.cat_counts
        acceptance = model.received_acceptance
        frame["low_value"] = evaluate_low(np.array(fives)).astype(int)
        frame = frame.assign(**sums.hilo_columns())
    else:
        acc, cat_counts, condition = _score_fives(hero7, players, fives, passed_cards,
                                                  received_cards, 0, known, strategies, options,
                                                  "discards")  # fmt: skip
        acceptance = condition.acceptance
    frame[list(CATEGORY_COLUMNS)] = cat_counts / acc.deals
    attrs = model_attrs(
        "discard", hero7, players, opponents=strategies, hero=hero_strategy if hilo else None,
        betting=False, options=options, rules=rules_name,
        passed=_optional_text(passed_cards, options.unicode),
        received=_optional_text(received_cards, options.unicode),
        received_acceptance=acceptance, fold=fold,
    )  # fmt: skip
    seen = [hero7, passed_cards, received_cards,
            None if known is None else parse_cards(known, what="known cards")]  # fmt: skip
    folding = Folding.of(discards, seen, ordered=False, unicode=options.unicode) if fold else None

    def rescore(rows: np.ndarray, opts: Sampling) -> ChoiceAccumulator:
        if hilo:
            return score_orders(model, orders[rows], opts, DEFAULT_BATCH, "discards").share
        chosen = [fives[r] for r in rows]
        return _score_fives(hero7, players, chosen, passed_cards, received_cards, 0, known,
                            strategies, opts, "discards")[0]  # fmt: skip

    return finish(frame, acc, [_best_five_order(f) for f in fives], attrs, options,
                  confirm=confirm, rescore=rescore, folding=folding)  # fmt: skip


def equity(
    hand: CardsLike,
    players: int,
    *,
    rules: str | Rules = "pagat",
    passed: CardsLike | None = None,
    received: CardsLike | None = None,
    known: CardsLike | None = None,
    hero: str | Strategy = "learned",
    opponents: OpponentSpec = "learned",
    request: Request | None = None,
    **keywords: Any,
) -> pd.DataFrame:
    """Showdown equity (expected pot share) of the hero's hand at its stage.

    ``known``: cards known to be in no opponent's hand (the hero's own
    discards with a five-card hand, or cards seen elsewhere); they are never
    dealt. Impossible constraints (too few unseen cards left for the table)
    raise ``ValueError``.

    The stage follows from what is given:

    - 7 cards, no ``passed``/``received``: at the deal; the hero passes with
      ``hero``'s pass (default ``"learned"``'s, the default field's) and
      keeps its best five.
    - 7 cards with ``passed`` and/or ``received``: after the pass; the hero
      keeps its best five. Named ``received`` cards condition the right
      neighbour's hand as in :func:`discard_values`
      (``attrs["received_acceptance"]``).
    - 5 cards: after the discard; the hero's two discards are unknown cards.

    Under ``rules="hi-lo"`` (R21-R26) the deal is played on by the
    simulator's kernels, nobody betting: at the deal complete deals
    (:func:`~anaconda_sim.analysis.passes.score_passes_simulated`), later
    from the discard on (:mod:`~anaconda_sim.analysis.fromdiscard`). The
    hero passes, keeps (``hero_keep``, after the pass) and declares by
    ``hero``'s strategy; a five-card hand is revealed hiding its most
    telling card. ``value`` is the expected share of the pot, both halves
    included; ``high_share`` and ``low_share`` split it by half.

    Returns
    -------
    pandas.DataFrame
        One row: ``stage`` (and ``hero_pass`` at the deal, ``hero_keep``
        after the pass under hi-lo), ``players``, the
        core columns (``value`` is the equity; ``rank`` 1, no difference),
        ``deals`` and the final categories ``cat_*``.

    Examples
    --------
    >>> row = equity("Q♠ Q♥ Q♦ 9♣ 9♦", 4, deals=4000, seed=3)
    >>> row["stage"].item(), bool(0.3 < row["value"].item() < 1.0)
    ('after discard', True)
    """
    players = check_players(players)
    rules_name = check_rules(rules, players)
    cards = parse_cards(hand, (5, 7), what="hand")
    hero_strategy = get_strategy(hero)
    strategies = opponent_strategies(opponents, players)
    options = sampling(request, "equity", **keywords)
    hilo = rules_name == HILO
    hero_pass = hero_keep = None
    acceptance: float | None = None
    halves: dict[str, np.ndarray] = {}
    if len(cards) == 5:
        if passed is not None or received is not None:
            raise ValueError(
                "passed/received describe a seven-card hand after the pass; "
                "give the seven cards held, or omit them for a five-card hand"
            )
        stage = "after discard"
        if hilo:
            model = _hilo_model(cards, None, players, hero_strategy, strategies, None, None,
                                known)  # fmt: skip
            sums = score_orders(model, np.array([sensible_order(cards)], dtype=np.int64), options,
                               DEFAULT_BATCH, "equity")  # fmt: skip
            acc, cat_counts, halves = sums.share, sums.cat_counts, sums.hilo_columns()
        else:
            acc, cat_counts, _ = _score_fives(cards, players, [cards], None, None, 2, known,
                                              strategies, options, "equity")  # fmt: skip
    elif passed is None and received is None:
        stage = "at deal"
        if hilo:

            dead = known_cards(known, cards)
            check_capacity(players, 45 - len(dead), 7 * (players - 1))
            hilo_packet = _hilo_pass(cards, players, hero_strategy, options)
            scored = score_passes_simulated(
                np.array(cards, dtype=np.int64), np.array([hilo_packet], dtype=np.int64),
                players, HILO, hero_strategy, strategies, dead, options, betting=False,
                what="equity",
            )  # fmt: skip
            acc, cat_counts, halves = scored.acc, scored.cat_counts, scored.halves
            hero_pass = format_cards(hilo_packet, unicode=options.unicode)
        else:
            acc, cat_counts, packet = _equity_at_deal(cards, players, hero_strategy, strategies,
                                                      known, options)  # fmt: skip
            hero_pass = format_cards(packet, unicode=options.unicode)
    else:

        stage = "after pass"
        passed_cards, received_cards = known_after_pass(cards, passed, received)
        if hilo:
            discarded, order = _hilo_discard(cards, players, hero_strategy, options)
            model = _hilo_model(order, discarded, players, hero_strategy, strategies,
                                passed_cards, received_cards, known)  # fmt: skip
            sums = score_orders(model, np.array([order], dtype=np.int64), options, DEFAULT_BATCH,
                               "equity")  # fmt: skip
            acc, cat_counts, halves = sums.share, sums.cat_counts, sums.hilo_columns()
            hero_keep = format_cards(order, unicode=options.unicode)
            acceptance = model.received_acceptance
        else:
            five, _ = best_five(cards)
            acc, cat_counts, condition = _score_fives(cards, players, [list(five)], passed_cards,
                                                      received_cards, 0, known, strategies,
                                                      options, "equity")  # fmt: skip
            acceptance = condition.acceptance
    frame = pd.DataFrame({"stage": [stage]})
    if hero_pass is not None:
        frame["hero_pass"] = [hero_pass]
    if hero_keep is not None:
        frame["hero_keep"] = [hero_keep]
    frame["players"] = players
    frame["deals"] = acc.deals
    frame = frame.assign(**{k: v[:1] for k, v in halves.items()})
    frame[list(CATEGORY_COLUMNS)] = cat_counts / acc.deals
    attrs = model_attrs("equity", cards, players, opponents=strategies,
                        hero=hero_strategy if stage == "at deal" or hilo else None,
                        betting=False, options=options, rules=rules_name,
                        stage=stage, received_acceptance=acceptance)  # fmt: skip
    return finish(frame, acc, [0], attrs, options)


def _hilo_model(
    five: list[int], discards: list[int] | None, players: int, hero: Strategy,
    strategies: list[Strategy], passed: list[int] | None, received: list[int] | None,
    known: CardsLike | None,
) -> RevealModel:  # fmt: skip
    """The hi-lo showdown model from the discard on: nobody bets, every seat
    declares by its strategy (:func:`~anaconda_sim.analysis.fromdiscard.discard_model`)."""

    return discard_model(five, discards, players, HILO, [hero, *strategies], betting=False,
                         dealer=players - 1, force=FORCE_ORDER, passed=passed,
                         received=received, known=known)  # fmt: skip


def _hilo_pass(cards: list[int], players: int, hero: Strategy, options: Sampling) -> list[int]:
    """The hero's hi-lo pass by its strategy (its stream of deal 0)."""

    pub, own = pub_at_pass(players, HILO), own_view(0, cards)
    return [int(c) for c in hero.decide_pass(pub, own, new_state(options.key, 0, STREAM_SEAT))]


def _hilo_discard(
    cards: list[int], players: int, hero: Strategy, options: Sampling
) -> tuple[list[int], list[int]]:
    """The hero's hi-lo discards and reveal order by its strategy (stream of deal 0)."""

    pub, own = pub_at_pass(players, HILO, stage=1), own_view(0, cards)
    discarded, order = hero.decide_discard(pub, own, new_state(options.key, 0, STREAM_SEAT))
    return [int(c) for c in discarded], [int(c) for c in order]


def _optional_text(cards: Sequence[int] | None, unicode: bool) -> str | None:
    return None if cards is None else cards_text(cards, unicode)


def _score_fives(
    hand: list[int], players: int, fives: Sequence[Sequence[int]], passed: list[int] | None,
    received: list[int] | None, dead: int, known: CardsLike | None,
    strategies: list[Strategy], options: Sampling, what: str,
) -> tuple[ChoiceAccumulator, np.ndarray, ReceivedCondition]:  # fmt: skip
    """The showdown model after the pass: the hero's pot share with each of
    ``fives`` (``dead`` of its cards unknown), its final categories, and the
    condition the named ``received`` cards put on the right neighbour."""

    taken = list(hand) + (passed or [])
    extra = known_cards(known, taken)
    dead = max(dead - len(extra), 0)  # named dead cards stand for unknown discards first
    needed = (0 if passed else 3) + dead + 7 * (players - 1) - (3 if received else 0)
    check_capacity(players, DECK_SIZE - len(taken) - len(extra), needed)
    run = BatchRun.of(options, options.batch(), what)
    scores = score_keeps(run.batches, options.key, players, strategies, hand, fives,
                         passed=passed, received=received, known=extra,
                         unknown=dead)  # fmt: skip
    return scores.acc, scores.cat_counts, scores.condition


def _best_five_order(five: Sequence[int]) -> tuple[int, ...]:
    """Tie-break among equal values, as ``best_five``: the five whose
    descending card indices are lexicographically largest comes first."""
    return tuple(-c for c in sorted(five, reverse=True))


def _equity_at_deal(
    cards: list[int], players: int, hero: Strategy, strategies: list[Strategy],
    known: CardsLike | None, options: Sampling,
) -> tuple[ChoiceAccumulator, np.ndarray, np.ndarray]:  # fmt: skip
    """Equity at the deal: the hero passes by ``hero``'s pass, keeps its best five."""

    showdown_kernel_strategies(strategies)  # refuse custom strategies before the hero's pass
    extra = known_cards(known, cards)
    check_capacity(players, 45 - len(extra), 7 * (players - 1))
    pub, own = pub_at_pass(players), own_view(0, cards)
    # a first call compiles the hero's pass on every core with the model's
    # kernels, not alone on one core before them (about 1.5 s sooner)
    compile_pass_model(players, strategies, cards, known=extra)
    # the hero's pass is a function of its cards (and its stream of deal 0)
    packet = hero.decide_pass(pub, own, new_state(options.key, 0, STREAM_SEAT))
    choices = np.array([packet], dtype=np.int64)
    run = BatchRun.of(options, options.batch(), "equity")
    scores = score_passes(run.batches, options.key, players, strategies, cards, choices,
                          known=extra)  # fmt: skip
    return scores.acc, scores.cat_counts, packet
