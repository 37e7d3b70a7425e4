"""Strategy analysis: the value of every pass, discard and reveal order.

Each function scores *all* choices of one decision on the same deals and the
same random numbers (common random numbers), so the differences between
choices are measured far more precisely than the values themselves. Tables
come back as pandas DataFrames, best choice first, with ``value``, ``se``,
``ci_low``, ``ci_high`` (95%), ``rank``, ``diff_vs_best`` and ``diff_se`` (the
paired standard error of the difference from the best choice).

Models
------
Showdown model (``betting=False``): nobody bets or folds. The hero sits at
seat 0, its left neighbour at seat 1 and its right neighbour at seat ``n-1``.
Every opponent is dealt seven cards the hero has not seen, passes three to
its left with its own strategy (R7), keeps five with its own strategy (R8),
and the best five-card hand takes the pot (R10, R18), ties splitting it
(R19). ``value`` is the hero's expected share of the pot: 1.0 means it wins
alone every deal. Known cards are honoured: cards the hero passed sit in the
left neighbour's hand, cards it received came from the right neighbour's.

Betting model (``betting=True``): complete deals under the rules with every
seat's betting strategy; ``value`` is the hero's mean net chips per deal.
See :func:`reveal_values` for the reveal model.

Stopping
--------
``deals=N`` runs N deals. ``precision=p`` runs batches until every row's
``se`` is below ``p`` (or ``max_deals`` is reached). The same seed gives the
same table whatever the batch size or thread count.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..game import views as V
from ..stats import SHARE_SCALE, Z95, ChoiceAccumulator, MeanAccumulator
from ..cards import CardError, format_cards, mask_from_cards, parse_cards
from ..rng import SeedLike, root_key
from ..strategies import KIND_CUSTOM, PARAM_SLOTS, Strategy, get_strategy

__all__ = ["discard_values", "equity", "pass_values", "reveal_opponents", "reveal_values"]

CATEGORY_COLUMNS = (
    "cat_high_card", "cat_pair", "cat_two_pair", "cat_trips", "cat_straight",
    "cat_flush", "cat_full_house", "cat_quads", "cat_straight_flush",
)  # fmt: skip

DEFAULT_DEALS = 20_000
DEFAULT_MAX_DEALS = 2_000_000
BATCH = 8192

OpponentSpec = str | Strategy | Sequence[str | Strategy]


# ------------------------------------------------------------- validation --
def _check_players(players: int) -> int:
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise TypeError(f"players must be an int from 2 to 7, got {players!r}")
    if not 2 <= int(players) <= 7:
        raise ValueError(f"players={players} is outside 2..7 (R2); choose 2 to 7 players")
    return int(players)


def _opponents(spec: OpponentSpec, players: int) -> list[Strategy]:
    """One strategy per opponent seat 1..n-1 (left neighbour first)."""
    if isinstance(spec, (str, Strategy)):
        return [get_strategy(spec)] * (players - 1)
    strategies = [get_strategy(s) for s in spec]
    if len(strategies) != players - 1:
        raise ValueError(
            f"opponents has {len(strategies)} strategies for {players - 1} opponents; "
            f"give one strategy, or one per opponent seat (left neighbour first)"
        )
    return strategies


def _kernel_strategies(opponents: list[Strategy], hero: Strategy | None = None):
    for strategy in opponents:
        if strategy.kind == KIND_CUSTOM:
            raise ValueError(
                f"custom strategy {strategy.name!r} needs the betting model; "
                "pass betting=True (the showdown model runs built-in card play only)"
            )
    seats = [hero or get_strategy("call-down"), *opponents]
    kinds = np.array([s.kind for s in seats], dtype=np.int64)
    params = np.zeros((len(seats), PARAM_SLOTS))
    for i, s in enumerate(seats):
        params[i] = s.param_array()
    return kinds, params


def _pass_pub(players: int) -> np.ndarray:
    pub = V.new_pub()
    pub[V.P_PLAYERS] = players
    pub[V.P_DEALER] = players - 1
    pub[V.P_STAGE] = 0
    pub[V.P_NROUNDS] = 6
    pub[V.P_POT] = players
    pub[V.P_MAX_LEVEL] = 4
    pub[V.P_BET_SIZE] = 1
    pub[V.P_ACTIVE] = players
    pub[V.P_PASS_COUNT] = 3
    pub[V.P_PASS_DIR] = 1
    pub[V.P_FIVE_CARD] = 1
    pub[V.P_INVESTED : V.P_INVESTED + players] = 1
    return pub


def _stopping(deals: int | None, precision: float | None, max_deals: int) -> tuple[int, float]:
    if deals is not None and precision is not None:
        raise ValueError("give deals= or precision=, not both")
    if precision is not None:
        if not precision > 0:
            raise ValueError(f"precision={precision} must be a positive standard error")
        if max_deals < 1:
            raise ValueError(f"max_deals={max_deals} must be at least 1")
        return int(max_deals), float(precision)
    deals = DEFAULT_DEALS if deals is None else deals
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 2:
        raise ValueError(f"deals={deals!r} must be an int >= 2")
    return int(deals), 0.0


def _progress(total: int, enabled: bool | None, what: str):
    if enabled is False:
        return contextlib.nullcontext(_NoBar())
    from tqdm.auto import tqdm

    # shown only when a run lasts more than a couple of seconds
    return tqdm(total=total, unit="deal", desc=what, delay=2.0, leave=False)


class _NoBar:
    def update(self, _count: int) -> None:
        pass


@dataclass
class _Run:
    """Batches of a kernel until the deal count or the precision is reached."""

    key: np.uint64
    limit: int
    precision: float
    batch: int
    progress: bool | None
    what: str

    def batches(self, se_of):
        """Yield ``(start, size)``; ``se_of()`` gives the current worst se."""
        start = 0
        with _progress(self.limit, self.progress, self.what) as bar:
            while start < self.limit:
                size = min(self.batch, self.limit - start)
                yield start, size
                start += size
                bar.update(size)
                if self.precision and start >= 2 * self.batch and se_of() < self.precision:
                    break


def _finish(frame: pd.DataFrame, acc: ChoiceAccumulator, order_key: list, attrs: dict):
    mean, se = acc.mean(), acc.se()
    # the best by value; among exact ties the documented tie-break order decides
    best = min(range(len(mean)), key=lambda k: (-mean[k], order_key[k]))
    frame["value"] = mean
    frame["se"] = se
    frame["ci_low"] = mean - Z95 * se
    frame["ci_high"] = mean + Z95 * se
    frame["diff_vs_best"] = mean - mean[best]
    frame["diff_se"] = acc.diff_se(best)
    frame["_tie"] = order_key
    frame = frame.sort_values(["value", "_tie"], ascending=[False, True], kind="stable")
    frame = frame.drop(columns="_tie").reset_index(drop=True)
    frame["rank"] = frame["value"].rank(method="min", ascending=False).astype(int)
    stats = ["rank", "value", "se", "ci_low", "ci_high", "diff_vs_best", "diff_se"]
    labels = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    rest = [c for c in frame.columns if c not in stats and c not in labels]
    frame = frame[labels + stats + rest]
    frame.attrs.update(attrs, deals=acc.deals)
    return frame


def _add_categories(counts: np.ndarray, cats: np.ndarray) -> None:
    """Add per-deal final categories (``cats[deal, choice]``, -1: none) to ``counts``."""
    k = cats.shape[1]
    cells = cats.astype(np.int64) + 9 * np.arange(k)
    counts += np.bincount(cells[cats >= 0], minlength=9 * k).reshape(k, 9)


def _text(cards, unicode: bool) -> str:
    return format_cards(cards, unicode=unicode)


# ------------------------------------------------------------------- pass --
def pass_values(
    hand: str | Sequence[str | int],
    players: int,
    *,
    opponents: OpponentSpec = "random-pass",
    betting: bool = False,
    hero: str | Strategy = "sensible",
    deals: int | None = None,
    precision: float | None = None,
    max_deals: int = DEFAULT_MAX_DEALS,
    seed: SeedLike = None,
    batch_size: int = BATCH,
    progress: bool | None = None,
    unicode: bool = True,
) -> pd.DataFrame:
    """Value of each of the 35 ways to pass three of seven cards (R7).

    Parameters
    ----------
    hand
        The seven cards dealt to the hero.
    players
        Table size, 2 to 7.
    opponents
        A strategy (name or :class:`~anaconda_sim.strategies.Strategy`) for
        every opponent, or one per opponent seat, left neighbour first.
        ``"random-pass"``: passes three uniformly random cards, keeps its best
        five, never folds.
    betting
        ``False``: showdown model, ``value`` = expected share of the pot.
        ``True``: complete deals with betting (the hero at seat 0, first
        after the dealer), ``value`` = mean net chips; ``left_gain`` is then
        the left neighbour's mean net chips relative to the average pass,
        without a standard error.
    hero
        The hero's strategy for its decisions other than the pass
        (``betting=True`` only; without betting it keeps its best five).
    deals, precision, max_deals
        Stopping rule (see the module docstring).
    seed
        Same seed, same table.

    Returns
    -------
    pandas.DataFrame
        One row per pass, best first: ``pass``, ``keep``, ``rank``,
        ``value``, ``se``, ``ci_low``, ``ci_high``, ``diff_vs_best``,
        ``diff_se``, the hero's final-category distribution
        (``cat_high_card`` .. ``cat_straight_flush``) and the left
        neighbour's gain ``left_gain`` (its value with this pass minus its
        average over all 35 passes, with ``left_gain_se``).

    Examples
    --------
    >>> table = pass_values("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", 6, deals=2000, seed=1)
    >>> len(table), int(table["rank"].iloc[0])
    (35, 1)
    >>> pass_values("Qs Qh 9c", 6)
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: hand 'Qs Qh 9c' has 3 cards; it needs 7
    """
    hero7 = np.array(parse_cards(hand, 7, what="hand"), dtype=np.int64)
    players = _check_players(players)
    strategies = _opponents(opponents, players)
    limit, precision = _stopping(deals, precision, max_deals)
    choices = np.array(list(itertools.combinations(hero7.tolist(), 3)), dtype=np.int64)
    if betting:
        return _betting_choice_table(
            "pass", hero7, choices, players, get_strategy(hero), strategies, limit, precision,
            seed, batch_size, progress, unicode,
        )  # fmt: skip
    kinds, params = _kernel_strategies(strategies)
    run = _Run(root_key(seed), limit, precision, batch_size, progress, "passes")
    acc, left, cat_counts = _score_passes(run, players, kinds, params, mask_from_cards(hero7),
                                          hero7, choices)  # fmt: skip
    frame = pd.DataFrame({
        "pass": [_text(c, unicode) for c in choices],
        "keep": [_text([x for x in hero7 if x not in c], unicode) for c in choices],
    })  # fmt: skip
    frame[list(CATEGORY_COLUMNS)] = cat_counts / acc.deals
    frame["left_gain"] = left.mean()
    frame["left_gain_se"] = left.se()
    order_key = [tuple(sorted(c.tolist())) for c in choices]
    attrs = _attrs("pass", hero7, players, strategies, betting, seed, unicode)
    return _finish(frame, acc, order_key, attrs)


def _score_passes(run: _Run, players, kinds, params, known_mask, hero7, choices):
    """Showdown model of the pass: the hero's pot share for each pass in
    ``choices``, its final categories and its left neighbour's gain."""
    from ..sim.kernels.showdown import pass_choices_batch

    k = len(choices)
    pub = _pass_pub(players)
    acc = ChoiceAccumulator(k)
    # the left neighbour's gain from pass k: its share minus its mean share
    # over the K passes, kept in exact units of 1 / (SHARE_SCALE * K)
    left = MeanAccumulator(k, SHARE_SCALE * k)
    cat_counts = np.zeros((k, 9), dtype=np.int64)
    for start, size in run.batches(lambda: acc.se().max()):
        shares = np.empty((size, k), dtype=np.int64)
        left_shares = np.empty((size, k), dtype=np.int64)
        cats = np.empty((size, k), dtype=np.int8)
        pass_choices_batch(run.key, start, size, players, pub, kinds, params, known_mask, hero7,
                           choices, shares, left_shares, cats)  # fmt: skip
        acc.add_units(shares)
        left.add_units(k * left_shares - left_shares.sum(axis=1, keepdims=True))
        _add_categories(cat_counts, cats)
    return acc, left, cat_counts


def _attrs(kind, cards, players, strategies, betting, seed, unicode) -> dict:
    return {
        "analysis": kind,
        "hand": _text(cards, unicode),
        "players": players,
        "opponents": [s.name for s in strategies],
        "betting": betting,
        "seed": seed if isinstance(seed, int) else None,
        "value_label": "net chips per deal" if betting else "expected pot share",
    }


# ---------------------------------------------------------------- discard --
def _known_after_pass(hand7, passed, received):
    """Validate the known cards of the hero after the pass; return arrays."""
    passed_cards = None if passed is None else parse_cards(passed, 3, what="passed cards")
    received_cards = None if received is None else parse_cards(received, 3, what="received cards")
    if passed_cards is not None:
        clash = [c for c in passed_cards if c in hand7]
        if clash:
            raise CardError(
                f"passed card {format_cards(clash[:1])} is still in the hand "
                f"{format_cards(hand7)!r}; passed cards went to the left neighbour"
            )
    if received_cards is not None:
        missing = [c for c in received_cards if c not in hand7]
        if missing:
            raise CardError(
                f"received card {format_cards(missing[:1])} is not in the hand "
                f"{format_cards(hand7)!r}; the received cards are part of the seven held"
            )
    return passed_cards, received_cards


def _dead_cards(known, taken: list[int]) -> list[int]:
    """Validate cards known to be out of every opponent's hand."""
    if known is None:
        return []
    dead = parse_cards(known, what="known cards")
    _no_overlap(taken, dead, "known cards", "the hero's cards")
    return dead


def _check_capacity(players: int, unseen: int, needed: int) -> None:
    if needed > unseen:
        raise ValueError(
            f"impossible: {players} players need {needed} cards the hero has not seen, but "
            f"only {unseen} are left; name fewer known cards or choose fewer players"
        )


def _keep_table(
    kind, hand, players, choices_five, *, passed, received, dead, opponents, deals, precision,
    max_deals, seed, batch_size, progress, what, known=None,
):  # fmt: skip
    """Shared driver of the showdown model after the pass (discards, equity)."""
    from ..sim.kernels.showdown import keep_choices_batch

    strategies = _opponents(opponents, players)
    limit, precision = _stopping(deals, precision, max_deals)
    kinds, params = _kernel_strategies(strategies)
    taken = list(hand) + (passed or [])
    extra = _dead_cards(known, taken)
    dead = max(dead - len(extra), 0)  # named dead cards stand for unknown discards first
    known_mask = mask_from_cards(taken + extra)
    hero_packet = np.array(passed if passed else [-1, -1, -1], dtype=np.int64)
    right_forced = np.array(received if received else [-1, -1, -1], dtype=np.int64)
    # which of the hero's cards came from the right, when not named, is drawn
    # among them (it does not change the opponents' hands: see the kernel)
    random_from = np.array(hand if received is None else [], dtype=np.int64)
    needed = (0 if passed else 3) + dead + 7 * (players - 1) - (3 if received else 0)
    _check_capacity(players, 52 - len(taken) - len(extra), needed)
    choices = np.asarray(choices_five, dtype=np.int64)
    k = len(choices)
    key = root_key(seed)
    acc = ChoiceAccumulator(k)
    cat_counts = np.zeros((k, 9), dtype=np.int64)
    pub = _pass_pub(players)
    run = _Run(key, limit, precision, batch_size, progress, what)
    for start, size in run.batches(lambda: acc.se().max()):
        shares = np.empty((size, k), dtype=np.int64)
        cats = np.empty((size, k), dtype=np.int8)
        keep_choices_batch(key, start, size, players, pub, kinds, params, known_mask,
                           hero_packet, right_forced, random_from, dead, choices, shares,
                           cats)  # fmt: skip
        acc.add_units(shares)
        _add_categories(cat_counts, cats)
    return acc, cat_counts, strategies


def discard_values(
    hand7: str | Sequence[str | int],
    players: int,
    *,
    passed: str | Sequence[str | int] | None = None,
    received: str | Sequence[str | int] | None = None,
    known: str | Sequence[str | int] | None = None,
    opponents: OpponentSpec = "random-pass",
    deals: int | None = None,
    precision: float | None = None,
    max_deals: int = DEFAULT_MAX_DEALS,
    seed: SeedLike = None,
    batch_size: int = BATCH,
    progress: bool | None = None,
    unicode: bool = True,
) -> pd.DataFrame:
    """Value of each of the 21 ways to discard two of the seven cards held (R8).

    Showdown model (see the module docstring). ``passed``: the three cards
    the hero passed (they are in the left neighbour's hand); ``received``:
    the three of ``hand7`` that came from the right neighbour. Unnamed ones
    are unknown: an unknown packet passed is three unseen cards, unknown
    received cards are any three of the hand, uniformly. ``known``: other
    cards known to be in no opponent's hand (never dealt).

    Returns
    -------
    pandas.DataFrame
        21 rows, best first: ``discard``, ``keep``, ``rank``, ``value``,
        ``se``, ``ci_low``, ``ci_high``, ``diff_vs_best``, ``diff_se``, the
        kept five's ``hand_value`` and its category as ``cat_*`` columns
        (one of them 1.0). Exact ties (discards giving the same
        five-card value) are ordered like :func:`~anaconda_sim.hands.evaluator.best_five`.

    Examples
    --------
    >>> table = discard_values("Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠", 6, passed="3♠ 4♥ 2♣",
    ...                        received="Q♦ 9♦ 5♠", deals=2000, seed=1)
    >>> table["discard"].iloc[0]
    '8♦ 5♠'
    >>> discard_values("Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠", 6, passed="Q♠ 4♥ 2♣")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: passed card Qs is still in the hand 'Qs Qh Qd 9c 9d 8d 5s'; ...
    """
    from ..hands.evaluator import evaluate

    hero7 = parse_cards(hand7, 7, what="hand")
    players = _check_players(players)
    passed_cards, received_cards = _known_after_pass(hero7, passed, received)
    discards = list(itertools.combinations(hero7, 2))
    fives = [[c for c in hero7 if c not in d] for d in discards]
    acc, cat_counts, strategies = _keep_table(
        "discard", hero7, players, fives, passed=passed_cards, received=received_cards, dead=0,
        opponents=opponents, deals=deals, precision=precision, max_deals=max_deals, seed=seed,
        batch_size=batch_size, progress=progress, what="discards", known=known,
    )  # fmt: skip
    frame = pd.DataFrame({
        "discard": [_text(d, unicode) for d in discards],
        "keep": [_text(f, unicode) for f in fives],
    })  # fmt: skip
    frame["hand_value"] = evaluate(np.array(fives)).astype(int)
    frame[list(CATEGORY_COLUMNS)] = cat_counts / acc.deals
    attrs = _attrs("discard", hero7, players, strategies, False, seed, unicode)
    attrs["passed"] = None if passed_cards is None else _text(passed_cards, unicode)
    attrs["received"] = None if received_cards is None else _text(received_cards, unicode)
    return _finish(frame, acc, [_best_five_order(f) for f in fives], attrs)


def _best_five_order(five: Sequence[int]) -> tuple:
    """Tie-break among equal values, as evaluator.best_five: the five whose
    descending card indices are lexicographically largest comes first."""
    return tuple(-c for c in sorted(five, reverse=True))


# ----------------------------------------------------------------- equity --
def equity(
    hand: str | Sequence[str | int],
    players: int,
    *,
    passed: str | Sequence[str | int] | None = None,
    received: str | Sequence[str | int] | None = None,
    known: str | Sequence[str | int] | None = None,
    hero: str | Strategy = "call-down",
    opponents: OpponentSpec = "random-pass",
    deals: int | None = None,
    precision: float | None = None,
    max_deals: int = DEFAULT_MAX_DEALS,
    seed: SeedLike = None,
    batch_size: int = BATCH,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Showdown equity (expected pot share) of the hero's hand at its stage.

    ``known``: cards known to be in no opponent's hand (the hero's own
    discards with a five-card hand, or cards seen elsewhere); they are never
    dealt. Impossible constraints (too few unseen cards left for the table)
    raise ``ValueError``.

    The stage follows from what is given:

    - 7 cards, no ``passed``/``received``: at the deal; the hero passes with
      ``hero``'s pass and keeps its best five.
    - 7 cards with ``passed`` and/or ``received``: after the pass; the hero
      keeps its best five.
    - 5 cards: after the discard; the hero's two discards are unknown cards.

    Returns
    -------
    pandas.DataFrame
        One row: ``stage``, ``players``, ``equity``, ``se``, ``ci_low``,
        ``ci_high``, ``deals`` and the final-category distribution.

    Examples
    --------
    >>> row = equity("Q♠ Q♥ Q♦ 9♣ 9♦", 4, deals=4000, seed=3)
    >>> row["stage"].item(), bool(0.3 < row["equity"].item() < 1.0)
    ('after discard', True)
    """
    players = _check_players(players)
    cards = parse_cards(hand, (5, 7), what="hand")
    if len(cards) == 5:
        if passed is not None or received is not None:
            raise ValueError(
                "passed/received describe a seven-card hand after the pass; "
                "give the seven cards held, or omit them for a five-card hand"
            )
        stage, fives, passed_cards, received_cards, dead = "after discard", [cards], None, None, 2
    elif passed is None and received is None:
        return _equity_at_deal(cards, players, hero, opponents, known, deals, precision,
                               max_deals, seed, batch_size, progress)  # fmt: skip
    else:
        from ..hands.evaluator import best_five

        passed_cards, received_cards = _known_after_pass(cards, passed, received)
        five, _ = best_five(cards)
        stage, fives, dead = "after pass", [list(five)], 0
    acc, cat_counts, _ = _keep_table(
        "equity", cards, players, fives, passed=passed_cards, received=received_cards,
        dead=dead, opponents=opponents, deals=deals, precision=precision,
        max_deals=max_deals, seed=seed, batch_size=batch_size, progress=progress,
        what="equity", known=known,
    )  # fmt: skip
    return _equity_row(stage, players, acc, cat_counts)


def _equity_row(stage, players, acc, cat_counts) -> pd.DataFrame:
    mean, se = float(acc.mean()[0]), float(acc.se()[0])
    row = {
        "stage": stage, "players": players, "equity": mean, "se": se,
        "ci_low": mean - Z95 * se, "ci_high": mean + Z95 * se, "deals": acc.deals,
    }  # fmt: skip
    row.update(dict(zip(CATEGORY_COLUMNS, cat_counts[0] / acc.deals, strict=True)))
    return pd.DataFrame([row])


def _equity_at_deal(cards, players, hero, opponents, known, deals, precision, max_deals, seed,
                    batch_size, progress):  # fmt: skip
    hero_strategy = get_strategy(hero)
    strategies = _opponents(opponents, players)
    limit, precision = _stopping(deals, precision, max_deals)
    kinds, params = _kernel_strategies(strategies)
    extra = _dead_cards(known, cards)
    _check_capacity(players, 45 - len(extra), 7 * (players - 1))
    known_mask = mask_from_cards(cards + extra)
    pub = _pass_pub(players)
    own = V.new_own(0)
    own[V.O_NCARDS] = 7
    own[V.O_CARDS : V.O_CARDS + 7] = cards
    key = root_key(seed)
    # the hero's pass is a function of its cards (and stream 1 of deal 0)
    from ..rng import new_state

    packet = hero_strategy.decide_pass(pub, own, new_state(key, 0, 1))
    hero7 = np.array(cards, dtype=np.int64)
    choices = np.array([packet], dtype=np.int64)
    run = _Run(key, limit, precision, batch_size, progress, "equity")
    acc, _, cat_counts = _score_passes(run, players, kinds, params, known_mask, hero7, choices)
    frame = _equity_row("at deal", players, acc, cat_counts)
    frame.insert(1, "hero_pass", format_cards(packet, unicode=True))
    return frame


# ---------------------------------------------------------------- betting --
def _betting_choice_table(kind, hero7, choices, players, hero, strategies, limit, precision,
                          seed, batch_size, progress, unicode):  # fmt: skip
    """pass_values(betting=True): complete deals through the batch simulator."""
    from ..sim.simulator import score_choices

    seats = [hero, *strategies]
    key_seed = int(root_key(seed))
    k = len(choices)
    acc = ChoiceAccumulator(k, scale=1)
    left_total = np.zeros(k)
    cat_counts = np.zeros((k, 9), dtype=np.int64)
    run = _Run(np.uint64(key_seed), limit, precision, max(batch_size, 4096), progress, "passes")
    for start, size in run.batches(lambda: acc.se().max()):
        scores = score_choices(
            players, seats, hero=0, kind="pass", choices=choices, deals=size, seed=key_seed,
            dealer=players - 1, fixed={0: hero7.tolist()}, first_deal=start, progress=False,
        )  # fmt: skip
        acc.add_sums(scores.deals, scores.sum_net, scores.cross_net)
        left_total += scores.left_mean_net * scores.deals
        cat_counts += scores.category_counts
    frame = pd.DataFrame({
        "pass": [_text(c, unicode) for c in choices],
        "keep": [_text([x for x in hero7 if x not in c], unicode) for c in choices],
    })  # fmt: skip
    frame[list(CATEGORY_COLUMNS)] = cat_counts / acc.deals
    left_mean = left_total / acc.deals
    # with betting only the mean gain is kept (no per-deal cross terms)
    frame["left_gain"] = left_mean - left_mean.mean()
    frame["left_gain_se"] = np.nan
    order_key = [tuple(sorted(c.tolist())) for c in choices]
    attrs = _attrs("pass", hero7, players, strategies, True, seed, unicode)
    attrs["hero"] = hero.name
    return _finish(frame, acc, order_key, attrs)


# ----------------------------------------------------------------- reveal --
def reveal_values(
    hand5: str | Sequence[str | int],
    players: int,
    *,
    betting: bool = True,
    by: str | None = None,
    discards: str | Sequence[str | int] | None = None,
    passed: str | Sequence[str | int] | None = None,
    received: str | Sequence[str | int] | None = None,
    hero: str | Strategy = "sensible",
    opponents: OpponentSpec | None = None,
    dealer: int | None = None,
    deals: int | None = None,
    precision: float | None = None,
    max_deals: int = DEFAULT_MAX_DEALS,
    seed: SeedLike = None,
    batch_size: int = 2048,
    progress: bool | None = None,
    unicode: bool = True,
) -> pd.DataFrame:
    """Value of each of the 120 orders in which to reveal the kept five (R8, R9).

    The model
    ---------
    The deal is played from the discard on. The hero (seat 0) holds
    ``hand5`` plus its two ``discards`` (unknown cards when not given). The
    opponents' hands after the pass follow the showdown model of the module
    docstring: each is dealt seven unseen cards and passes three to its left
    by its strategy (the hero's ``passed`` cards sit in the left neighbour's
    hand). Betting rounds 1 and 2 are taken as checked around, so the pot at
    the discard holds the antes only. Then every opponent discards and
    orders by its strategy, the hero reveals in the order being scored, and
    the four reveal rounds are bet by ``hero``'s and the opponents'
    strategies (openers per R11/R12), then the showdown (R10, R18-R20). The
    dealer is seat ``players - 1`` unless ``dealer`` is given, so the hero is
    first after the dealer and wins ties for the opener (R12).

    Opponents: by default :func:`reveal_opponents` (``"sensible"`` players
    who stay in the reveal rounds with two pair or better and fold to a bet
    when a rival's exposed cards already beat them). Against opponents who
    ignore the exposed cards (the plain ``"sensible"`` preset folds or calls
    on its own hand alone in the reveal rounds) every order is worth the same.

    ``value`` is the hero's mean net chips per deal (``betting=False``: its
    pot share; without betting every order has the same value).

    Parameters
    ----------
    by
        ``None``: one row per order. ``"hidden"``: five rows, one per hidden
        card, each the average over its 24 orders (with paired errors),
        plus the best order with that card hidden.

    Returns
    -------
    pandas.DataFrame
        Best first: ``order`` (reveal order, last card hidden), ``hidden``,
        ``first``, ``rank``, ``value``, ``se``, ``ci_low``, ``ci_high``,
        ``diff_vs_best``, ``diff_se``; diagnostics ``share`` (mean pot
        share), ``showdown_rate``, ``open_r1`` .. ``open_r4`` (how often the
        hero opens each reveal round), ``opp_fold_r1`` .. ``opp_fold_r4``
        (opponents' fold rate by reveal round), ``mean_pot``, and the hero's
        final categories ``cat_*`` (shares of deals, a showdown needed).

    Examples
    --------
    >>> table = reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 4, deals=300, seed=1)
    >>> len(table), table.columns[:3].tolist()
    (120, ['order', 'hidden', 'first'])
    >>> reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 4, by="hidden", deals=300, seed=1)["hidden"].size
    5
    >>> reveal_values("Q♠ Q♥ Q♦ 9♣", 4)
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: hand 'Q♠ Q♥ Q♦ 9♣' has 4 cards; it needs 5
    """
    from ..sim.kernels.reveal import reveal_batch
    from ..sim.kernels.deal import FORCE_ORDER
    from ..game.rules import Rules
    from ..sim.simulator import _cfg, _custom_functions

    five = parse_cards(hand5, 5, what="hand")
    players = _check_players(players)
    if by not in (None, "hidden"):
        raise ValueError(f"by={by!r} is not supported; use None (every order) or 'hidden'")
    dead = [] if discards is None else parse_cards(discards, 2, what="discards")
    _no_overlap(five, dead, "discards", "the kept five")
    held = five + dead
    passed_cards = None if passed is None else parse_cards(passed, 3, what="passed cards")
    if passed_cards is not None:
        _no_overlap(held, passed_cards, "passed cards", "the hand")
    received_cards = None
    if received is not None:
        received_cards = parse_cards(received, 3, what="received cards")
        outside = [c for c in received_cards if c not in held]
        if outside and (discards is not None or len(outside) > 2):
            raise CardError(
                f"received card {format_cards(outside[:1])} is neither kept nor discarded; "
                "the received cards are among the seven held after the pass"
            )
        dead = dead or []
    if dealer is None:
        dealer = players - 1
    if not 0 <= dealer < players:
        raise ValueError(f"dealer={dealer} is not a seat; seats are 0..{players - 1}")
    hero_strategy = get_strategy(hero)
    strategies = _opponents(reveal_opponents() if opponents is None else opponents, players)
    seats = [hero_strategy, *strategies]
    limit, precision = _stopping(deals, precision, max_deals)
    kinds = np.array([s.kind for s in seats], dtype=np.int64)
    params = np.stack([s.param_array() for s in seats])
    cbet, _, cdiscard, _, has_cdiscard = _custom_functions(seats)
    rules = Rules(players=players)
    cfg = _cfg(rules, dealer=dealer, rotate=False, betting=betting, hero=0, force=FORCE_ORDER,
               random_cards=0, has_cpass=0, has_cdiscard=has_cdiscard, record=False)  # fmt: skip
    known = held + (passed_cards or []) + [c for c in (received_cards or []) if c not in held]
    known_mask = mask_from_cards(known)
    hero_packet = np.array(passed_cards or [-1, -1, -1], dtype=np.int64)
    right = received_cards if received_cards and all(c in held for c in received_cards) else None
    # which of the hero's cards came from the right does not change the
    # opponents' hands (the right neighbour's kept four are dealt either way)
    right_forced = np.array(right or five[:3], dtype=np.int64)
    orders = np.array(list(itertools.permutations(five)), dtype=np.int64)
    k = len(orders)
    key = root_key(seed)
    net_acc = ChoiceAccumulator(k, scale=1)
    share_acc = ChoiceAccumulator(k)
    opens = np.zeros((k, 4))
    folds = np.zeros((k, 4))
    pot_total = np.zeros(k)
    showdowns = np.zeros(k)
    cat_counts = np.zeros((k, 9), dtype=np.int64)
    value_acc = net_acc if betting else share_acc
    run = _Run(key, limit, precision, batch_size, progress, "reveal orders")
    five_arr = np.array(five, dtype=np.int64)
    dead_arr = np.array(dead if dead else [-1, -1], dtype=np.int64)
    for start, size in run.batches(lambda: value_acc.se().max()):
        net = np.zeros((size, k), dtype=np.int64)
        share = np.zeros((size, k), dtype=np.int64)
        open_rows = np.zeros((size, k, 4), dtype=np.int8)
        fold_rows = np.zeros((size, k, 4), dtype=np.int8)
        pots = np.zeros((size, k), dtype=np.int64)
        cats = np.zeros((size, k), dtype=np.int8)
        reveal_batch(key, start, size, cfg, _pass_pub(players), kinds, params, known_mask,
                     five_arr, dead_arr, hero_packet, right_forced, orders, net, share,
                     open_rows, fold_rows, pots, cats, cbet, cdiscard)  # fmt: skip
        net_acc.add_units(net)
        share_acc.add_sums(size, share.sum(axis=0), _exact_cross(share))
        opens += open_rows.sum(axis=0)
        folds += fold_rows.sum(axis=0)
        pot_total += pots.sum(axis=0)
        showdowns += (cats >= 0).sum(axis=0)
        _add_categories(cat_counts, cats)
    n = value_acc.deals
    frame = pd.DataFrame({
        "order": [_text(o, unicode) for o in orders],
        "hidden": [_text(o[4:], unicode) for o in orders],
        "first": [_text(o[:1], unicode) for o in orders],
    })  # fmt: skip
    frame["share"] = share_acc.mean()
    frame["showdown_rate"] = showdowns / n
    for r in range(4):
        frame[f"open_r{r + 1}"] = opens[:, r] / n
    for r in range(4):
        frame[f"opp_fold_r{r + 1}"] = folds[:, r] / (n * (players - 1))
    frame["mean_pot"] = pot_total / n
    frame[list(CATEGORY_COLUMNS)] = cat_counts / n
    attrs = _attrs("reveal", five, players, strategies, betting, seed, unicode)
    attrs.update(hero=hero_strategy.name, dealer=dealer)
    if by == "hidden":
        return _by_hidden(frame, value_acc, orders, five, attrs, unicode)
    return _finish(frame, value_acc, [tuple(o) for o in orders.tolist()], attrs)


def reveal_opponents() -> Strategy:
    """The default opponents of :func:`reveal_values`: ``"sensible"`` with
    ``continue_late=2`` (stay in the reveal rounds with two pair or better;
    fold to a bet when a rival's exposed cards alone beat their hand, R11).

    Examples
    --------
    >>> reveal_opponents().param_dict()["continue_late"]
    2.0
    """
    return get_strategy("sensible", continue_late=2)


def _by_hidden(frame, acc, orders, five, attrs, unicode) -> pd.DataFrame:
    """Five rows: the mean over the 24 orders hiding each card, with paired errors."""
    weights = np.array([[int(o[4] == card) for o in orders] for card in five], dtype=np.int64)
    grouped = acc.combine(weights)
    table = pd.DataFrame({"hidden": [_text([c], unicode) for c in five]})
    best_rows = [
        frame.iloc[np.flatnonzero(weights[h])[np.argmax(acc.mean()[weights[h] == 1])]]
        for h in range(len(five))
    ]
    table["best_order"] = [row["order"] for row in best_rows]
    table["best_order_value"] = acc.mean()[
        [np.flatnonzero(weights[h])[np.argmax(acc.mean()[weights[h] == 1])] for h in range(5)]
    ]
    for column in ("share", "showdown_rate", "mean_pot"):
        table[column] = [frame.loc[weights[h] == 1, column].mean() for h in range(5)]
    attrs = {**attrs, "analysis": "reveal by hidden card"}
    return _finish(table, grouped, [(c,) for c in five], attrs)


def _no_overlap(cards, others, what, where) -> None:
    clash = [c for c in others if c in cards]
    if clash:
        raise CardError(f"{what} include {format_cards(clash[:1])}, which is in {where}")


def _exact_cross(units: np.ndarray) -> np.ndarray:
    from ..stats import _exact_products

    return _exact_products(units)
