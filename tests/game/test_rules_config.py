"""Rules: presets, derived values, validation messages."""

from __future__ import annotations

import numpy as np
import pytest

from anaconda_sim.table.rules import BICYCLE, PAGAT, Rules


def test_R2_R3_defaults_are_the_rules_md_variant() -> None:
    r = Rules()
    assert r == PAGAT == Rules.pagat()
    assert (r.players, r.ante, r.bet, r.max_raises, r.reserve) == (6, 1, 1, 3, 25)
    assert r.passes == ((3, 1),) and r.discard and r.progressive_reveal
    assert r.betting_rounds == 6 and r.max_level == 4 and r.cards_used == 42


def test_bicycle_preset() -> None:
    r = Rules.bicycle(5)
    assert r == BICYCLE.with_players(5)
    assert r.passes == ((3, 1), (2, -1), (1, 1))
    assert not r.discard and not r.progressive_reveal
    assert r.betting_rounds == 4 and r.name == "bicycle"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"players": 1}, ValueError, "players=1 is not allowed"),
        ({"players": 8}, ValueError, "players=8 is not allowed"),
        ({"players": 2.0}, TypeError, "players=2.0 must be an int"),
        ({"ante": 0}, ValueError, "ante=0 must be positive"),
        ({"bet": -1}, ValueError, "bet=-1 must be positive"),
        ({"max_raises": -1}, ValueError, "max_raises=-1 must be 0 or more"),
        ({"passes": ((4, 1),)}, ValueError, "moves 4 cards; a pass moves 1 to 3"),
        ({"passes": ((0, 1),)}, ValueError, "moves 0 cards"),
        ({"passes": ((3, 2),)}, ValueError, "has direction 2; use \\+1"),
        ({"passes": ((3,),)}, ValueError, "give \\(cards, direction\\)"),
        ({"passes": ((3, 1), (3, 1), (3, 1))}, ValueError, "pass 9 cards in all"),
        ({"discard": False}, ValueError, "progressive_reveal=True needs discard=True"),
        ({"reserve": 24}, ValueError, "reserve=24 is too small"),
        ({"max_raises": 10, "reserve": 1000}, ValueError, "the betting log holds 256"),
    ],
)
def test_validation_names_the_bad_value(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        Rules(**kwargs)


def test_numpy_integers_and_lists_are_normalised() -> None:
    r = Rules(players=np.int64(3), passes=[[np.int64(2), -1]])
    assert r == Rules(players=3, passes=((2, -1),))
    assert type(r.players) is int and hash(r) == hash(Rules(players=3, passes=((2, -1),)))


def test_round_trip_dict_and_unknown_field() -> None:
    for r in (Rules(players=2), Rules.bicycle(7), Rules(passes=(), progressive_reveal=False)):
        assert Rules.from_dict(r.to_dict()) == r
    with pytest.raises(ValueError, match="unknown rules field 'colour'"):
        Rules.from_dict({"colour": 1})


def test_betting_rounds_count() -> None:
    assert Rules(passes=((3, 1), (1, -1)), reserve=29).betting_rounds == 7
    assert Rules(progressive_reveal=False).betting_rounds == 2
    assert Rules(discard=False, progressive_reveal=False, passes=()).betting_rounds == 1
