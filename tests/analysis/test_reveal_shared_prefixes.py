"""Orders of one kept five that have shown the same cards so far are one
deal played twice (common random numbers; R9: one card revealed a round):
the reveal kernel plays each revealed prefix once and starts an order's own
play, a copy of its lead's, at the round its prefix first differs
(``prefix_leads``, ``_lead_plays`` in anaconda_sim/sim/kernels/reveal.py).
With built-in seats under the high rules the kernel shares plays by what
is read, deal by deal: an order stays with a play while its shown cards
show that play's bucket (``shown_read``: all that the built-in families read
of them) and the same seat opens the round (R11-R12), or the hero has
folded.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from numba import njit

import anaconda_sim as ac
from anaconda_sim.cards import parse_cards
from anaconda_sim.hands.evaluator import exposed_value4, exposed_value_category
from anaconda_sim.sim.kernels import reveal
from anaconda_sim.sim.kernels.reveal import prefix_leads, same_five_leads
from anaconda_sim.sim.layout import C_HILO, CFG_SIZE
from anaconda_sim.strategies.dispatch import shown_read
from anaconda_sim.strategies.kinds import KIND_CUSTOM, KIND_LEARNED, KIND_RANDOM, KIND_SENSIBLE

_SHARED = prefix_leads


def _played_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every order plays every round itself (the leads of no sharing)."""

    def apart(orders: np.ndarray, share_prefixes: bool = True) -> np.ndarray:
        return _SHARED(orders, share_prefixes=False)

    monkeypatch.setattr(reveal, "prefix_leads", apart)
    monkeypatch.setattr(reveal, "_reads_buckets", lambda cfg, kinds: False)


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
    # a pair and four spades: the four-suited draw is read when four are shown
    ("Q♠ Q♥ J♠ 9♠ 5♠", 5, "learned", ["learned", "learned-v2", "sensible", "learned"]),
])  # fmt: skip
def test_every_order_scores_as_if_played_in_full(monkeypatch, hand, players, hero, opponents):
    # built-in seats under the high rules: plays are shared by what is read
    # of the shown cards, deal by deal, so more orders share than show one prefix
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
    every = np.array(list(itertools.permutations(five)))
    assert [len(set(row)) for row in prefix_leads(every).tolist()] == [5, 20, 60, 120]


def test_orders_of_one_five_start_as_one_play_when_every_seat_reads_buckets():
    five = parse_cards("Q♠ Q♥ Q♦ 9♣ 9♦")
    orders = np.array([five, five[::-1], [*five[:4], parse_cards("3♠")[0]]])
    # the first two are one deal until the kernel parts them; the third keeps another five
    assert same_five_leads(orders).tolist() == [[0, 0, 2]] * 4


def test_plays_are_shared_by_reads_only_with_built_in_seats_under_the_high_rules():
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    built_in = np.array([KIND_LEARNED, KIND_SENSIBLE, KIND_RANDOM], dtype=np.int64)
    assert reveal._reads_buckets(cfg, built_in)
    # a custom opponent may read the hero's shown cards themselves
    assert not reveal._reads_buckets(cfg, np.array([KIND_LEARNED, KIND_CUSTOM], dtype=np.int64))
    cfg[C_HILO] = 1  # the low reads and the declarations are not covered by the bucket
    assert not reveal._reads_buckets(cfg, built_in)


@njit(cache=False)
def _categories_that_differ_within_a_bucket():
    """Ordered fours of distinct cards, one to four shown, whose R11
    category ("sensible"'s read) differs from that of the first cards of the
    same exposure bucket (the learned family's read, ``shown_read``) and
    count met."""
    category = np.full((5, 8), -1, dtype=np.int64)
    bad = 0
    for i in range(52**4):  # the four cards are the base-52 digits of i
        c0, c1, c2, c3 = i // 52**3, (i // 52**2) % 52, (i // 52) % 52, i % 52
        if c0 == c1 or c0 == c2 or c0 == c3 or c1 == c2 or c1 == c3 or c2 == c3:
            continue
        for n in range(1, 5):
            bucket = shown_read(c0, c1, c2, c3, n)
            cat = exposed_value_category(exposed_value4(c0, c1, c2, c3, n))
            if category[n, bucket] < 0:
                category[n, bucket] = cat
            elif category[n, bucket] != cat:
                bad += 1
    return bad


def test_sensibles_read_of_shown_cards_is_a_function_of_their_bucket():
    """Every ordered four of distinct cards (6,497,400), one to four shown:
    cards of one exposure bucket have one R11 category, so a built-in seat
    reads nothing more of shown cards than their bucket (the kernel compares
    the opener, which reads exposed values, apart)."""
    assert _categories_that_differ_within_a_bucket() == 0
