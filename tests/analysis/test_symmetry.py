"""Equal choices folded: reveal orders and discards that are one choice up to
a relabelling of suits nothing known tells apart are one row with a count
(R1, R19: no suit ranks above another)."""

import itertools

import numpy as np
import pytest

from anaconda_sim.analysis import discard_values, reveal_values
from anaconda_sim.analysis.symmetry import (
    SUIT_PERMUTATIONS,
    Folding,
    choice_classes,
    relabel,
    suit_symmetries,
)
from anaconda_sim.cards import parse_cards
from anaconda_sim.output.plots import plot_reveal_values

FULL_HOUSE = "Q♠ Q♥ Q♦ 9♣ 9♦"
MIRRORED = "K♠ K♥ 9♠ 9♥ 5♠ 5♥ 2♣"  # spades and hearts mirror each other


def _naive_same(a, b, known, ordered):
    """Twin of choice_classes: some permutation of the four suits keeps every
    known set and maps choice ``a`` onto ``b``."""
    for p in itertools.permutations(range(4)):
        if all({4 * (c // 4) + p[c % 4] for c in cards} == set(cards) for cards in known):
            image = [4 * (c // 4) + p[c % 4] for c in a]
            if (image == list(b)) if ordered else (set(image) == set(b)):
                return True
    return False


@pytest.mark.parametrize(
    ("hand", "extra", "size"),
    [
        (FULL_HOUSE, None, 2),  # ♥ <-> ♠ only: Q♦ shares its suit with 9♦
        ("Q♠ Q♥ Q♦ 9♣ 9♥", None, 2),  # ♦ <-> ♠: ♣ and ♥ hold the nines
        ("Q♠ Q♥ 9♥ 9♦ 2♣", None, 1),  # no suit is free
        ("A♠ K♠ Q♠ J♠ 9♠", None, 6),  # ♣ ♦ ♥ are exchangeable
        ("A♠ K♠ Q♠ J♠ 9♠", "2♣", 2),  # a known club leaves ♦ <-> ♥
        ("A♠ A♥ A♦ A♣ 2♣", None, 6),
        ("A♠ A♥ K♠ K♥ 2♣", None, 2),
        ("A♠ A♥ K♠ K♦ 2♣", None, 1),
    ],
)
def test_suit_symmetries_keep_every_known_set(hand, extra, size):
    sets = [parse_cards(hand)] + ([parse_cards(extra)] if extra else [])
    found = suit_symmetries(*sets)
    assert found[0] == (0, 1, 2, 3) and len(found) == size
    for p in SUIT_PERMUTATIONS:
        keeps = all(set(relabel(s, p)) == set(s) for s in sets)
        assert keeps == (p in found)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ordered", [True, False])
def test_choice_classes_agree_with_the_naive_twin(seed, ordered):
    rng = np.random.default_rng(seed)
    # hands drawn from few suits, so that symmetries are common
    suits = rng.choice(4, size=2, replace=False)
    ranks = rng.choice(13, size=4, replace=False)
    hand = sorted({4 * int(r) + int(s) for r in ranks[:3] for s in suits} | {4 * int(ranks[3])})
    hand = hand[:7] if len(hand) > 7 else hand
    known = [hand]
    if seed % 2:
        known.append([int(rng.choice([c for c in range(52) if c not in hand]))])
    size = 2 if ordered else 3
    choices = (list(itertools.permutations(hand, size)) if ordered
               else list(itertools.combinations(hand, size)))  # fmt: skip
    classes = choice_classes(choices, suit_symmetries(*known), ordered=ordered)
    for i, j in itertools.combinations(range(len(choices)), 2):
        same = _naive_same(choices[i], choices[j], known, ordered)
        assert (classes[i] == classes[j]) == same, (choices[i], choices[j])
    assert all(classes[k] <= k and classes[classes[k]] == classes[k] for k in range(len(classes)))


def test_reveal_orders_fold_exactly_the_suit_relabellings():
    folded = reveal_values(FULL_HOUSE, 4, deals=600, seed=11)
    every = reveal_values(FULL_HOUSE, 4, deals=600, seed=11, fold=False)
    assert len(every) == 120 and "count" not in every
    assert len(folded) == 60 and folded["count"].tolist() == [2] * 60
    members = folded.attrs["members"]
    assert folded.attrs["suit_symmetries"] == ["(♥ ♠)"] and folded.attrs["fold"] is True
    assert sorted(m for row in members.values() for m in row) == sorted(every["order"])
    by_order = every.set_index("order")
    for row in folded.itertuples():
        pair = members[row.order]
        assert pair[0] == row.order
        # the member is the order with the queens of hearts and spades swapped
        assert pair[1] == " ".join({"Q♠": "Q♥", "Q♥": "Q♠"}.get(c, c) for c in row.order.split())
        # the row is the mean of its orders, scored on the same deals
        assert row.value == pytest.approx(by_order.loc[pair, "value"].mean(), abs=1e-12)
        a, b = by_order.loc[pair[0]], by_order.loc[pair[1]]
        # alike orders have equal values: their paired difference is within noise
        assert abs(a["value"] - b["value"]) <= 4 * np.hypot(a["se"], b["se"]) + 1e-12


def test_the_queen_sharing_a_suit_is_not_folded():
    folded = reveal_values(FULL_HOUSE, 4, deals=300, seed=2)
    for pair in folded.attrs["members"].values():
        # Q♦ keeps its place in both members: ♦ is tied to 9♦
        assert [c == "Q♦" for c in pair[0].split()] == [c == "Q♦" for c in pair[1].split()]
    # a known heart breaks the last symmetry
    lone = reveal_values(FULL_HOUSE, 4, known="2♥", deals=300, seed=2)
    assert len(lone) == 120 and set(lone["count"]) == {1} and lone.attrs["members"] == {}


def test_hidden_cards_fold_too():
    table = reveal_values(FULL_HOUSE, 4, by="hidden", deals=300, seed=3)
    assert sorted(table["count"]) == [1, 1, 1, 2]
    assert sorted(table.attrs["members"].values()) == [["Q♠", "Q♥"]]


def test_discards_fold_and_confirm_their_rows():
    folded = discard_values(MIRRORED, 4, deals=1500, seed=5, confirm=3)
    every = discard_values(MIRRORED, 4, deals=1500, seed=5, fold=False)
    assert len(every) == 21 and folded["count"].sum() == 21
    # 21 discards: the 3 pairs of mirror cards are their own images, the 18 others pair up
    assert sorted(folded["count"]) == [1] * 3 + [2] * 9
    by_discard = every.set_index("discard")
    for row in folded.itertuples():
        pair = folded.attrs["members"].get(row.discard, [row.discard])
        assert row.value == pytest.approx(by_discard.loc[pair, "value"].mean(), abs=1e-12)
        assert row.hand_value == by_discard.loc[pair[0], "hand_value"]
    assert np.isfinite(folded["confirm_value"].iloc[:3]).all()
    assert folded["confirm_value"].iloc[3:].isna().all()
    # a named packet the relabelling does not keep leaves every discard its own row
    passed = discard_values(MIRRORED, 4, passed="A♠ 3♦ 4♦", deals=300, seed=5)
    assert len(passed) == 21


def test_folding_weights_average_unequal_classes_exactly():
    folding = Folding(np.array([0, 0, 2, 0]), ("(♥ ♠)",))
    weights = folding.weights([0, 1], np.arange(4))
    assert weights.tolist() == [[1, 1, 0, 1], [0, 0, 3, 0]]


def test_fold_is_checked():
    with pytest.raises(TypeError, match="fold='yes' must be True or False"):
        reveal_values(FULL_HOUSE, 4, deals=10, fold="yes")


def test_reveal_chart_fills_every_cell_from_the_folded_rows():
    table = reveal_values(FULL_HOUSE, 4, deals=300, seed=4)
    figure = plot_reveal_values(table)
    heat = figure.axes[0]
    texts = [t.get_text() for t in heat.texts]
    # 5 x 5 cells; the 5 with the same card hidden and first are empty
    assert len(texts) == 25 and texts.count("—") == 5
    labels = [t.get_text() for t in figure.axes[2].get_yticklabels()]
    assert all(label.endswith("(×2)") for label in labels)
