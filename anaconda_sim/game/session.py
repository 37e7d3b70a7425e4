"""Sessions: many deals at one table, stacks carried over, the button moving.

Decisions (docs/rules.md R4, R6)
---------------------------
* The dealer button moves one seat clockwise after every deal (R6), also
  onto and past seats that sit out.
* A seat whose stack is below ``rules.reserve`` (R4) sits out: it is not
  dealt in, antes nothing and keeps its chips. The deal is played among the
  other seats as a smaller table (``rules.with_players(k)``) whose seat ``i``
  is the ``i``-th seated player in seat order (:attr:`DealRecord.seats`).
  If the button is on a seat that sits out, the deal is dealt as if by the
  nearest seated player to the button's right, so the cards still start with
  the first seated player left of the button.
* The session is over when fewer than two seats can be dealt in.
* Deal ``d`` of a session uses the deck and decision streams ``d`` of the
  session's root key (:func:`anaconda_sim.game.play.play_deal` with
  ``deal_index=d``); a seat's decision stream is that of its seat at the
  smaller table.
* Chips are conserved: the sum of the stacks never changes.

Examples
--------
>>> from anaconda_sim.table.rules import Rules
>>> s = Session(Rules(players=3), ["sensible", "call-down", "random"], stacks=60, seed=1)
>>> records = s.run(5)
>>> sum(s.stacks), [r.dealer for r in records][:3]
(180, [0, 1, 2])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import rng as _rng
from ..errors import GameError
from ..table.rules import Rules
from .engine import Game
from .history import History
from .play import as_player, play_deal

__all__ = ["DealRecord", "Session", "SessionOverError"]


class SessionOverError(GameError):
    """A deal was asked for when fewer than two seats can be dealt in."""


@dataclass(frozen=True)
class DealRecord:
    """One deal of a session.

    ``seats[i]`` is the session seat that sat at seat ``i`` of the deal's
    table; ``net`` and ``stacks`` are per session seat (0 net for seats that
    sat out).
    """

    index: int  #: deal number in the session (also its ``deal_index``)
    dealer: int  #: session seat holding the button
    seats: tuple[int, ...]  #: session seats dealt in, in table order
    sat_out: tuple[int, ...]  #: session seats below the reserve (R4)
    game: Game  #: the finished deal (table seats)
    net: tuple[int, ...]  #: chips won or lost per session seat
    stacks: tuple[int, ...]  #: stacks after the deal

    @property
    def history(self) -> History:
        """The deal's history (in table seats; see :attr:`seats`)."""
        return self.game.history


class Session:
    """A run of deals at one table.

    Parameters
    ----------
    rules
        The rules; ``rules.players`` is the number of seats at the table.
    strategies
        One per seat: built-in names, ``Strategy`` objects or
        :class:`~anaconda_sim.game.play.Player` objects.
    stacks
        Starting chips: one number for every seat or one per seat
        (default: four reserves each, 100 under the default rules).
    seed
        Seed of the session (decks and decisions are reproducible from it).
    dealer
        The seat holding the button for the first deal.
    """

    def __init__(
        self,
        rules: Rules,
        strategies: Sequence[Any],
        stacks: int | Sequence[int] | None = None,
        seed: int | None = None,
        dealer: int = 0,
    ) -> None:
        n = rules.players
        self.players = [as_player(s) for s in strategies]
        if len(self.players) != n:
            raise ValueError(f"{len(self.players)} strategies for {n} seats; give one per seat")
        if stacks is None:
            stacks = 4 * rules.reserve
        if isinstance(stacks, (int, np.integer)):
            stacks = [int(stacks)] * n
        stacks = [int(s) for s in stacks]
        if len(stacks) != n:
            raise ValueError(f"{len(stacks)} stacks for {n} seats; give one per seat")
        if any(s < 0 for s in stacks):
            raise ValueError(f"stacks={stacks} has a negative stack")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer={dealer} is not a seat; seats are 0..{n - 1}")
        self.rules = rules
        self.key = _rng.root_key(seed)
        self._stacks = stacks
        self._dealer = int(dealer)
        self.deals: list[DealRecord] = []

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips of every seat now."""
        return tuple(self._stacks)

    @property
    def dealer(self) -> int:
        """The seat holding the button for the next deal."""
        return self._dealer

    def seated(self) -> tuple[int, ...]:
        """Seats that can be dealt in now (stack at least the reserve, R4)."""
        return tuple(s for s, chips in enumerate(self._stacks) if chips >= self.rules.reserve)

    @property
    def is_over(self) -> bool:
        """Whether fewer than two seats can be dealt in."""
        return len(self.seated()) < 2

    def play_deal(self) -> DealRecord:
        """Play the next deal and return its record.

        Raises
        ------
        SessionOverError
            Fewer than two seats have the reserve (R4).
        """
        seats = self.seated()
        n = self.rules.players
        if len(seats) < 2:
            raise SessionOverError(
                f"the session is over: only {len(seats)} seat(s) have the reserve of "
                f"{self.rules.reserve} chips (stacks {list(self._stacks)})"
            )
        button = self._dealer
        table_dealer = next(
            seats.index(s) for s in ((button - i) % n for i in range(n)) if s in seats
        )
        index = len(self.deals)
        game = play_deal(
            self.rules.with_players(len(seats)),
            [self.players[s] for s in seats],
            key=self.key,
            deal_index=index,
            dealer=table_dealer,
        )
        assert game.result is not None
        net = [0] * n
        for table_seat, seat in enumerate(seats):
            net[seat] = game.result.net[table_seat]
            self._stacks[seat] += net[seat]
        record = DealRecord(
            index=index,
            dealer=button,
            seats=seats,
            sat_out=tuple(s for s in range(n) if s not in seats),
            game=game,
            net=tuple(net),
            stacks=self.stacks,
        )
        self.deals.append(record)
        self._dealer = (button + 1) % n  # R6
        return record

    def run(self, deals: int) -> list[DealRecord]:
        """Play up to ``deals`` deals, stopping early when the session is over."""
        played = []
        for _ in range(deals):
            if self.is_over:
                break
            played.append(self.play_deal())
        return played

    def __repr__(self) -> str:
        return (
            f"Session({self.rules.name}, players={self.rules.players}, deals={len(self.deals)}, "
            f"stacks={list(self._stacks)})"
        )
