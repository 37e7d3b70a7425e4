"""The reveal kernel plays each seat's discard once per deal (R8: every seat
discards at once) and starts every later order of the same five from the
table after it. Its results must be exactly those of playing each order
alone, with its own discard."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from anaconda_sim.analysis.driver import sampling
from anaconda_sim.analysis.fromdiscard import discard_model, score_orders
from anaconda_sim.cards import parse_cards
from anaconda_sim.sim.models import FORCE_ORDER
from anaconda_sim.strategies import get_strategy

FIVE = parse_cards("Q♠ Q♥ Q♦ 9♣ 9♦")  # a full house: the hero stays to the showdown
DISCARDS = parse_cards("3♠ 2♣")


def _model(players, rules, opponents, betting=True):
    names = opponents if isinstance(opponents, list) else [opponents] * (players - 1)
    seats = [get_strategy("sensible")] + [get_strategy(name) for name in names]
    return discard_model(FIVE, DISCARDS, players, rules, seats, betting=betting,
                         dealer=players - 1, force=FORCE_ORDER)  # fmt: skip


def _scores(model, rows, deals=300):
    options = sampling(deals=deals, precision=None, max_deals=deals, seed=11, batch_size=None,
                       progress=False, unicode=False)  # fmt: skip
    sums = score_orders(model, np.array(rows, dtype=np.int64), options, 128, "orders")
    return sums.net.total.copy(), sums.share.total.copy(), sums.cat_counts.copy()


def _alone(model, rows):
    """Each row scored in a call of its own (no order to share a discard with)."""
    parts = [_scores(model, [row]) for row in rows]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


@pytest.mark.parametrize(("players", "rules", "opponents"), [
    # betting bots of three families (random discards and bets draw from the
    # seats' streams; learned seats choose their reveal orders)
    (6, "high", ["sensible", "random", "learned", "sensible", "random"]),
    (4, "high", "random"),
    (3, "high", "learned"),
    (5, "hi-lo", ["sensible", "random", "sensible", "random"]),  # hi-lo discards, declarations
])  # fmt: skip
def test_orders_of_one_five_score_as_if_played_alone(players, rules, opponents):
    model = _model(players, rules, opponents)
    rows = [list(p) for p in itertools.islice(itertools.permutations(FIVE), 0, 120, 17)]
    together = _scores(model, rows)
    assert len(set(together[0].tolist())) > 1  # the orders do differ: the test can see a slip
    for got, want in zip(together, _alone(model, rows), strict=True):
        assert np.array_equal(got, want)


def test_rows_of_other_fives_and_a_missed_order_are_played_in_full():
    model = _model(4, "high", "sensible")
    other_five = [FIVE[0], FIVE[1], FIVE[2], FIVE[3], DISCARDS[0]]  # one of the seven
    not_held = [FIVE[0], FIVE[1], FIVE[2], FIVE[3], parse_cards("A♦")[0]]  # missed: not held
    for rows in (
        # the first order missed: its other orders are not reordered copies
        [not_held, list(reversed(not_held)), list(reversed(FIVE)), FIVE, other_five],
        [FIVE, not_held, other_five, list(reversed(FIVE)), list(reversed(other_five))],
    ):
        together = _scores(model, rows)
        for got, want in zip(together, _alone(model, rows), strict=True):
            assert np.array_equal(got, want)
