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
from ..checks import check_int
from ..errors import GameError
from ..table.rules import Rules
from .engine import Game
from .history import History
from .play import as_players, play_deal

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
        Every deal's history records it, the seats' strategies and the
        session's root key (deal ``d`` is ``deal_index`` ``d`` of that key).
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
        if not isinstance(rules, Rules):
            raise TypeError(
                f"rules={rules!r} must be a Rules object, not {type(rules).__name__}; "
                "give e.g. Rules(players=6)"
            )
        n = rules.players
        self.players = as_players(strategies, n)
        self._stacks = _check_stacks(4 * rules.reserve if stacks is None else stacks, n)
        dealer = check_int(dealer, "dealer", low=0, high=n - 1, why=f"seats are 0..{n - 1}")
        self.rules = rules
        self.key = _rng.root_key(seed)
        self.seed = seed
        self._dealer = dealer
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
        # deal d of the session is deal d of the session's seed (play_deal saw the key only)
        if isinstance(self.seed, (int, np.integer)) and not isinstance(self.seed, bool):
            game.history.seed = int(self.seed)
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
        """Play up to ``deals`` deals, stopping early when the session is over.

        Examples
        --------
        >>> from anaconda_sim.table.rules import Rules
        >>> Session(Rules(players=2), ["sensible"] * 2, seed=1).run(-1)
        Traceback (most recent call last):
        ...
        ValueError: deals=-1 is too small; give deals >= 0
        """
        deals = check_int(deals, "deals", low=0)
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


def _check_stacks(stacks: Any, n: int) -> list[int]:
    """Starting chips, one number for every seat or one per seat, each an int >= 0."""
    if isinstance(stacks, np.ndarray):
        stacks = stacks.tolist()
    if isinstance(stacks, (str, bytes)) or not (
        isinstance(stacks, Sequence) or hasattr(type(stacks), "__index__")
    ):
        raise TypeError(
            f"stacks={stacks!r} must be an int (chips of every seat) or a list of {n} ints, "
            "one per seat"
        )
    if not isinstance(stacks, Sequence):
        return [check_int(stacks, "stacks", low=0)] * n
    if len(stacks) != n:
        raise ValueError(f"{len(stacks)} stacks for {n} seats; give one per seat")
    return [check_int(chips, f"stacks[{seat}]", low=0) for seat, chips in enumerate(stacks)]
