"""Cards: encoding, parsing, formatting, masks (DESIGN.md conventions, R1)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from anaconda_sim.cards import (
    CardError,
    card_mask,
    cards_from_mask,
    format_card,
    format_cards,
    full_deck,
    mask_from_cards,
    parse_card,
    parse_cards,
)


def test_R1_encoding_is_four_times_rank_plus_suit():
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("2h") == 2
    assert parse_card("2s") == 3
    assert parse_card("As") == 51
    assert parse_card("Qs") == 4 * 10 + 3
    assert len(set(full_deck().tolist())) == 52


@pytest.mark.parametrize("text", ["Qs", "Q♠", "q♠", "qS", "Q♤", " Qs "])
def test_notations_of_one_card(text):
    assert parse_card(text) == 43


@pytest.mark.parametrize("text", ["10s", "Ts", "ts", "10♠", "T♠"])
def test_ten_notations(text):
    assert parse_card(text) == 4 * 8 + 3


@pytest.mark.parametrize(
    "hand",
    ["Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "Qs,Qh,9c,8d,3s,4h,2c", "qs, qh; 9c 8d 3s 4h 2c",
     ["Qs", "Q♥", "9c", "8d", "3s", "4h", "2c"], [43, 42, 28, 25, 7, 10, 0]],
)  # fmt: skip
def test_worked_example_hand_in_every_notation(hand):
    assert parse_cards(hand, count=7) == [43, 42, 28, 25, 7, 10, 0]


def test_format_ascii_and_unicode():
    assert format_cards([43, 42, 28, 25]) == "Qs Qh 9c 8d"
    assert format_cards([43, 42, 28, 25], unicode=True) == "Q♠ Q♥ 9♣ 8♦"
    assert format_card(34) == "Th"


@given(st.lists(st.integers(0, 51), unique=True, max_size=52))
def test_round_trip_text_and_mask(cards):
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, unicode=True)) == cards
    assert cards_from_mask(mask_from_cards(cards)) == sorted(cards)


def test_mask_layout_one_lane_per_suit():
    # bit 16 * suit + rank
    assert card_mask(parse_card("2c")) == 1
    assert card_mask(parse_card("Ac")) == 1 << 12
    assert card_mask(parse_card("2s")) == 1 << 48
    full = int(mask_from_cards(list(range(52))))
    for suit in range(4):
        assert (full >> (16 * suit)) & 0xFFFF == 0x1FFF
    assert isinstance(mask_from_cards("As"), np.uint64)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("Xs", "unknown rank 'X' in card 'Xs'"),
        ("Qx", "unknown suit 'x' in card 'Qx'"),
        ("Q", "card 'Q' is too short"),
        ("1s", "unknown rank '1'"),
        ("11s", "unknown rank '11'"),
        (52, "card index 52 is out of range"),
        (-1, "card index -1 is out of range"),
        (True, "is a bool"),
        (3.5, "cannot read a card from 3.5"),
    ],
)
def test_bad_card_names_the_token(bad, message):
    with pytest.raises(CardError, match=message):
        parse_card(bad)


def test_bad_token_inside_a_hand_is_named():
    with pytest.raises(CardError, match="unknown suit 'z' in card '9z'"):
        parse_cards("Qs Qh 9z")


def test_duplicate_card_is_named_with_the_hand():
    with pytest.raises(CardError, match=r"duplicate card Qs in hand 'Qs Qh Q♠'"):
        parse_cards("Qs Qh Q♠")


def test_wrong_count_when_a_count_is_required():
    with pytest.raises(CardError, match=r"hand 'Qs Qh 9c' has 3 cards; it needs 7"):
        parse_cards("Qs Qh 9c", count=7)
    with pytest.raises(CardError, match="it needs 5 or 6 or 7"):
        parse_cards("Qs", count=(5, 6, 7))
    assert isinstance(CardError("x"), ValueError)


def test_single_number_is_not_a_hand():
    with pytest.raises(CardError, match="is a single number"):
        parse_cards(5)
