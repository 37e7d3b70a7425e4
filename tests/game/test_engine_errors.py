"""Illegal input: a specific GameError with a useful message, and no change of state."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from anaconda_sim.errors import (
    AlreadyCommittedError,
    GameError,
    GameOverError,
    IllegalActionError,
    IllegalCardsError,
    InvalidSeatError,
    OutOfTurnError,
    SeatFoldedError,
    WrongPhaseError,
)
from anaconda_sim.game.engine import Game, Phase
from anaconda_sim.table.rules import Rules


def refused(game: Game, move: Callable[[], object], error: type[GameError], match: str) -> None:
    before = game.snapshot()
    with pytest.raises(error, match=match):
        move()
    assert game.snapshot() == before


def at_pass(players: int = 3, fold_first: bool = False) -> Game:
    game = Game(Rules(players=players), dealer=0, deck=list(range(52)))
    if fold_first:
        game.bet()
        game.fold()
    while game.phase is Phase.BETTING:
        game.act(game.to_act, "check" if game.to_call() == 0 else "call")
    return game


def at_discard() -> Game:
    game = at_pass()
    for seat in range(3):
        game.commit_pass(seat, game.hand(seat)[:3])
    while game.phase is Phase.BETTING:
        game.check()
    return game


def test_betting_errors() -> None:
    game = Game(Rules(players=3), dealer=0, seed=1)
    refused(game, lambda: game.act(2, "bet"), OutOfTurnError,
            r"seat 2 cannot bet: it is seat 1's turn \(legal for seat 1: check, bet\)")  # fmt: skip
    refused(game, lambda: game.act(1, "fold"), IllegalActionError,
            "no bet is pending")  # fmt: skip
    refused(game, lambda: game.act(1, "shove"), IllegalActionError, "unknown action 'shove'")
    refused(game, lambda: game.act(7, "check"), InvalidSeatError, "seat 7 is not at the table")
    refused(game, lambda: game.commit_pass(1, [0, 1, 2]), WrongPhaseError,
            "seat 1 cannot pass cards: betting round 1 is on and seat 1 is to act")  # fmt: skip
    game.bet()
    refused(game, lambda: game.act(2, "check"), IllegalActionError,
            "seat 2 cannot check: seat 2 faces a bet of 1; legal: fold, call, raise")  # fmt: skip
    refused(game, game.bet, IllegalActionError, "cannot bet")
    game.fold()  # seat 2
    refused(game, lambda: game.act(2, "call"), SeatFoldedError, "seat 2 cannot call: it has folded")


def test_pass_errors() -> None:
    game = at_pass()
    hand = game.hand(0)
    other = game.hand(1)[0]
    refused(
        game, lambda: game.commit_pass(0, hand[:2]), IllegalCardsError, "has 2 cards; it needs 3"
    )
    refused(game, lambda: game.commit_pass(0, [hand[0], hand[0], hand[1]]), IllegalCardsError,
            "duplicate card")  # fmt: skip
    refused(game, lambda: game.commit_pass(0, [hand[0], hand[1], other]), IllegalCardsError,
            "not in its hand; choose 3 of")  # fmt: skip
    refused(game, lambda: game.commit_pass(0, "Qs Qx 2c"), IllegalCardsError, "unknown suit")
    refused(game, lambda: game.commit_discard(0, hand[:2]), WrongPhaseError, "passing cards")
    refused(game, game.check, WrongPhaseError, "cannot check: the seats are passing cards")
    game.commit_pass(0, hand[:3])
    refused(game, lambda: game.commit_pass(0, hand[3:6]), AlreadyCommittedError,
            "seat 0 has already committed its pass .*waiting for seats 1, 2")  # fmt: skip


def test_folded_seat_cannot_commit() -> None:
    game = at_pass(fold_first=True)
    folded = next(s for s in range(3) if game.folded[s])
    refused(game, lambda: game.commit_pass(folded, game.hand(folded)[:3]), SeatFoldedError,
            "has folded")  # fmt: skip


def test_discard_errors() -> None:
    game = at_discard()
    hand = game.hand(1)
    kept = hand[2:]
    refused(game, lambda: game.commit_discard(1, hand[:1], kept), IllegalCardsError,
            "has 1 cards; it needs 2")  # fmt: skip
    refused(game, lambda: game.commit_discard(1, [hand[0], game.hand(0)[0]], kept),
            IllegalCardsError, "not in its hand")  # fmt: skip
    refused(game, lambda: game.commit_discard(1, hand[:2], kept[:4]), IllegalCardsError,
            "must be an ordering of the five kept cards")  # fmt: skip
    refused(game, lambda: game.commit_discard(1, hand[:2], [hand[0], *kept[1:]]),
            IllegalCardsError, "must be an ordering")  # fmt: skip
    refused(game, lambda: game.commit_discard(1, hand[:2], [*kept[:4], kept[0]]),
            IllegalCardsError, "duplicate card")  # fmt: skip
    game.commit_discard(1, hand[:2], kept)
    refused(game, lambda: game.commit_discard(1, hand[2:4]), AlreadyCommittedError,
            "already committed its discard")  # fmt: skip


def test_nothing_after_the_deal() -> None:
    game = Game(Rules(players=2), dealer=0, seed=1)
    game.bet()
    game.fold()
    assert game.phase is Phase.COMPLETE
    refused(game, game.check, GameOverError, "the deal is over")
    refused(game, lambda: game.act(1, "check"), GameOverError, "the deal is over")
    refused(game, lambda: game.commit_pass(1, game.hand(1)[:3]), GameOverError, "over")
    refused(game, lambda: game.commit_discard(1, game.hand(1)[:2]), GameOverError, "over")
    assert issubclass(GameOverError, GameError) and issubclass(GameError, ValueError)


def test_bad_setup() -> None:
    with pytest.raises(ValueError, match="deck has 13 cards; 2 players need at least 14"):
        Game(Rules(players=2), deck=list(range(13)))
    with pytest.raises(ValueError, match="duplicate card"):
        Game(Rules(players=2), deck=[0] * 14)
    with pytest.raises(ValueError, match="dealer=3 is not a seat"):
        Game(Rules(players=2), dealer=3, seed=1)
    with pytest.raises(ValueError, match="either deck or seed"):
        Game(Rules(players=2), deck=list(range(14)), seed=1)
    with pytest.raises(TypeError, match="rules must be a Rules"):
        Game("pagat", seed=1)  # type: ignore[arg-type]
