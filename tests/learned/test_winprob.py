"""The win table of the "learned" family (anaconda_sim/strategies/learned/winprob.py):
its buckets against plain twins, its tallies against a plain count over the
simulator's records, and what the table says about the game (R11, R18)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from every_seven import seven_card_mismatches
from naive_learned import naive_exposure_bucket, naive_own_bucket
from numba import njit

from anaconda_sim.cards import mask_from_cards, parse_cards
from anaconda_sim.hands.evaluator import eval7, eval_cards
from anaconda_sim.learning.tables import estimate_win_table
from anaconda_sim.rng import card_bit
from anaconda_sim.sim.simulator import simulate
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.learned.params import WIN_TABLE_SHAPE
from anaconda_sim.strategies.learned.play import learned_bucket
from anaconda_sim.strategies.learned.winprob import (
    OWN_BUCKET,
    exposure_bucket,
    exposure_bucket_read,
    mask_bucket,
    own_bucket_names,
    tally_pairs,
)
from anaconda_sim.table import views as V


def test_own_buckets_match_the_twin_on_random_five_and_seven_card_hands():
    rng = np.random.default_rng(4)
    seen = set()
    for i in range(4000):
        hand = rng.choice(52, 5 if i % 2 else 7, replace=False).astype(np.int64)
        bucket = int(OWN_BUCKET[eval_cards(hand, len(hand))])
        assert bucket == naive_own_bucket(hand.tolist()), hand
        seen.add(bucket)
    assert len(own_bucket_names()) == WIN_TABLE_SHAPE[1]
    assert seen >= set(range(9))  # the rarest buckets need more than random hands


@pytest.mark.parametrize(
    ("cards", "bucket"),
    [
        ("A♠ K♠ Q♠ J♠ T♠", 11),
        ("9♠ 9♥ 9♦ 2♣ 2♦", 9),
        ("J♠ J♥ J♦ 2♣ 2♦", 10),
        ("K♠ 9♠ 7♠ 4♠ 2♠", 8),
        ("Q♠ 9♠ 7♠ 4♠ 2♠", 7),
        ("T♠ T♥ 4♦ 4♣ 2♦", 4),
        ("9♠ 9♥ 4♦ 4♣ A♦", 3),
    ],
)
def test_own_bucket_edges(cards, bucket):
    hand = np.array(parse_cards(cards), dtype=np.int64)
    assert OWN_BUCKET[eval_cards(hand, 5)] == bucket
    assert mask_bucket(mask_from_cards(cards)) == bucket


@njit(cache=False)
def _bucket_mismatches_five():
    """Five-card hands (all 2,598,960) whose bucket from the bit patterns
    differs from the value's, and the hands of each bucket."""
    cards = np.empty(5, np.int64)
    bad = 0
    seen = np.zeros(12, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        cards[0], cards[1], cards[2], cards[3], cards[4] = a, b, c, d, e
                        bucket = OWN_BUCKET[eval_cards(cards, 5)]
                        seen[bucket] += 1
                        mask = card_bit(a) | card_bit(b) | card_bit(c) | card_bit(d) | card_bit(e)
                        if mask_bucket(mask) != bucket:
                            bad += 1
    return bad, seen


@njit(cache=False)
def _bucket_differs(mask, a, b, c, d, e, f, g):
    return mask_bucket(mask) != OWN_BUCKET[eval7(a, b, c, d, e, f, g)]


def test_buckets_from_bit_patterns_on_every_five_card_hand():
    bad, seen = _bucket_mismatches_five()
    assert bad == 0
    assert (seen > 0).all()


@pytest.mark.slow
def test_buckets_from_bit_patterns_on_every_seven_card_hand():
    """The bucket the learned bet reads off the seven it holds
    (:func:`learned_bucket`) is the value's, on every seven-card hand."""
    bad, hands = seven_card_mismatches(_bucket_differs)
    assert bad == 0
    assert hands == 133_784_560


def test_learned_bucket_of_what_a_seat_holds_is_the_value_bucket():
    """A seat's bucket (:func:`learned_bucket`: seven cards by their bit
    patterns, five or six by the evaluator) on random hands."""
    rng = np.random.default_rng(9)
    own = np.full(V.OWN_SIZE, -1, dtype=np.int32)
    for i in range(3000):
        n = (5, 6, 7)[i % 3]
        hand = rng.choice(52, n, replace=False).astype(np.int64)
        own[V.O_CARDS : V.O_CARDS + n] = hand
        own[V.O_NCARDS] = n
        assert learned_bucket(own) == OWN_BUCKET[eval_cards(hand, n)], hand


def test_R11_exposure_buckets_of_every_four_card_board_match_the_twin():
    for four in itertools.combinations(range(52), 4):
        if four[0] % 3:  # the boards whose lowest card index is a multiple of 3 (a third)
            continue
        for shown in range(1, 5):
            got = exposure_bucket(four[0], four[1], four[2], four[3], shown)
            assert got == naive_exposure_bucket(list(four[:shown])), (four, shown)


@njit(cache=False)
def _read_buckets_that_differ():
    """Ordered four distinct cards, each count shown, whose bucket read from
    the table of ranks differs from the one computed."""
    bad = 0
    for c0 in range(52):
        for c1 in range(52):
            for c2 in range(52):
                for c3 in range(52):
                    if c0 == c1 or c0 == c2 or c0 == c3 or c1 == c2 or c1 == c3 or c2 == c3:
                        continue
                    for shown in range(1, 5):
                        if exposure_bucket_read(c0, c1, c2, c3, shown) != exposure_bucket(
                                c0, c1, c2, c3, shown):  # fmt: skip
                            bad += 1
    return bad


def test_exposure_buckets_read_from_the_rank_table_are_the_computed_ones():
    """Every ordered four of distinct cards (6,497,400), with one to four of
    them shown: the table of ranks and the suit test give the computed bucket."""
    assert _read_buckets_that_differ() == 0


def _naive_tallies(dealt, held, five, value):
    wins = np.zeros(WIN_TABLE_SHAPE, dtype=np.int64)
    pairs = np.zeros(WIN_TABLE_SHAPE, dtype=np.int64)
    n_deals, n = value.shape
    for d in range(n_deals):
        for i, j in itertools.permutations(range(n), 2):
            outcome = 2 if value[d, i] > value[d, j] else (1 if value[d, i] == value[d, j] else 0)
            cells = [(0, naive_own_bucket(dealt[d, i].tolist()), 0),
                     (1, naive_own_bucket(held[d, i].tolist()), 0)]  # fmt: skip
            own5 = naive_own_bucket(five[d, i].tolist())
            cells += [(1 + shown, own5, naive_exposure_bucket(five[d, j, :shown].tolist()))
                      for shown in range(1, 5)]  # fmt: skip
            for cell in cells:
                wins[cell] += outcome
                pairs[cell] += 2
    return wins, pairs


def test_tallies_equal_a_plain_count_over_the_records():
    players, deals = 4, 300
    result = simulate(players, ["call-down"] * players, deals, seed=8, records=True,
                      progress=False)  # fmt: skip
    records = result.records.sort_values(["deal", "seat"])

    def cards(prefix: str, count: int) -> np.ndarray:
        columns = [f"{prefix}_{k}" for k in range(count)]
        return records[columns].to_numpy(dtype=np.int64).reshape(deals, players, count)

    dealt, five = cards("dealt", 7), cards("hand", 5)
    held = np.concatenate([five, cards("discard", 2)], axis=2)
    value = records["value"].to_numpy(dtype=np.int64).reshape(deals, players)
    wins = np.zeros(WIN_TABLE_SHAPE, dtype=np.int64)
    pairs = np.zeros(WIN_TABLE_SHAPE, dtype=np.int64)
    tally_pairs(dealt, held, five, value, wins, pairs)
    expected_wins, expected_pairs = _naive_tallies(dealt, held, five, value)
    np.testing.assert_array_equal(wins, expected_wins)
    np.testing.assert_array_equal(pairs, expected_pairs)
    # every ordered pair once per stage; the two orders of a pair share one win
    assert (pairs.sum(axis=(1, 2)) == 2 * deals * players * (players - 1)).all()
    assert (wins.sum(axis=(1, 2)) == deals * players * (players - 1)).all()


def test_R18_the_estimated_table_orders_hands_by_strength():
    table, pairs = estimate_win_table(6, get_strategy("sensible"), 4000, seed=3)
    table = table.reshape(WIN_TABLE_SHAPE)
    pairs = pairs.reshape(WIN_TABLE_SHAPE)
    # after the discard the own five are final: against a rival showing
    # nothing yet, a stronger bucket wins at least as often (up to noise)
    seen = pairs[2, :, 0] > 2000
    rates = table[2, seen, 0]
    assert np.all(np.diff(rates) > -0.03), rates
    # quads or a straight flush against a board of nothing: nearly always ahead
    assert table[2, 11, 0] > 0.95
    # the shrinkage: an entry never seen is 1/2
    assert np.all(table[pairs == 0] == 0.5)


def test_the_win_table_field_never_folds_and_keeps_the_card_play():
    from anaconda_sim.learning.family import passive_variant

    assert passive_variant(get_strategy("sensible")).name == "call-down"
    assert passive_variant(get_strategy("random-pass")).name == "random-pass"
    learned = get_strategy("learned-v1", bluff=0.2)
    quiet = passive_variant(learned)
    values = quiet.param_array(4)
    # the same pass and order weights, thresholds that never bet, raise or fold
    assert values[:19].tolist() == learned.param_array(4)[:19].tolist()
    assert quiet.param_dict()["bluff"] == 0.0
    result = simulate(4, [quiet] * 4, 300, seed=2, records=True, progress=False)
    assert bool(result.records["showdown"].all()) and (result.records["fold_round"] == 0).all()
    with pytest.raises(ValueError, match="no passive variant of strategy 'random'"):
        passive_variant(get_strategy("random"))
