"""Sessions: stacks carried over (chips conserved), the button (R6), the reserve (R4)."""

from __future__ import annotations

import pytest

from anaconda_sim.game.play import RandomPlayer
from anaconda_sim.game.session import Session, SessionOverError
from anaconda_sim.table.rules import Rules


def test_R6_dealer_moves_one_seat_clockwise_each_deal() -> None:
    session = Session(Rules(players=4), ["call-down"] * 4, seed=2, dealer=2)
    records = session.run(6)
    assert [r.dealer for r in records] == [2, 3, 0, 1, 2, 3]
    assert [r.game.dealer for r in records] == [2, 3, 0, 1, 2, 3]
    assert session.dealer == 0


def test_chips_conserved_and_histories_kept() -> None:
    session = Session(Rules(players=5), ["sensible", "random", "call-down", "random", "sensible"],
                      stacks=[40, 60, 100, 30, 70], seed=7)  # fmt: skip
    total = sum(session.stacks)
    records = session.run(30)
    assert records and all(sum(r.stacks) == total for r in records)
    assert all(sum(r.net) == 0 for r in records)
    for before, record in zip([(40, 60, 100, 30, 70)] + [r.stacks for r in records], records,
                              strict=False):  # fmt: skip
        assert tuple(b + d for b, d in zip(before, record.net, strict=True)) == record.stacks
    assert len(session.deals) == len(records)
    assert all(r.history.events[-1]["type"] == "end" for r in records)


def test_R4_seat_below_reserve_sits_out() -> None:
    session = Session(Rules(players=3), ["random"] * 3, stacks=[100, 24, 100], seed=1, dealer=0)
    record = session.play_deal()
    assert record.seats == (0, 2) and record.sat_out == (1,)
    assert record.net[1] == 0 and session.stacks[1] == 24
    assert record.game.players == 2
    # the button (seat 1 next) sits out: the deal starts left of it, with seat 2
    record = session.play_deal()
    assert record.dealer == 1
    game = record.game
    first = (game.dealer + 1) % game.players
    assert record.seats[first] == 2


def test_R4_session_ends_when_fewer_than_two_can_play() -> None:
    session = Session(Rules(players=2), [RandomPlayer(), RandomPlayer()], stacks=[30, 30], seed=5)
    records = session.run(1000)
    assert session.is_over and len(records) < 1000
    assert sum(session.stacks) == 60
    assert min(session.stacks) < 25
    with pytest.raises(SessionOverError, match="the session is over"):
        session.play_deal()


def test_session_is_reproducible() -> None:
    def play() -> list:
        s = Session(Rules.bicycle(4), ["sensible", "random", "random", "call-down"], seed=3)
        return [r.history.to_json() for r in s.run(5)]

    assert play() == play()


def test_session_errors() -> None:
    with pytest.raises(ValueError, match="2 strategies for 3 players; give one per seat"):
        Session(Rules(players=3), ["random"] * 2)
    with pytest.raises(ValueError, match="2 stacks for 3 seats"):
        Session(Rules(players=3), ["random"] * 3, stacks=[30, 30])
    with pytest.raises(ValueError, match=r"dealer=5 is too large: seats are 0\.\.2"):
        Session(Rules(players=3), ["random"] * 3, dealer=5)
