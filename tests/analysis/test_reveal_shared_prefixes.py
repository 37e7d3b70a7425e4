"""Orders of one kept five that have shown the same cards so far are one
deal played twice (common random numbers; R9: one card revealed a round):
the reveal kernel plays each revealed prefix once and starts an order's own
play, a copy of its lead's, at the round its prefix first differs
(``prefix_leads``, ``_lead_plays`` in anaconda_sim/sim/kernels/reveal.py).
With built-in seats under the high rules, orders whose shown cards have
the same ``shown_key`` in every round so far (their ranks, and whether four
share a suit: all that R11-R12's opener and the built-in families read of
them) share a play too.

Every number must be exactly that of playing every order in full: each
built-in family as the hero (whose bets read its own cards) and as the
opponents, a five the hero bets to the showdown and one it folds, plays that
end in every round (R13-R17), hi-lo declarations forced after a shared order
(R21-R26), and repeated rows."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from numba import njit

import anaconda_sim as ac
from anaconda_sim.cards import parse_cards
from anaconda_sim.hands.evaluator import exposed_value4
from anaconda_sim.sim.kernels import reveal
from anaconda_sim.sim.kernels.reveal import prefix_leads
from anaconda_sim.sim.layout import C_HILO, CFG_SIZE
from anaconda_sim.strategies.kinds import (
    KIND_CUSTOM,
    KIND_LEARNED,
    KIND_RANDOM,
    KIND_SENSIBLE,
    shown_key,
)
from anaconda_sim.strategies.learned.winprob import exposure_bucket

_SHARED = prefix_leads


def _played_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every order plays every round itself (the leads of no sharing)."""

    def apart(orders: np.ndarray, share_prefixes: bool = True, by_key: bool = False) -> np.ndarray:
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
    # a pair and four spades: the four-suited draw is read when four are shown
    ("Q♠ Q♥ J♠ 9♠ 5♠", 5, "learned", ["learned", "learned-v2", "sensible", "learned"]),
])  # fmt: skip
def test_every_order_scores_as_if_played_in_full(monkeypatch, hand, players, hero, opponents):
    # built-in seats under the high rules: orders that show cards of one key
    # share plays too (shown_key), so more orders share than show one prefix
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


def test_orders_that_show_cards_of_one_key_share_plays():
    every = np.array(list(itertools.permutations(parse_cards("Q♠ Q♥ Q♦ 9♣ 9♦"))))
    # the queens and the nines show one key whatever their suits: 2 plays
    # lead the first round (a queen, a nine), 4 the second, 7 and 10 then
    assert [len(set(row)) for row in prefix_leads(every, by_key=True).tolist()] == [2, 4, 7, 10]
    # five ranks: each prefix of ranks is its own key
    ranks = np.array(list(itertools.permutations(parse_cards("A♠ K♦ 7♥ 4♣ 2♦"))))
    assert [len(set(row)) for row in prefix_leads(ranks, by_key=True).tolist()] == [5, 20, 60, 120]
    # a lead shares a key at every round so far, not only the last
    orders = np.array([parse_cards("Q♠ 9♣ Q♥ Q♦ 9♦"), parse_cards("9♣ Q♠ Q♥ Q♦ 9♦")])
    assert prefix_leads(orders, by_key=True).tolist() == [[0, 1], [0, 1], [0, 1], [0, 1]]


def test_key_sharing_needs_every_seat_built_in_and_the_high_rules():
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    built_in = np.array([KIND_LEARNED, KIND_SENSIBLE, KIND_RANDOM], dtype=np.int64)
    assert reveal._reads_by_key(cfg, built_in)
    # a custom opponent may read the hero's shown cards themselves
    assert not reveal._reads_by_key(cfg, np.array([KIND_LEARNED, KIND_CUSTOM], dtype=np.int64))
    cfg[C_HILO] = 1  # the low reads and the declarations are not covered by the key
    assert not reveal._reads_by_key(cfg, built_in)


@njit(cache=False)
def _key_code(c0, c1, c2, c3, n):
    """shown_key of the first ``n`` of four cards as one number (the test's
    own copy: the ranks shown sorted, the others last, then whether four
    share a suit)."""
    r0 = c0 >> 2
    r1 = (c1 >> 2) if n > 1 else 13
    r2 = (c2 >> 2) if n > 2 else 13
    r3 = (c3 >> 2) if n > 3 else 13
    # a sorting network of four
    r0, r1 = min(r0, r1), max(r0, r1)
    r2, r3 = min(r2, r3), max(r2, r3)
    r0, r2 = min(r0, r2), max(r0, r2)
    r1, r3 = min(r1, r3), max(r1, r3)
    r1, r2 = min(r1, r2), max(r1, r2)
    code = (((n * 14 + r0) * 14 + r1) * 14 + r2) * 14 + r3
    suited = n == 4 and (c0 & 3) == (c1 & 3) and (c1 & 3) == (c2 & 3) and (c2 & 3) == (c3 & 3)
    return code * 2 + (1 if suited else 0)


@njit(cache=False)
def _reads_that_differ_within_a_key():
    """Ordered fours of distinct cards, one to four shown, whose exposed
    value (R11, R12) or exposure bucket differs from that of the first
    cards of the same key met."""
    size = 5 * 14**4 * 2
    value = np.full(size, -1, dtype=np.int64)
    bucket = np.full(size, -1, dtype=np.int64)
    bad = 0
    for c0 in range(52):
        for c1 in range(52):
            for c2 in range(52):
                for c3 in range(52):
                    if c0 == c1 or c0 == c2 or c0 == c3 or c1 == c2 or c1 == c3 or c2 == c3:
                        continue
                    for n in range(1, 5):
                        code = _key_code(c0, c1, c2, c3, n)
                        v = exposed_value4(c0, c1, c2, c3, n)
                        b = exposure_bucket(c0, c1, c2, c3, n)
                        if value[code] < 0:
                            value[code], bucket[code] = v, b
                        elif value[code] != v or bucket[code] != b:
                            bad += 1
    return bad


def test_what_every_decision_reads_of_shown_cards_is_a_function_of_their_key():
    """Every ordered four of distinct cards (6,497,400), one to four shown:
    cards of one shown_key have one exposed value (the opener, R11 and R12;
    "sensible"'s category) and one exposure bucket (the learned family)."""
    assert _reads_that_differ_within_a_key() == 0
    # the copy of the key above is shown_key, one number per key
    rng = np.random.default_rng(5)
    codes: dict[tuple[int, ...], int] = {}
    for _ in range(20_000):
        four = rng.choice(52, size=4, replace=False)
        n = int(rng.integers(1, 5))
        code = int(_key_code(*(int(c) for c in four), n))
        assert codes.setdefault(shown_key([int(c) for c in four[:n]]), code) == code
    assert len(set(codes.values())) == len(codes)
