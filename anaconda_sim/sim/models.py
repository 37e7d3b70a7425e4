"""The models of the questions, over the kernels: the pass, the keep and the
reveal order of one hero, each scored for many choices on common random
numbers.

This is the one public door to :mod:`~anaconda_sim.sim.kernels.showdown` and
:mod:`~anaconda_sim.sim.kernels.reveal` for the layers above the simulator:
the analyses (:mod:`anaconda_sim.analysis`), :func:`~anaconda_sim.exploitability`
and the learning loop call these functions and never a kernel.

- **Pass model** (:func:`score_passes`, the showdown model of the pass): the
  hero's seven are known, every opponent is dealt seven unseen cards and
  passes by its strategy, every seat keeps its best five, nobody bets.
- **Keep model** (:func:`score_keeps`, the showdown model after the pass):
  the hero keeps the five being scored; the opponents' hands follow the pass
  model, the right neighbour's kept four conditioned on a named packet
  (:class:`ReceivedCondition`).
- **Reveal model** (:class:`RevealModel`): the deal is played on from the
  discard by the simulator's kernels, the hero revealing five of its seven
  cards in a given order, with or without betting, under the default or the
  hi-lo rules.

Every function takes validated card indices (the public layers check the
user's input) and a :data:`Batches` schedule, so each caller keeps its own
stopping rule and progress bar. The batch sizes never change the numbers:
deal ``d`` is drawn from the key and ``d`` alone, and sums are exact.

Examples
--------
>>> import numpy as np
>>> from anaconda_sim.cards import parse_cards
>>> from anaconda_sim.strategies.spec import get_strategy
>>> hero7 = parse_cards("Q♠ Q♥ 9♣ 8♦ 5♠ 6♥ 2♣")
>>> choices = np.array([hero7[4:], hero7[:3]])             # pass the low three, or the top
>>> scores = score_passes(fixed_batches(200, 100), np.uint64(1), 3,
...                       [get_strategy("sensible")] * 2, hero7, choices)
>>> scores.acc.deals, scores.acc.mean().shape
(200, (2,))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import mask_from_cards
from ..hands.evaluator import N_CATEGORIES
from ..hands.hilo import SWING_FAILED
from ..stats import SHARE_SCALE, ChoiceAccumulator, MeanAccumulator, exact_products
from ..strategies.kinds import KIND_CUSTOM, KIND_RANDOM, KIND_RANDOM_PASS, PARAM_SLOTS
from ..strategies.spec import Strategy, get_strategy
from ..table import views as V
from ..table.rules import REVEAL_ROUNDS, Rules
from .driver import custom_functions, make_cfg, seat_param_rows
from .kernels.reveal import reveal_batch
from .kernels.showdown import keep_choices_batch, pass_choices_batch, right_fours
from .layout import FORCE_ORDER, FORCE_ORDER_DECLARE, RIGHT_DRAWN, RIGHT_POSTERIOR

__all__ = [
    "FORCE_ORDER",
    "FORCE_ORDER_DECLARE",
    "Batches",
    "KeepScores",
    "OrderSums",
    "PassScores",
    "ReceivedCondition",
    "RevealModel",
    "add_categories",
    "compile_pass_model",
    "fixed_batches",
    "pub_at_pass",
    "score_keeps",
    "score_passes",
    "showdown_kernel_strategies",
]

#: a batch schedule: called with the current largest standard error (a
#: function, for a precision target), it yields ``(first_deal, deals)``
Batches = Callable[[Callable[[], float]], Iterable[tuple[int, int]]]


def fixed_batches(deals: int, batch: int) -> Batches:
    """``deals`` deals in batches of ``batch``, with no stopping rule.

    Examples
    --------
    >>> list(fixed_batches(5, 2)(lambda: 0.0))
    [(0, 2), (2, 2), (4, 1)]
    """

    def schedule(_worst_se: Callable[[], float]) -> Iterable[tuple[int, int]]:
        return [(start, min(batch, deals - start)) for start in range(0, deals, batch)]

    return schedule


# ------------------------------------------------------------ the table ---
def pub_at_pass(players: int, rules: str = "pagat", stage: int = 0) -> np.ndarray:
    """The public table of the showdown model at the first pass (the default
    rules' pass of three; ``rules="hi-lo"`` marks the hi-lo declare game, whose
    strategies pass for a high, a low or both); ``stage=1``: after the pass,
    at the discard, nobody having bet."""
    pub = V.new_pub()
    pub[V.P_HILO] = int(rules == "hi-lo")
    pub[V.P_PLAYERS] = players
    pub[V.P_DEALER] = players - 1
    pub[V.P_STAGE] = stage
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


def showdown_kernel_strategies(
    opponents: Sequence[Strategy], hero: Strategy | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(kinds, params)`` arrays of the showdown model (hero at seat 0).

    The showdown model plays built-in card play only: a custom strategy is
    refused with a ``ValueError`` that names the betting model instead.
    """
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
        params[i] = s.param_array(len(seats))
    return kinds, params


def add_categories(counts: np.ndarray, cats: np.ndarray) -> None:
    """Add per-deal final categories (``cats[deal, choice]``, -1: none) to ``counts``."""
    k = cats.shape[1]
    cells = cats.astype(np.int64) + N_CATEGORIES * np.arange(k)
    counts += np.bincount(cells[cats >= 0], minlength=N_CATEGORIES * k).reshape(k, N_CATEGORIES)


@dataclass(frozen=True)
class ReceivedCondition:
    """What the packet the hero received says about the right neighbour.

    The right neighbour (seat ``n - 1``) was dealt seven cards and passed
    three of them to the hero by its strategy, so its kept four are four
    with which its pass gives exactly those three.

    - Named packet (``received``): ``fours`` lists every four unseen cards
      with which the neighbour's pass gives exactly those three
      (:func:`~anaconda_sim.sim.kernels.showdown.right_fours`; columns 0-3
      the four, 4-6 the packet), and the kernels deal it one row uniformly:
      the exact conditional law of its four (Bayes: every four is equally
      likely before the pass, and the pass is a function of the seven).
    - Unnamed packet (``posterior``): the kernels draw the packet (three of
      the hero's seven held cards, its unknown discards included) and the
      neighbour's four together from their posterior, by rejection per deal
      (:func:`~anaconda_sim.sim.kernels.showdown.opponents_after_pass`): a
      packet its strategy rarely passes is rarely the one it passed. With two
      players the right neighbour is the only opponent, so without this its
      pass would not enter the model at all.

    Neither: the neighbour passes uniformly at random (``"random"``,
    ``"random-pass"``: any seven passes a given three of its cards with
    probability 1/35, a constant likelihood, so the packet tells nothing;
    when it is unnamed, three of the hero's known cards are drawn for it per
    deal and its four dealt unconditioned), or no four makes its strategy
    pass the named three (then its four are unconditioned and ``acceptance``
    is 0.0).

    ``acceptance``: the share of all fours that pass the named packet (the
    probability that a neighbour dealt these three with four random unseen
    cards passes exactly them), ``None`` when not conditioned on a named one.
    """

    fours: np.ndarray
    acceptance: float | None
    posterior: bool = False

    @classmethod
    def of(
        cls, pub: np.ndarray, right: Strategy, known_mask: int | np.uint64,
        received: Sequence[int] | None,
    ) -> ReceivedCondition:  # fmt: skip
        """The condition of ``received`` (``None``: unnamed) for a right neighbour
        playing ``right``; ``known_mask``: the cards the neighbour cannot hold
        (the hero's and the other known cards)."""
        none = np.zeros((0, 7), dtype=np.int8)
        if right.kind in (KIND_RANDOM, KIND_RANDOM_PASS):
            return cls(none, None)
        if received is None:
            return cls(none, None, posterior=True)
        # a custom strategy's pass is not run by the showdown model's kernels,
        # which pass for it like "sensible" (builtin_pass): condition the same way
        params = right.param_array(int(pub[V.P_PLAYERS]))
        fours, tried = right_fours(pub, right.kind, params, np.uint64(known_mask),
                                   np.array(received, dtype=np.int64))  # fmt: skip
        passed = np.broadcast_to(np.array(received, dtype=np.int8), (len(fours), 3))
        return cls(np.hstack([fours, passed]), len(fours) / tried if tried else 0.0)

    def right_forced(self, received: Sequence[int] | None) -> np.ndarray:
        """The kernels' ``right_forced``: the named packet, else
        ``RIGHT_POSTERIOR`` (drawn with the neighbour's four from their
        posterior) or ``RIGHT_DRAWN`` (three of the hero's cards per deal)."""
        if received is not None:
            return np.array(received, dtype=np.int64)
        return np.full(3, RIGHT_POSTERIOR if self.posterior else RIGHT_DRAWN, dtype=np.int64)


# ------------------------------------------------------------ pass model --
@dataclass
class PassScores:
    """The pass model's sums: the hero's pot share per pass (``acc``), its
    left neighbour's gain (share minus its mean over the passes scored) and
    the hero's final category counts ``(K, 9)``."""

    acc: ChoiceAccumulator
    left: MeanAccumulator
    cat_counts: np.ndarray


def score_passes(
    batches: Batches, key: np.uint64, players: int, opponents: Sequence[Strategy],
    hero7: Sequence[int], choices: np.ndarray, *, known: Sequence[int] = (),
) -> PassScores:  # fmt: skip
    """The pass model: the hero's pot share for each pass (rows of three of
    ``hero7``), its final categories and its left neighbour's gain.

    ``opponents``: one strategy per seat 1..n-1 (built-in only,
    :func:`showdown_kernel_strategies`); ``known``: other cards in no
    opponent's hand.
    """

    kinds, params, hand, known_mask, pub = _pass_model_inputs(players, opponents, hero7, known)
    rows = np.ascontiguousarray(choices, dtype=np.int64)
    k = len(rows)
    acc = ChoiceAccumulator(k)
    # the left neighbour's gain from pass k: its share minus its mean share
    # over the K passes, kept in exact units of 1 / (SHARE_SCALE * K)
    left = MeanAccumulator(k, SHARE_SCALE * k)
    cat_counts = np.zeros((k, N_CATEGORIES), dtype=np.int64)
    for start, size in batches(lambda: acc.se().max()):
        shares = np.empty((size, k), dtype=np.int64)
        left_shares = np.empty((size, k), dtype=np.int64)
        cats = np.empty((size, k), dtype=np.int8)
        pass_choices_batch(key, start, size, players, pub, kinds, params, known_mask, hand,
                           rows, shares, left_shares, cats)  # fmt: skip
        acc.add_units(shares)
        left.add_units(k * left_shares - left_shares.sum(axis=1, keepdims=True))
        add_categories(cat_counts, cats)
    return PassScores(acc, left, cat_counts)


def _pass_model_inputs(
    players: int, opponents: Sequence[Strategy], hero7: Sequence[int], known: Sequence[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.uint64, np.ndarray]:
    """The pass model's table: the opponents' kinds and parameter rows, the
    hero's seven, the mask of cards no opponent is dealt, the public view."""
    kinds, params = showdown_kernel_strategies(opponents)
    hand = np.array(hero7, dtype=np.int64)
    return kinds, params, hand, mask_from_cards(list(hero7) + list(known)), pub_at_pass(players)


def compile_pass_model(
    players: int, opponents: Sequence[Strategy], hero7: Sequence[int], *,
    known: Sequence[int] = (),
) -> None:  # fmt: skip
    """Compile what :func:`score_passes` runs for this table (the model's
    kernels and the built-in pass with an engine's argument types), on every
    core, and play nothing: a first call that decides a pass from Python
    before it scores (:meth:`~anaconda_sim.strategies.Strategy.decide_pass`,
    the hero's own) then finds that pass compiled beside the model's
    kernels rather than alone on one core before them. Costs a look-up once
    they are compiled or cached."""
    kinds, params, hand, known_mask, pub = _pass_model_inputs(players, opponents, hero7, known)
    # the arrays a batch of no deals is scored into: the same types as any batch's
    shares, left_shares = np.empty((0, 1), dtype=np.int64), np.empty((0, 1), dtype=np.int64)
    pass_choices_batch(np.uint64(0), 0, 0, players, pub, kinds, params, known_mask, hand,
                       np.zeros((1, 3), dtype=np.int64), shares, left_shares,
                       np.empty((0, 1), dtype=np.int8))  # fmt: skip


# ------------------------------------------------------------ keep model --
@dataclass
class KeepScores:
    """The keep model's sums: the hero's pot share per kept five, its final
    category counts ``(K, 9)`` and the condition the named received cards
    put on the right neighbour."""

    acc: ChoiceAccumulator
    cat_counts: np.ndarray
    condition: ReceivedCondition


def score_keeps(
    batches: Batches, key: np.uint64, players: int, opponents: Sequence[Strategy],
    hand: Sequence[int], fives: Sequence[Sequence[int]] | np.ndarray, *,
    passed: Sequence[int] | None = None, received: Sequence[int] | None = None,
    known: Sequence[int] = (), unknown: int = 0,
) -> KeepScores:  # fmt: skip
    """The keep model: the hero's pot share with each of ``fives`` after the pass.

    ``hand``: the cards the hero holds (seven, or five with ``unknown=2``
    unknown discards); ``passed``: its packet (``None``: three unseen
    cards); ``received``: the three of ``hand`` from the right neighbour
    (``None``: unknown, drawn per deal with the neighbour's four from their
    posterior, :class:`ReceivedCondition`); ``known``: other cards in no
    opponent's hand (the first stand for unknown discards).
    """

    kinds, params = showdown_kernel_strategies(opponents)
    taken = list(hand) + list(passed or [])
    known_mask = mask_from_cards(taken + list(known))
    hero_packet = np.array(passed if passed else [-1, -1, -1], dtype=np.int64)
    pub = pub_at_pass(players)
    # which of the hero's cards came from the right, when not named: drawn with
    # the neighbour's four from their posterior (ReceivedCondition); for a
    # neighbour passing at random, any three drawn per deal, its four unconditioned
    condition = ReceivedCondition.of(pub, opponents[-1], known_mask, received)
    right_forced = condition.right_forced(received)
    # the hero's known held cards: its hand and known cards standing for its discards
    held = (list(hand) + list(known))[:7]
    random_from = np.array(held if received is None else [], dtype=np.int64)
    choices = np.ascontiguousarray(fives, dtype=np.int64)
    k = len(choices)
    acc = ChoiceAccumulator(k)
    cat_counts = np.zeros((k, N_CATEGORIES), dtype=np.int64)
    for start, size in batches(lambda: acc.se().max()):
        shares = np.empty((size, k), dtype=np.int64)
        cats = np.empty((size, k), dtype=np.int8)
        keep_choices_batch(key, start, size, players, pub, kinds, params, known_mask,
                           hero_packet, right_forced, condition.fours, random_from, unknown,
                           choices, shares, cats)  # fmt: skip
        acc.add_units(shares)
        add_categories(cat_counts, cats)
    return KeepScores(acc, cat_counts, condition)


# ---------------------------------------------------------- reveal model --
class OrderRows:
    """One batch's per-deal results of every choice (the reveal kernel's outputs)."""

    def __init__(self, deals: int, choices: int, hilo: bool):
        self.net = np.zeros((deals, choices), dtype=np.int64)
        self.share = np.zeros((deals, choices), dtype=np.int64)
        self.opens = np.zeros((deals, choices, REVEAL_ROUNDS), dtype=np.int8)
        self.folds = np.zeros((deals, choices, REVEAL_ROUNDS), dtype=np.int8)
        self.pots = np.zeros((deals, choices), dtype=np.int64)
        self.cats = np.zeros((deals, choices), dtype=np.int8)
        # the hero's high-half share, low-half share and hi-lo flags (hi-lo only)
        self.hilo = np.zeros((deals, choices, 3) if hilo else (0, 0, 3), dtype=np.int64)


class OrderSums:
    """The reveal model's sums over all batches: exact accumulators and
    diagnostic totals."""

    def __init__(self, choices: int):
        self.net = ChoiceAccumulator(choices, scale=1)
        self.share = ChoiceAccumulator(choices)
        self.opens = np.zeros((choices, REVEAL_ROUNDS))
        self.folds = np.zeros((choices, REVEAL_ROUNDS))
        self.pot_total = np.zeros(choices)
        self.showdowns = np.zeros(choices)
        self.cat_counts = np.zeros((choices, N_CATEGORIES), dtype=np.int64)
        self.high = np.zeros(choices, dtype=np.int64)
        self.low = np.zeros(choices, dtype=np.int64)
        self.swing_failed = np.zeros(choices, dtype=np.int64)

    def add(self, rows: OrderRows) -> None:
        self.net.add_units(rows.net)
        self.share.add_sums(rows.net.shape[0], rows.share.sum(axis=0), exact_products(rows.share))
        self.opens += rows.opens.sum(axis=0)
        self.folds += rows.folds.sum(axis=0)
        self.pot_total += rows.pots.sum(axis=0)
        self.showdowns += (rows.cats >= 0).sum(axis=0)
        add_categories(self.cat_counts, rows.cats)
        if rows.hilo.size:
            self.high += rows.hilo[:, :, 0].sum(axis=0)
            self.low += rows.hilo[:, :, 1].sum(axis=0)
            self.swing_failed += ((rows.hilo[:, :, 2] & SWING_FAILED) != 0).sum(axis=0)

    def value(self, betting: bool) -> ChoiceAccumulator:
        """The accumulator of a table's ``value``: net chips with betting, else pot share."""
        return self.net if betting else self.share

    def hilo_columns(self) -> dict[str, np.ndarray]:
        """``high_share``, ``low_share`` (mean shares of the pot taken in each
        half) and ``swing_failed`` (share of deals the hero declared both and
        took nothing, R24)."""
        n = max(self.share.deals, 1)
        return {
            "high_share": self.high / SHARE_SCALE / n,
            "low_share": self.low / SHARE_SCALE / n,
            "swing_failed": self.swing_failed / n,
        }


@dataclass(frozen=True)
class RevealModel:
    """One hero's situation at the discard, ready to score reveal orders.

    Build it with :meth:`of`; :meth:`score` plays rows of five of the hero's
    seven cards (reveal order, last one hidden), with a declaration code
    appended when ``force`` is :data:`FORCE_ORDER_DECLARE`.
    """

    players: int
    hilo: bool
    betting: bool
    cfg: np.ndarray
    pub: np.ndarray
    kinds: np.ndarray
    params: np.ndarray
    known_mask: np.uint64
    hand5: np.ndarray
    discards: np.ndarray
    hero_packet: np.ndarray
    right_forced: np.ndarray
    right_fours: np.ndarray
    received_acceptance: float | None
    cbet: object
    cdiscard: object

    @classmethod
    def of(
        cls, five: Sequence[int], discards: Sequence[int] | None, rules: Rules,
        seats: Sequence[Strategy], *, betting: bool, dealer: int, force: int = FORCE_ORDER,
        passed: Sequence[int] | None = None, right: Sequence[int] | None = None,
        posterior: bool = True, known: Sequence[int] = (),
    ) -> RevealModel:  # fmt: skip
        """The kernel's arrays for a hero (seat 0) holding ``five`` and its two
        ``discards`` (``None``: unknown cards).

        ``seats``: every seat's strategy, the hero's first; ``passed``: the
        hero's packet (``None``: unknown); ``right``: received cards, all among
        the seven held, that condition the right neighbour's kept four
        (:class:`ReceivedCondition`; ``None``: not named); ``posterior``: with
        ``right`` unnamed, draw the packet and the neighbour's four from their
        posterior (``False``: the neighbour unconditioned, for received cards
        partly among unknown discards); ``known``: other cards in no
        opponent's hand. The cards are taken as checked.
        """

        players = rules.players
        hilo = rules.hilo_showdown
        dead = [] if discards is None else list(discards)
        kinds = np.array([s.kind for s in seats], dtype=np.int64)
        cbet, _, cdiscard, _, has_cdiscard = custom_functions(list(seats))
        cfg = make_cfg(rules, dealer=int(dealer), rotate=False, betting=betting, hero=0,
                       force=force, random_cards=0, has_cpass=0, has_cdiscard=has_cdiscard,
                       record=False)  # fmt: skip
        params = seat_param_rows(cfg, seats, players)
        pub = pub_at_pass(players, "hi-lo" if hilo else "pagat")
        known_mask = mask_from_cards(list(five) + dead + list(passed or []) + list(known))
        condition = ReceivedCondition.of(pub, seats[-1], known_mask, right)
        if right is None and not posterior:
            condition = ReceivedCondition(condition.fours, None)
        forced = condition.right_forced(right)
        return cls(
            players=players, hilo=hilo, betting=betting, cfg=cfg, pub=pub, kinds=kinds,
            params=params, known_mask=known_mask, hand5=np.array(five, dtype=np.int64),
            discards=np.array(dead if dead else [-1, -1], dtype=np.int64),
            hero_packet=np.array(passed or [-1, -1, -1], dtype=np.int64),
            # a neighbour left unconditioned "passed" three of the hero's cards
            right_forced=forced if forced[0] != RIGHT_DRAWN else np.array(five[:3], dtype=np.int64),
            right_fours=condition.fours, received_acceptance=condition.acceptance,
            cbet=cbet, cdiscard=cdiscard,
        )  # fmt: skip

    def score(self, choices: np.ndarray, key: np.uint64, batches: Batches) -> OrderSums:
        """Every row of ``choices`` on the deals of ``key`` (common random numbers)."""

        rows_in = np.ascontiguousarray(choices, dtype=np.int64)
        sums = OrderSums(len(rows_in))
        value = sums.value(self.betting)
        for start, size in batches(lambda: value.se().max()):
            rows = OrderRows(size, len(rows_in), self.hilo)
            reveal_batch(key, start, size, self.cfg, self.pub, self.kinds, self.params,
                         self.known_mask, self.hand5, self.discards, self.hero_packet,
                         self.right_forced, self.right_fours, rows_in, rows.net, rows.share,
                         rows.opens, rows.folds, rows.pots, rows.cats, rows.hilo, self.cbet,
                         self.cdiscard)  # fmt: skip
            sums.add(rows)
        return sums
