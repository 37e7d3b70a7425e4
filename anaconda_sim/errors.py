"""The exceptions of the game engine: one family, one class per kind of mistake.

Every illegal move raises a subclass of :class:`GameError` (itself a
``ValueError``) whose message says what was wrong and what is legal now.
The engine validates a move completely before it changes anything, so after
any ``GameError`` the game is exactly as it was.

Examples
--------
>>> issubclass(OutOfTurnError, GameError) and issubclass(GameError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "AlreadyCommittedError",
    "GameError",
    "GameOverError",
    "IllegalActionError",
    "IllegalCardsError",
    "InvalidSeatError",
    "OutOfTurnError",
    "SeatFoldedError",
    "WrongPhaseError",
]


class GameError(ValueError):
    """An illegal move or request; the game state is unchanged."""


class InvalidSeatError(GameError):
    """A seat number that is not at the table."""


class WrongPhaseError(GameError):
    """A move of another phase (e.g. a bet while cards are being passed)."""


class GameOverError(WrongPhaseError):
    """Any move after the deal has ended."""


class OutOfTurnError(GameError):
    """A betting action by a seat that is not to act."""


class IllegalActionError(GameError):
    """A betting action that the rules do not allow now (R13, R3 cap)."""


class IllegalCardsError(GameError):
    """Cards that cannot be passed or discarded (not held, wrong count, repeated...)."""


class AlreadyCommittedError(GameError):
    """A second pass or discard commit by the same seat."""


class SeatFoldedError(GameError):
    """A move by a seat that has folded (R16)."""
