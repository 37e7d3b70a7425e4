"""Orders of one kept five that have shown the same cards so far are one
deal played twice (common random numbers; R9: one card revealed a round):
the reveal kernel plays each revealed prefix once and starts an order's own
play, a copy of its lead's, at the round its prefix first differs
(``prefix_leads``, ``_lead_plays`` in anaconda_sim/sim/kernels/reveal.py).

Every number must be exactly that of playing every order in full: each
built-in family as the hero (whose bets read its own cards) and as the
opponents, a five the hero bets to the showdown and one it folds, plays that
end in every round (R13-R17), hi-lo declarations forced after a shared order
(R21-R26), and repeated rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import anaconda_sim as ac
from anaconda_sim.cards import parse_cards
from anaconda_sim.sim.kernels import reveal
from anaconda_sim.sim.kernels.reveal import prefix_leads

_SHARED = prefix_leads


def _played_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every order plays every round itself (the leads of no sharing)."""

    def apart(orders: np.ndarray, share_prefixes: bool = True) -> np.ndarray:
        return _SHARED(orders, share_prefixes=False)

    monkeypatch.setattr(reveal, "prefix_leads", apart)


def _frames(call, monkeypatch: pytest.MonkeyPatch) -> tuple[pd.DataFrame, pd.DataFrame]:  # type: ignore[no-untyped-def]
    shared = call()
    with monkeypatch.context() as patch:
        _played_in_full(patch)
        apart = call()
    return shared, apart


@pytest.mark.parametrize(("hand", "players", "hero", "opponents"), [
    # a full house the hero bets to the showdown, learned seats all round
    ("Q♠ Q♥ Q♦ 9♣ 9♦", 6, "learned", "learned"),
    # one pair: the hero folds in some plays, the opponents of five families
    ("K♠ K♦ 7♥ 4♣ 2♦", 6, "sensible", ["sensible", "random", "learned", "learned-v1", "call-down"]),
    # two pair; random opponents bet and raise at random (R15)
    ("J♠ J♦ 9♠ 8♦ 8♣", 4, "learned-v1", "random"),
    ("7♣ 7♦ 5♠ 5♥ K♣", 3, "random", "learned-v2"),
    ("A♥ A♠ 6♦ 3♠ 2♠", 2, "call-down", "sensible"),
])  # fmt: skip
def test_every_order_scores_as_if_played_in_full(monkeypatch, hand, players, hero, opponents):
    def call() -> pd.DataFrame:
        return ac.reveal_values(hand, players, hero=hero, opponents=opponents, deals=400, seed=7,
                                fold=False, progress=False)  # fmt: skip

    shared, apart = _frames(call, monkeypatch)
    assert len(shared) == 120
    # the orders do differ (in value, who opens, showdowns or pots): a slip would show
    assert shared[["value", "open_r1", "showdown_rate", "mean_pot"]].nunique().max() > 1
    pd.testing.assert_frame_equal(shared, apart, check_exact=True)


def test_hilo_orders_and_their_declarations_score_as_if_played_in_full(monkeypatch):
    # under the hi-lo rules (R21-R26) the hero declares by its strategy
    def orders() -> pd.DataFrame:
        return ac.reveal_values("5♠ 4♥ 3♦ 2♣ K♠", 5, rules="hi-lo", hero="sensible",
                                opponents=["sensible", "random", "learned", "random"],
                                deals=300, seed=3, fold=False, progress=False)  # fmt: skip

    shared, apart = _frames(orders, monkeypatch)
    pd.testing.assert_frame_equal(shared, apart, check_exact=True)

    # one order, its three declarations forced: rows that share every reveal
    # round and part only at the declaration, after the last (R22)
    def declarations() -> pd.DataFrame:
        return ac.declare_values("5♠ 4♥ 3♦ 2♣ A♠", 4, opponents="random", deals=400, seed=5,
                                 progress=False)  # fmt: skip

    shared, apart = _frames(declarations, monkeypatch)
    assert shared[["value", "mean_pot"]].nunique().max() > 1
    pd.testing.assert_frame_equal(shared, apart, check_exact=True)


def test_leads_follow_the_first_order_of_each_shown_prefix():
    five = parse_cards("Q♠ Q♥ Q♦ 9♣ 9♦")
    other = [*five[:4], parse_cards("3♠")[0]]
    orders = np.array([five, five[::-1], [five[0], five[2], five[1], five[3], five[4]],
                       five, other, [five[0], five[1], five[2], five[4], five[3]]])  # fmt: skip
    leads = prefix_leads(orders)
    # row 3 repeats row 0: it follows it in every round; row 4 keeps another
    # five (played in full, as its discard was); rows 2 and 5 part from row
    # 0 after one and three cards shown
    assert leads.tolist() == [
        [0, 1, 0, 0, 4, 0],
        [0, 1, 2, 0, 4, 0],
        [0, 1, 2, 0, 4, 0],
        [0, 1, 2, 0, 4, 5],
    ]
    assert prefix_leads(orders, share_prefixes=False).tolist() == [list(range(6))] * 4
    # over all 120 orders: 5, 20, 60 and 120 plays lead the four rounds
    every = np.array(list(__import__("itertools").permutations(five)))
    assert [len(set(row)) for row in prefix_leads(every).tolist()] == [5, 20, 60, 120]
