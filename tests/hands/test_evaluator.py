"""Tests of the hand evaluator: values (R18, R19), best five, exposed cards (R11), errors."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from naive import naive_best_five, naive_exposed_key, naive_key

from anaconda_sim._numba import jit
from anaconda_sim.cards import CardError, format_cards, parse_cards
from anaconda_sim.hands import lookup
from anaconda_sim.hands.evaluator import (
    CATEGORY_NAMES,
    EXPOSED_CATEGORY_NAMES,
    best_five,
    best_five_into,
    category,
    category_name,
    describe,
    eval5,
    eval7,
    eval_cards,
    eval_mask,
    eval_rows,
    eval_rows_parallel,
    evaluate,
    exposed_cards_value,
    exposed_category,
    exposed_value,
    exposed_value_category,
    value_category,
)
from anaconda_sim.rng import deal_cards, new_state, root_key

# ---------------------------------------------------------------- helpers


@jit(cache=False)
def _random_hands(key, n, k):
    """``n`` seeded random sets of ``k`` distinct cards (package RNG, one stream per row)."""
    hands = np.empty((n, k), np.int64)
    for i in range(n):
        state = new_state(key, i, 0)
        deal_cards(state, np.uint64(0), k, hands[i])
    return hands


@jit(cache=False)
def _best_of_subsets(hands):
    """Max of eval5 over every five-card subset of each row (6 or 7 columns)."""
    n = hands.shape[1]
    out = np.empty(hands.shape[0], np.int64)
    for r in range(hands.shape[0]):
        h = hands[r]
        best = 0
        for i in range(n):
            for j in range(i + 1, n):
                for k in range(j + 1, n):
                    for l in range(k + 1, n):
                        for m in range(l + 1, n):
                            best = max(best, eval5(h[i], h[j], h[k], h[l], h[m]))
        out[r] = best
    return out


@jit(cache=False)
def _scalar_paths(hands):
    """eval7 / eval_cards / eval_mask on each 7-card row, and the best_five_into value check."""
    out = np.empty((hands.shape[0], 4), np.int64)
    buf = np.empty(7, np.int64)
    for r in range(hands.shape[0]):
        h = hands[r]
        out[r, 0] = eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
        out[r, 1] = eval_cards(h, 7)
        mask = np.uint64(0)
        for c in h:
            mask |= np.uint64(1) << np.uint64(16 * (c & 3) + (c >> 2))
        out[r, 2] = eval_mask(mask)
        value = best_five_into(h, 7, buf)
        five = eval5(buf[0], buf[1], buf[2], buf[3], buf[4])
        out[r, 3] = value if five == value else -1
    return out


def _hands(n, k, seed):
    return _random_hands(root_key(seed), n, k)


def _same_order(values, keys):
    """True when sign(values[i] - values[j]) == sign(keys[i] vs keys[j]) for every pair.

    Sorting by value, the keys must be non-decreasing, and neighbours must
    tie in value exactly when they tie in key.
    """
    order = np.argsort(values, kind="stable")
    v = [int(values[i]) for i in order]
    k = [keys[i] for i in order]
    for a in range(len(v) - 1):
        if (v[a] == v[a + 1]) != (k[a] == k[a + 1]) or k[a] > k[a + 1]:
            return False
    return True


def _masks(hands):
    return [sum(1 << (16 * (c & 3) + (c >> 2)) for c in hand) for hand in hands]


# ---------------------------------------------------------------- values (R18, R19)


def test_rules_worked_example_r11_r18():
    """The worked example of docs/rules.md: full house, queens over nines; the exposed four
    show two pair."""
    held = parse_cards("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣")
    passed = parse_cards("3♠ 4♥ 2♣")
    received = parse_cards("Q♦ 9♦ 5♠")
    seven = [c for c in held if c not in passed] + received
    assert describe(seven) == "Full house, queens over nines"
    assert category_name(evaluate(seven)) == "Full house"
    five, out = best_five(seven)
    assert sorted(five) == sorted(parse_cards("Q♠ Q♥ Q♦ 9♣ 9♦"))
    assert sorted(out) == sorted(parse_cards("8♦ 5♠"))
    assert evaluate(five) == evaluate(seven)
    shown = parse_cards("9♣ Q♠ 9♦ Q♥")
    assert EXPOSED_CATEGORY_NAMES[exposed_category(shown)] == "Two pair"


def test_category_order_r18():
    """Straight flush > quads > full house > flush > straight > trips > two pair > pair > high."""
    hands = [
        "9h 8h 7h 6h 5h",
        "7s 7h 7d 7c 2d",
        "3s 3h 3d 2c 2d",
        "Kd 9d 7d 4d 2d",
        "9c 8h 7d 6s 5h",
        "8s 8h 8d Kc 2d",
        "Ks Kh 4d 4c 2d",
        "As Ah 9d 4c 2d",
        "Ah Qd 9c 7s 5h",
    ]
    values = [evaluate(h) for h in hands]
    assert values == sorted(values, reverse=True)
    assert [category(v) for v in values] == list(range(8, -1, -1))


def test_wheel_is_lowest_straight_r18():
    """A-2-3-4-5 is a straight, five high, the lowest; suited it is the lowest straight flush."""
    wheel = evaluate("As 2d 3c 4h 5s")
    assert category_name(wheel) == "Straight"
    assert describe(wheel) == "Straight, five high"
    assert wheel < evaluate("2s 3d 4c 5h 6s")
    assert wheel > evaluate("As Ad Ac Kh Qs")  # above any three of a kind
    steel = evaluate("Ah 2h 3h 4h 5h")
    assert category_name(steel) == "Straight flush"
    assert steel == lookup.CATEGORY_START[8]  # the lowest straight flush
    assert steel < evaluate("2h 3h 4h 5h 6h")
    # K-A-2-3-4 does not wrap around
    assert category_name(evaluate("Kh As 2d 3c 4h")) == "High card"
    assert evaluate("Ah Kh Qh Jh Th") == 7462


def test_kickers_and_groups_r18():
    assert evaluate("Ks Kh 4d 4c Ad") > evaluate("Ks Kh 4d 4c Qd")  # kicker
    assert evaluate("Ks Kh 5d 5c 2d") > evaluate("Ks Kh 4d 4c Ad")  # lower pair first
    assert evaluate("3s 3h 3d Ac Ad") < evaluate("4s 4h 4d 2c 2d")  # trips first
    assert evaluate("As Ah 9d 4c 3d") > evaluate("As Ah 9d 4c 2d")  # last kicker
    assert evaluate("Ah 9h 7h 4h 3h") > evaluate("Ad 9d 7d 4d 2d")


def test_suits_never_break_ties_r19():
    """Equal ranks with different suits have equal values (R19)."""
    assert evaluate("As Kh Qd Jc 9s") == evaluate("Ad Kc Qs Jh 9c")
    assert evaluate("Ts Th 4d 4c 2d") == evaluate("Td Tc 4s 4h 2s")
    assert evaluate("Ah Kh Qh Jh 9h") == evaluate("As Ks Qs Js 9s")
    assert evaluate("Qs Qh Qd 9c 9d 2c 3c") == evaluate("Qs Qh Qc 9s 9h 2d 3d")


@pytest.mark.parametrize("k", [6, 7])
def test_six_seven_card_values_are_best_five_r18(k):
    """On 1,000,000 seeded random hands, the value is the best of the 5-card subsets."""
    hands = _hands(1_000_000, k, seed=k)
    expected = _best_of_subsets(hands)
    assert np.array_equal(evaluate(hands), expected)
    out = np.empty(len(hands), np.int64)
    eval_rows(hands, out)
    assert np.array_equal(out, expected)


def test_scalar_kernels_agree():
    """eval7, eval_cards, eval_mask and best_five_into agree on 200,000 random 7-card hands."""
    hands = _hands(200_000, 7, seed=11)
    got = _scalar_paths(hands)
    expected = evaluate(hands)
    for column in range(4):
        assert np.array_equal(got[:, column], expected)


def test_parallel_equals_serial():
    hands = _hands(300_000, 7, seed=3).astype(np.uint8)
    serial = np.empty(len(hands), np.int32)
    parallel = np.empty(len(hands), np.int32)
    eval_rows(hands, serial)
    eval_rows_parallel(hands, parallel)
    assert np.array_equal(serial, parallel)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64])
def test_evaluate_array_shapes_and_dtypes(dtype):
    hands = _hands(60, 7, seed=4)
    expected = np.array([eval_cards(h, 7) for h in hands])
    got = evaluate(hands.astype(dtype).reshape(3, 4, 5, 7))
    assert got.shape == (3, 4, 5)
    assert got.dtype == np.int32
    assert np.array_equal(got.ravel(), expected)
    assert evaluate(hands[0].astype(dtype)).shape == ()
    assert evaluate(hands[:, :5].astype(dtype)).tolist() == [
        evaluate(h[:5].tolist()) for h in hands
    ]
    assert evaluate(np.empty((0, 6), dtype)).shape == (0,)


def test_random_hands_against_naive_twin_r18():
    """Value order equals the naive twin's key order on random 5-, 6- and 7-card hands."""
    for k, n in ((5, 4000), (6, 1500), (7, 1500)):
        hands = _hands(n, k, seed=20 + k)
        values = evaluate(hands)
        keys = [naive_key(h) for h in hands.tolist()]
        assert _same_order(values, keys)


# ---------------------------------------------------------------- categories, describe


def test_category_and_names():
    assert CATEGORY_NAMES[category(evaluate("Ah Ad Ac As 2d"))] == "Four of a kind"
    assert [category_name(v) for v in lookup.CATEGORY_START[:9]] == list(CATEGORY_NAMES)
    values = np.arange(1, 7463)
    cats = category(values)
    assert cats.tolist() == [value_category(v) for v in values]
    assert np.all(np.diff(cats) >= 0)
    assert isinstance(category(7000), int)


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("Qs Qh Qd 9c 9d", "Full house, queens over nines"),
        ("As Ad 4c 4h Kd", "Two pair, aces and fours, king kicker"),
        ("9s 8d 7c 6h 5h", "Straight, nine high"),
        ("Ah 9h 7h 4h 2h", "Flush, ace high"),
        ("Jd Jc 9h 4h 2h", "Pair of jacks"),
        ("Ad Jc 9h 4h 2h", "High card, ace"),
        ("7d 7c 7h Ah 2h", "Three of a kind, sevens"),
        ("7d 7c 7h 7s Qh", "Four of a kind, sevens, queen kicker"),
        ("9h 8h 7h 6h 5h", "Straight flush, nine high"),
        ("Ah Kh Qh Jh Th", "Royal flush"),
        ("6s 6h 2d 2c 3c 3d 9h", "Two pair, sixes and threes, nine kicker"),
    ],
)
def test_describe(hand, text):
    assert describe(hand) == text
    assert describe(evaluate(hand)) == text
    assert describe(np.array(parse_cards(hand))) == text


# ---------------------------------------------------------------- best five


def test_best_five_matches_naive_twin_with_ties():
    """Tie-break among equal-valued fives matches the naive twin (descending-lexicographic)."""
    rng = np.random.default_rng(8)
    hands = _hands(1500, 7, seed=9).tolist() + _hands(600, 6, seed=10).tolist()
    # board-like hands: many repeated ranks, so several fives tie
    for _ in range(1500):
        ranks = rng.choice(13, size=4, replace=False)
        pool = [4 * r + s for r in ranks for s in range(4)]
        hands.append(
            [int(c) for c in rng.choice(pool, size=int(rng.choice([6, 7])), replace=False)]
        )
    for hand in (
        parse_cards("Ah Kh Qh Jh 9h 8h 2c"),  # six flush cards, one does not play
        parse_cards("Ks Kh Kd Kc 9s 9h 9d"),  # kicker of the same rank, three suits
        parse_cards("5s 5h 5d 5c 4s 4h 3d"),
        parse_cards("As Ks Qs Js Ts 9s 8s"),
    ):
        hands.append(hand)
    for hand in hands:
        five, rest = best_five(hand)
        assert (five, rest) == naive_best_five(hand), format_cards(hand)
        assert evaluate(five) == evaluate(hand)
    array = np.array([h for h in hands if len(h) == 7], dtype=np.int8)
    five, rest = best_five(array)
    assert five.shape == (len(array), 5)
    assert rest.shape == (len(array), 2)
    assert five.dtype == np.int8
    for h, f, r in zip(array.tolist(), five.tolist(), rest.tolist(), strict=True):
        assert (f, r) == naive_best_five(h)


def test_best_five_six_cards_and_kernel_order():
    five, rest = best_five(parse_cards("Q♠ Q♥ 9♣ 8♦ Q♦ 9♦"))
    assert format_cards(five) == "Qs Qh Qd 9d 9c"
    assert format_cards(rest) == "8d"
    out = np.zeros(7, np.int64)
    cards = np.array(parse_cards("2c 3c 4c 5c 6c Ad As"), dtype=np.int64)
    value = best_five_into(cards, 7, out)
    assert value == evaluate("2c 3c 4c 5c 6c")
    assert format_cards(out[:5]) == "6c 5c 4c 3c 2c"
    assert format_cards(out[5:]) == "As Ad"


def test_best_five_gives_cards_as_it_takes_them():
    assert best_five("Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠") == ("Q♠ Q♥ Q♦ 9♦ 9♣", "8♦ 5♠")
    assert best_five("qs qh 9c 8d qd 9d 5s") == ("Qs Qh Qd 9d 9c", "8d 5s")
    assert best_five("Qs Qh 9c 8d Qd 9d 5s", unicode=True) == ("Q♠ Q♥ Q♦ 9♦ 9♣", "8♦ 5♠")
    assert best_five(["Q♠", "Q♥", "9♣", "8♦", "Q♦", "9♦"]) == (
        ["Q♠", "Q♥", "Q♦", "9♦", "9♣"], ["8♦"])
    indices = parse_cards("Qs Qh 9c 8d Qd 9d 5s")
    five, rest = best_five(indices)
    assert all(isinstance(c, int) for c in five + rest)
    assert format_cards(five) == "Qs Qh Qd 9d 9c"


def test_best_five_value_equals_hand_value():
    hands = _hands(20_000, 7, seed=12)
    five, rest = best_five(hands)
    assert np.array_equal(evaluate(five), evaluate(hands))
    both = np.sort(np.concatenate([five, rest], axis=1), axis=1)
    assert np.array_equal(both, np.sort(hands, axis=1))


# ---------------------------------------------------------------- exposed cards (R11)


def _all_sets(sizes):
    return [list(s) for k in sizes for s in combinations(range(52), k)]


def test_exposed_all_small_sets_against_naive_twin_r11():
    """Every 1-, 2- and 3-card set, and all compared with each other: same order as the twin."""
    sets = _all_sets((1, 2, 3))
    values = np.array([exposed_value(s) for s in sets[:60]] + [0] * (len(sets) - 60))
    for k in (1, 2, 3):
        rows = np.array([s for s in sets if len(s) == k])
        values[[i for i, s in enumerate(sets) if len(s) == k]] = exposed_value(rows)
    keys = [naive_exposed_key(s) for s in sets]
    assert _same_order(values, keys)


def test_exposed_random_four_card_sets_r11():
    """50,000 random 4-card sets plus every 1..3-card set: order and ties as the twin."""
    four = _hands(50_000, 4, seed=13).tolist()
    sets = four + _all_sets((1, 2, 3))
    values = np.concatenate(
        [exposed_value(np.array(four))]
        + [exposed_value(np.array([s for s in sets if len(s) == k])) for k in (1, 2, 3)]
    )
    ordered = four + [s for k in (1, 2, 3) for s in sets[len(four) :] if len(s) == k]
    keys = [naive_exposed_key(s) for s in ordered]
    assert _same_order(values, keys)
    cats = exposed_category(np.array(four))
    assert cats.tolist() == [naive_exposed_key(s)[0] for s in four]


def test_exposed_examples_r11():
    """R11: groups only, then group ranks (higher pair first), then singles high to low."""
    x = exposed_value
    assert x("7s 7h 7d 2c") > x("As Ah Kd Kc")  # trips beat two pair
    assert x("9s 9h 5d 5c") > x("9d 9c 4s 4h")  # 9-9-5-5 beats 9-9-4-4
    assert x("Ts Th 2d 2c") > x("9s 9h 8d 8c")  # higher pair first
    assert x("2s 2h 2d 2c") > x("As Ah Ad Kc")  # quads beat trips
    assert x("2s 2h") > x("As Kh Qd Jc")  # any pair beats no pair
    assert x("9s 9h Ad") > x("9d 9c Kd")  # then the single cards
    assert x("Ts Js Qs Ks") < x("2d 2c")  # no straights or flushes
    assert x("Ks 7h") > x("Kd")  # a missing card ranks below any card
    assert x("9s 9h") > x("As")
    assert x("9s 9h 2c") > x("9d 9c")
    assert x("Ks Qh 7d") == x("Kd Qs 7c")  # suits never matter: a tie (R12 decides)
    assert x("9c Qs 9d Qh") == x("Qc Qd 9s 9h")
    names = [EXPOSED_CATEGORY_NAMES[exposed_category(s)] for s in ("Ah", "Ah As", "Ah As 2c 2d")]
    assert names == ["No pair", "Pair", "Two pair"]
    assert EXPOSED_CATEGORY_NAMES[exposed_category("Ah As Ad")] == "Three of a kind"
    assert EXPOSED_CATEGORY_NAMES[exposed_category("Ah As Ad Ac")] == "Four of a kind"


def test_exposed_kernel_zero_cards_is_smallest_r11():
    none = exposed_cards_value(np.zeros(4, np.int64), 0)
    assert none < min(exposed_value([c]) for c in range(52))
    assert exposed_value_category(none) == 0
    cards = np.array(parse_cards("9c Qs 9d Qh"), dtype=np.int8)
    assert exposed_cards_value(cards, 4) == exposed_value("9c Qs 9d Qh")
    assert exposed_cards_value(cards, 2) == exposed_value("9c Qs")
    assert exposed_value_category(exposed_cards_value(cards, 4)) == 2


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("call", "arg", "error", "text"),
    [
        (evaluate, "Qs Qh Qs 9c 9d", CardError, "duplicate card Qs"),
        (evaluate, "Qs Qh Xd 9c 9d", CardError, "unknown rank 'X'"),
        (evaluate, "Qs Qh Qd 9c", CardError, "has 4 cards; it needs 5 or 6 or 7"),
        (evaluate, "Qs Qh Qd 9c 9d 8c 7c 6c", CardError, "has 8 cards"),
        (evaluate, [43, 42, 52, 1, 2], CardError, "card index 52 is out of range"),
        (evaluate, np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 60]]), CardError, "card index 60"),
        (evaluate, np.array([[0, 1, 2, 3, -1]]), CardError, "card index -1"),
        (evaluate, np.array([[0, 1, 2, 3, 4], [5, 6, 7, 5, 9]]), CardError, "duplicate card 3d"),
        (evaluate, np.zeros((3, 4), np.int64), ValueError, "shape (3, 4)"),
        (evaluate, np.zeros((3, 8), np.int64), ValueError, "shape (3, 8)"),
        (evaluate, np.zeros((3, 5)), ValueError, "dtype float64"),
        (evaluate, np.int64(7), ValueError, "shape ()"),
        (category, 0, ValueError, "hand value 0"),
        (category, np.array([5, 7463]), ValueError, "hand value 7463"),
        (category, np.array([1.5]), ValueError, "dtype float64"),
        (category_name, -3, ValueError, "hand value -3"),
        (describe, 7463, ValueError, "hand value 7463"),
        (describe, "Qs Qh", CardError, "has 2 cards"),
        (describe, np.zeros((2, 5), np.int64), ValueError, "shape (2, 5)"),
        (best_five, "Qs Qh Qd 9c 9d", CardError, "has 5 cards; it needs 6 or 7"),
        (best_five, "Qs Qh Qd 9c 9d Qs", CardError, "duplicate card Qs"),
        (best_five, np.zeros((2, 5), np.int64), ValueError, "shape (2, 5)"),
        (best_five, np.arange(7).reshape(1, 1, 7), ValueError, "shape (1, 1, 7)"),
        (exposed_value, "Qs Qh Qd 9c 9d", CardError, "has 5 cards"),
        (exposed_value, "", CardError, "has 0 cards"),
        (exposed_value, "Qs Qs", CardError, "duplicate card Qs"),
        (exposed_value, np.array([[1, 99]]), CardError, "card index 99"),
        (exposed_value, np.zeros((2, 5), np.int64), ValueError, "shape (2, 5)"),
        (exposed_category, "Zz", CardError, "unknown rank 'Z'"),
    ],
)
def test_bad_input_names_the_bad_value(call, arg, error, text):
    with pytest.raises(error) as info:
        call(arg)
    assert text in str(info.value)


# ---------------------------------------------------------------- tables


def test_rank_keys_sums_are_unique():
    """Sums of up to 7 rank keys (at most 4 per rank) are all distinct; the hash is perfect."""
    keys = []
    for n in range(8):
        rows = lookup._multisets(n)
        keys.append(lookup.RANK_KEYS[rows].sum(axis=1) if n else np.zeros(1, np.int64))
    keys = np.concatenate(keys)
    assert len(np.unique(keys)) == len(keys)
    five_to_seven = np.concatenate(
        [lookup.RANK_KEYS[lookup._multisets(n)].sum(1) for n in (5, 6, 7)]
    )
    h = (five_to_seven * lookup.HASH_MULTIPLIER) & lookup.HASH_MASK
    index = h + lookup.ROW_OFFSETS[h >> lookup.ROW_SHIFT]
    assert len(np.unique(index)) == len(index) == len(lookup.RANK_TABLE)
    assert index.min() == 0
    assert lookup.RANK_TABLE.min() >= 1
    assert lookup.RANK_TABLE.nbytes + lookup.ROW_OFFSETS.nbytes < 300_000


@pytest.mark.parametrize(("position", "card", "text"), [(3, 60, "card index 60"), (5, 9, "dup")])
def test_bad_row_found_in_large_arrays(position, card, text):
    """The parallel validity check finds one bad row among 100,000 and names it."""
    hands = _hands(100_000, 7, seed=14).astype(np.uint8)
    hands[70_001, position] = card
    hands[70_001, 4] = 9
    with pytest.raises(CardError, match=text) as info:
        evaluate(hands)
    assert "(70001,)" in str(info.value)
    with pytest.raises(CardError, match=text):
        exposed_value(hands[:, 2:6])
