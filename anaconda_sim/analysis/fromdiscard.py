"""The model of the analyses that start at the discard: the hero's cards
after the pass are known, the opponents' hands follow the showdown model's
pass, and the deal is played on by the simulator's kernels.

:func:`~anaconda_sim.analysis.reveal_values` scores reveal orders with it,
:func:`~anaconda_sim.analysis.declare_values` hi-lo declarations, and under
the hi-lo rules :func:`~anaconda_sim.analysis.discard_values` and
:func:`~anaconda_sim.analysis.equity` score kept fives: the kernel
(:func:`~anaconda_sim.sim.kernels.reveal.reveal_batch`) plays any five of
the hero's seven held cards in a given order, on common random numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import CardError, format_cards, mask_from_cards, parse_cards
from ..hands.evaluator import N_CATEGORIES
from ..hands.hilo import SWING_FAILED
from ..limits import DECK_SIZE
from ..sim.driver import custom_functions, make_cfg
from ..sim.kernels.reveal import reveal_batch
from ..sim.layout import RIGHT_DRAWN
from ..stats import SHARE_SCALE, ChoiceAccumulator, exact_products
from ..strategies.sensible import reveal_order_hiding_most_telling
from ..strategies.spec import Strategy
from ..table.rules import REVEAL_ROUNDS
from .driver import (
    BatchRun,
    CardsLike,
    ReceivedCondition,
    Sampling,
    add_categories,
    check_capacity,
    known_cards,
    no_overlap,
    pub_at_pass,
    rules_of,
)

__all__ = ["DiscardModel", "OrderSums"]


class OrderRows:
    """One batch's per-deal results of every choice (the kernel's outputs)."""

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
    """The sums over all batches: exact accumulators and diagnostic totals."""

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
        """The accumulator of the table's ``value``: net chips with betting, else pot share."""
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
class DiscardModel:
    """One hero's situation at the discard, ready to score choices.

    Build it with :meth:`of`; :meth:`score` plays rows of five of the
    hero's seven cards (reveal order, last one hidden), with a declaration
    code appended when ``force`` is ``FORCE_ORDER_DECLARE``.
    """

    players: int
    rules: str
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
        cls, five: list[int], discards: list[int] | None, players: int, rules: str,
        seats: Sequence[Strategy], *, betting: bool, dealer: int, force: int,
        passed: CardsLike | None = None, received: CardsLike | None = None,
        known: CardsLike | None = None,
    ) -> DiscardModel:  # fmt: skip
        """Validate the hero's situation and prepare the kernel's arrays.

        ``five`` and ``discards`` (two cards, or ``None``: unknown cards) are
        the seven held; ``passed``/``received`` the hero's packets (unnamed:
        unknown); ``known``: other cards in no opponent's hand. Received cards
        all among the seven held condition the right neighbour's kept four on
        its having passed them (:class:`~anaconda_sim.analysis.driver.ReceivedCondition`);
        received cards partly among unknown discards do not.
        """

        dead = [] if discards is None else list(discards)
        held = five + dead
        passed_cards = None if passed is None else parse_cards(passed, 3, what="passed cards")
        if passed_cards is not None:
            no_overlap(held, passed_cards, "passed cards", "the hand")
        received_cards = None
        if received is not None:
            received_cards = parse_cards(received, 3, what="received cards")
            outside = [c for c in received_cards if c not in held]
            if outside and (discards is not None or len(outside) > 2):
                raise CardError(
                    f"received card {format_cards(outside[:1])} is neither kept nor discarded; "
                    "the received cards are among the seven held after the pass"
                )
        kinds = np.array([s.kind for s in seats], dtype=np.int64)
        params = np.stack([s.param_array(players) for s in seats])
        cbet, _, cdiscard, _, has_cdiscard = custom_functions(list(seats))
        cfg = make_cfg(rules_of(rules, players), dealer=int(dealer), rotate=False,
                       betting=betting, hero=0, force=force, random_cards=0, has_cpass=0,
                       has_cdiscard=has_cdiscard, record=False)  # fmt: skip
        taken = held + (passed_cards or []) + [c for c in (received_cards or []) if c not in held]
        extra = known_cards(known, taken)
        # what the kernel draws: the hero's unknown packet and discards, and the
        # opponents' hands less the three cards the right neighbour passed it
        unknown_hero = (0 if passed_cards else 3) + (0 if discards is not None else 2)
        check_capacity(players, DECK_SIZE - len(taken) - len(extra),
                       unknown_hero + 7 * (players - 1) - 3)  # fmt: skip
        named_right = received_cards and all(c in held for c in received_cards)
        right = received_cards if named_right else None
        # named, the received cards condition the right neighbour's four;
        # unnamed, its packet and four are drawn from their posterior; received
        # cards partly among unknown discards condition nothing
        pub = pub_at_pass(players, rules)
        known_mask = mask_from_cards(taken + extra)
        condition = ReceivedCondition.of(pub, seats[-1], known_mask, right)
        if received_cards is not None and right is None:
            # received cards partly among unknown discards: not conditioned on
            condition = ReceivedCondition(condition.fours, None)
        forced = condition.right_forced(right)
        return cls(
            players=players, rules=rules, betting=betting, cfg=cfg,
            pub=pub, kinds=kinds, params=params,
            known_mask=known_mask, hand5=np.array(five, dtype=np.int64),
            discards=np.array(dead if dead else [-1, -1], dtype=np.int64),
            hero_packet=np.array(passed_cards or [-1, -1, -1], dtype=np.int64),
            right_forced=forced if forced[0] != RIGHT_DRAWN else np.array(five[:3], dtype=np.int64),
            right_fours=condition.fours, received_acceptance=condition.acceptance, cbet=cbet,
            cdiscard=cdiscard,
        )  # fmt: skip

    @property
    def hilo(self) -> bool:
        return self.rules == "hi-lo"

    def score(self, choices: np.ndarray, options: Sampling, batch: int, what: str) -> OrderSums:
        """Every row of ``choices`` on the deals of ``options`` (common random numbers)."""

        sums = OrderSums(len(choices))
        value = sums.value(self.betting)
        run = BatchRun.of(options, options.batch(batch), what)
        for start, size in run.batches(lambda: value.se().max()):
            rows = OrderRows(size, len(choices), self.hilo)
            reveal_batch(options.key, start, size, self.cfg, self.pub, self.kinds, self.params,
                         self.known_mask, self.hand5, self.discards, self.hero_packet,
                         self.right_forced, self.right_fours, choices, rows.net, rows.share,
                         rows.opens, rows.folds, rows.pots, rows.cats, rows.hilo, self.cbet,
                         self.cdiscard)  # fmt: skip
            sums.add(rows)
        return sums


def sensible_order(five: Sequence[int]) -> list[int]:
    """``five`` in the reveal order of the built-in strategies: the card that
    tells most hidden, the shown four singles first, low to high
    (:func:`~anaconda_sim.strategies.reveal_order_hiding_most_telling`)."""

    return reveal_order_hiding_most_telling(five)
