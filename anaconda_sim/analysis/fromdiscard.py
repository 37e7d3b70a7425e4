"""The model of the analyses that start at the discard: the hero's cards
after the pass are known, the opponents' hands follow the showdown model's
pass, and the deal is played on by the simulator's kernels
(:class:`~anaconda_sim.sim.models.RevealModel`).

:func:`~anaconda_sim.analysis.reveal_values` scores reveal orders with it,
:func:`~anaconda_sim.analysis.declare_values` hi-lo declarations, and under
the hi-lo rules :func:`~anaconda_sim.analysis.discard_values` and
:func:`~anaconda_sim.analysis.equity` score kept fives: the model plays any
five of the hero's seven held cards in a given order, on common random
numbers. This module checks the hero's situation and runs the model batch
by batch (:class:`~anaconda_sim.analysis.driver.BatchRun`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import CardError, format_cards, parse_cards
from ..limits import DECK_SIZE
from ..sim.models import OrderSums, RevealModel
from ..strategies.sensible import reveal_order_hiding_most_telling
from ..strategies.spec import Strategy
from .driver import (
    BatchRun,
    CardsLike,
    Sampling,
    check_capacity,
    known_cards,
    no_overlap,
    rules_of,
)

__all__ = ["discard_model", "score_orders"]


def discard_model(
    five: list[int], discards: list[int] | None, players: int, rules: str,
    seats: Sequence[Strategy], *, betting: bool, dealer: int, force: int,
    passed: CardsLike | None = None, received: CardsLike | None = None,
    known: CardsLike | None = None,
) -> RevealModel:  # fmt: skip
    """Validate the hero's situation at the discard and build its reveal model.

    ``five`` and ``discards`` (two cards, or ``None``: unknown cards) are
    the seven held; ``passed``/``received`` the hero's packets (unnamed:
    unknown); ``known``: other cards in no opponent's hand. Received cards
    all among the seven held condition the right neighbour's kept four on
    its having passed them (:class:`~anaconda_sim.sim.models.ReceivedCondition`);
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
    elsewhere = [c for c in (received_cards or []) if c not in held]
    taken = held + (passed_cards or []) + elsewhere
    extra = known_cards(known, taken)
    # what the kernel draws: the hero's unknown packet and discards, and the
    # opponents' hands less the three cards the right neighbour passed it
    unknown_hero = (0 if passed_cards else 3) + (0 if discards is not None else 2)
    check_capacity(players, DECK_SIZE - len(taken) - len(extra),
                   unknown_hero + 7 * (players - 1) - 3)  # fmt: skip
    # named, the received cards condition the right neighbour's four; unnamed,
    # its packet and four are drawn from their posterior; received cards
    # partly among unknown discards condition nothing
    named_right = received_cards and all(c in held for c in received_cards)
    return RevealModel.of(five, discards, rules_of(rules, players), seats, betting=betting,
                          dealer=int(dealer), force=force, passed=passed_cards,
                          right=received_cards if named_right else None,
                          posterior=received_cards is None,
                          known=elsewhere + extra)  # fmt: skip


def score_orders(
    model: RevealModel, choices: np.ndarray, options: Sampling, batch: int, what: str
) -> OrderSums:
    """Every row of ``choices`` on the deals of ``options`` (common random
    numbers), in batches of ``batch`` deals with the analyses' stopping rule."""

    run = BatchRun.of(options, options.batch(batch), what)
    return model.score(choices, options.key, run.batches)


def sensible_order(five: Sequence[int]) -> list[int]:
    """``five`` in the reveal order of the built-in strategies: the card that
    tells most hidden, the shown four singles first, low to high
    (:func:`~anaconda_sim.strategies.reveal_order_hiding_most_telling`)."""

    return reveal_order_hiding_most_telling(five)
