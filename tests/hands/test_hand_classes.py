"""Starting-hand classes: exact counts, the shipped table, classification, sampling."""

from __future__ import annotations

import math
from collections import Counter

import numba
import numpy as np
import pytest

from anaconda_sim._numba import jit_parallel
from anaconda_sim.cards import RANKS, format_cards, parse_cards
from anaconda_sim.hands import classes as H

N7 = math.comb(52, 7)


@pytest.fixture(scope="module")
def table():
    return H.hand_classes()


# ------------------------------------------------------------ naive twin --
def naive_class_name(hand: str) -> str:
    """The class name, straight from the definition in the module docstring."""
    cards = parse_cards(hand, 7)
    ranks = Counter(c >> 2 for c in cards)
    suits = Counter(c & 3 for c in cards)
    groups = sorted(((n, r) for r, n in ranks.items()), reverse=True)
    sizes = [n for n, _ in groups]
    by_size = {
        k: sorted((r for r, n in ranks.items() if n == k), reverse=True) for k in (1, 2, 3, 4)
    }
    held = set(ranks) | ({-1} if 12 in ranks else set())  # the ace also plays low
    run = max(sum(r in held for r in range(low, low + 5)) for low in range(-1, 9))
    longest = max(suits.values())
    flags = (" F5" if longest >= 5 else " F4" if longest == 4 else "") + (
        " S5" if run == 5 else " S4" if run == 4 else ""
    )
    R = RANKS
    if sizes[0] == 4:
        return R[groups[0][1]] * 4
    if sizes[0] == 3 and sizes[1] >= 2:
        return R[groups[0][1]] * 3 + "-" + R[groups[1][1]] * 2
    if sizes[0] == 3:
        return R[groups[0][1]] * 3 + flags
    pairs = by_size[2]
    if len(pairs) == 3:
        return f"{R[pairs[0]] * 2}-{R[pairs[1]] * 2}-xx{flags}"
    if len(pairs) == 2:
        return f"{R[pairs[0]] * 2}-{R[pairs[1]] * 2}{flags}"
    if len(pairs) == 1:
        top = by_size[1][0]
        kicker = R[top] if top > 8 else "T-"
        return f"{R[pairs[0]] * 2}/{kicker}{flags}"
    return f"{R[by_size[1][0]]}{R[by_size[1][1]]}-high{flags}"


def test_classify_matches_the_naive_definition_on_random_hands(table):
    rng = np.random.default_rng(11)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(3000)])
    ids = H.class_ids(hands)
    names = table["name"].to_numpy()
    for hand, cid in zip(hands, ids, strict=True):
        text = format_cards(hand)
        assert names[cid] == naive_class_name(text) == H.classify(text)


def test_every_representative_is_in_its_class_by_both_definitions(table):
    for cid, name, hand in table[["class_id", "name", "representative"]].itertuples(index=False):
        assert H.class_id(hand) == cid
        assert naive_class_name(hand) == name


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "QQ/T-"),  # the worked example of docs/rules.md
        ("As Ks Qs Js 9s 2c 3d", "AK-high F5 S4"),
        ("As Ks Qs 9s 7s 2c 3d", "AK-high F5"),
        ("As 2d 3c 4h 9s Jc Kd", "AK-high S4"),  # A-2-3-4 plays low (R18)
        ("As 2d 3c 4h 5s Jc Kd", "AK-high S5"),
        ("9s 9d 9c 5h 5s 5c Kd", "999-55"),  # two trips: a full house
        ("9s 9d 9c 5h 5s Kc Kd", "999-KK"),
        ("Ts Td 7c 7h 4s 4c Ad", "TT-77-xx"),
        ("Ts Td 7c 7h 4s 4c 4d", "444-TT"),
        ("2s 2d 2c 2h As Ac Ad", "2222"),
    ],
)
def test_known_hands(hand, name):
    assert H.classify(hand) == name


# ----------------------------------------------------------------- counts --
def test_table_has_the_documented_size_and_adds_up(table):
    assert len(table) == H.N_CLASSES == 1813
    assert table["class_id"].tolist() == list(range(H.N_CLASSES))
    assert table["name"].is_unique
    assert int(table["count"].sum()) == N7 == H.N_HANDS
    assert np.isclose(table["probability"].sum(), 1.0)
    sizes = table.groupby("family").size().to_dict()
    assert sizes == {"high card": 177, "pair": 546, "two pair": 606, "three pair": 198,
                     "trips": 117, "full house": 156, "quads": 13}  # fmt: skip


def test_family_totals_are_the_textbook_counts(table):
    totals = table.groupby("family")["count"].sum()
    c = math.comb
    assert totals["high card"] == c(13, 7) * 4**7
    assert totals["pair"] == 13 * c(12, 5) * c(4, 2) * 4**5
    assert totals["two pair"] == c(13, 2) * c(11, 3) * c(4, 2) ** 2 * 4**3
    assert totals["three pair"] == c(13, 3) * 10 * c(4, 2) ** 3 * 4
    assert totals["trips"] == 13 * c(12, 4) * 4 * 4**4
    # no flush is possible beside trips and a pair: the 7-card full house count
    assert totals["full house"] == 3_473_184
    assert totals["quads"] == 224_848


def test_shipped_table_is_what_the_generator_writes(tmp_path, table):
    assert H.main([str(tmp_path / "hand_classes.csv")]) == 0
    shipped = (H._DATA).read_text(encoding="utf-8")
    assert (tmp_path / "hand_classes.csv").read_text(encoding="utf-8") == shipped
    assert H.build_table().equals(table)


@jit_parallel(cache=False)
def _count_all_hands(lookup, n_classes):
    """Histogram of class ids over all C(52, 7) hands (prange over the first card)."""
    counts = np.zeros((52, n_classes), np.int64)
    for a in numba.prange(46):
        ranks = np.zeros(13, np.int64)
        suits = np.zeros(4, np.int64)
        ranks[a >> 2] += 1
        suits[a & 3] += 1
        for b in range(a + 1, 52):
            ranks[b >> 2] += 1
            suits[b & 3] += 1
            for c in range(b + 1, 52):
                ranks[c >> 2] += 1
                suits[c & 3] += 1
                for d in range(c + 1, 52):
                    ranks[d >> 2] += 1
                    suits[d & 3] += 1
                    for e in range(d + 1, 52):
                        ranks[e >> 2] += 1
                        suits[e & 3] += 1
                        for f in range(e + 1, 52):
                            ranks[f >> 2] += 1
                            suits[f & 3] += 1
                            for g in range(f + 1, 52):
                                ranks[g >> 2] += 1
                                suits[g & 3] += 1
                                key = H.key_from_counts(ranks, suits)
                                if key // 1638 >= 5:  # full house, quads: no flags
                                    key -= key % 9
                                counts[a, lookup[key]] += 1
                                ranks[g >> 2] -= 1
                                suits[g & 3] -= 1
                            ranks[f >> 2] -= 1
                            suits[f & 3] -= 1
                        ranks[e >> 2] -= 1
                        suits[e & 3] -= 1
                    ranks[d >> 2] -= 1
                    suits[d & 3] -= 1
                ranks[c >> 2] -= 1
                suits[c & 3] -= 1
            ranks[b >> 2] -= 1
            suits[b & 3] -= 1
    return counts.sum(axis=0)


@pytest.mark.slow
def test_counts_equal_an_enumeration_of_all_seven_card_hands(table):
    counts = _count_all_hands(H._lookup(), H.N_CLASSES)
    assert int(counts.sum()) == N7
    assert counts.tolist() == table["count"].tolist()


# --------------------------------------------------------------- sampling --
def test_samples_belong_to_their_class_and_repeat_with_the_seed(table):
    rng = np.random.default_rng(3)
    for cid in rng.choice(H.N_CLASSES, 40, replace=False):
        hands = H.sample_hands(int(cid), 5, seed=int(cid))
        assert [H.class_id(h) for h in hands] == [cid] * 5
        assert hands == H.sample_hands(table["name"].iat[cid], 5, seed=int(cid))
        assert all(len(set(parse_cards(h))) == 7 for h in hands)


def test_samples_are_uniform_over_the_hands_of_a_class():
    # AAAA holds C(48, 3) = 17,296 hands; 12 * C(4,1)**3 * C(12,3) = 14,080 of them
    # have three different side ranks (shape 4-1-1-1)
    p = 14_080 / 17_296
    n = 4000
    hands = H.sample_hands("AAAA", n, seed=5)
    side_ranks = [len({c >> 2 for c in parse_cards(h)}) for h in hands]
    share = sum(k == 4 for k in side_ranks) / n
    assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / n)
    # the suits of a flush draw are uniform: each suit leads 1/4 of the time
    suited = H.sample_hands("AK-high F4", n, seed=6)
    leads = Counter(Counter(c & 3 for c in parse_cards(h)).most_common(1)[0][0] for h in suited)
    for suit in range(4):
        assert abs(leads[suit] / n - 0.25) < 4 * math.sqrt(0.25 * 0.75 / n)


# ----------------------------------------------------------------- lookups --
def test_lookup_by_family_name_id_and_all(table):
    assert H.lookup_classes("all") == list(range(H.N_CLASSES))
    pairs = H.lookup_classes("Pair")
    assert len(pairs) == 546 and set(table.loc[pairs, "family"]) == {"pair"}
    assert H.lookup_classes(["aa/k", "  QQ/A   F4 ", 7]) == [
        table.index[table["name"] == "AA/K"][0], table.index[table["name"] == "QQ/A F4"][0], 7,
    ]  # fmt: skip
    assert H.representative(7) == table["representative"].iat[7]


@pytest.mark.parametrize(
    ("selection", "message"),
    [
        ("QQ/Z", "unknown hand class 'QQ/Z'"),
        (1813, "hand class id 1813 is out of range; ids are 0..1812"),
        (-1, "hand class id -1 is out of range"),
        (2.5, "hand class 2.5 is not a name or an id"),
    ],
)
def test_lookup_errors_name_the_bad_value(selection, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
        H.lookup_classes(selection)


def test_classify_errors_name_the_bad_card():
    with pytest.raises(ValueError, match="duplicate card Qs"):
        H.classify("Qs Qs 9c 8d 3s 4h 2c")
    with pytest.raises(ValueError, match="has 5 cards; it needs 7"):
        H.classify("Qs Qh 9c 8d 3s")
    with pytest.raises(ValueError, match="n=-1 must be a whole number"):
        H.sample_hands("AAAA", -1)
