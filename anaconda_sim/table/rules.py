"""Rule sets: table size, stakes, betting cap, pass schedule, discard and reveals.

:class:`Rules` is a frozen value object; every engine (the reference
:mod:`anaconda_sim.game.engine` and the batch simulator) reads the game's shape
from it and from nothing else. The default is the variant of ``docs/rules.md``
(:data:`PAGAT`); Bicycle's Anaconda (:meth:`Rules.bicycle`, docs/rules.md,
"Other versions") and hi-lo with declarations (:meth:`Rules.hilo`, R21-R26)
are explicitly chosen alternatives.

Examples
--------
>>> PAGAT.betting_rounds, PAGAT.passes
(6, ((3, 1),))
>>> Rules.bicycle().betting_rounds
4
>>> Rules(players=8)
Traceback (most recent call last):
...
ValueError: players=8 is not allowed; Anaconda is played by 2 to 7 players (R2)
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass
from typing import Any

from ..limits import DECK_SIZE, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from . import views as V

__all__ = ["BICYCLE", "HILO", "PAGAT", "REVEAL_ROUNDS", "SHOWDOWNS", "Rules"]

#: Betting rounds that follow reveals 1-4 (the fifth card has no betting, R10).
REVEAL_ROUNDS = 4
#: The showdowns: ``"high"`` (R18-R20, the default) and ``"hi-lo"`` (declarations, R21-R26).
SHOWDOWNS = ("high", "hi-lo")


@dataclass(frozen=True)
class Rules:
    """The rules of one Anaconda game.

    Parameters
    ----------
    players
        Seats at the table, 2..7 (R2).
    ante
        Chips each seat puts in before the deal (R3).
    bet
        Size of a bet and of a raise (limit betting, R3).
    max_raises
        Raises allowed after the bet in one round; the cap is one bet plus
        ``max_raises`` raises (R3: 3).
    reserve
        Chips a seat needs to be dealt in (R4). Must cover the ante plus the
        most a seat can put in over all betting rounds, so no seat is ever
        all-in.
    passes
        The pass schedule: one ``(cards, direction)`` per pass, ``cards`` in
        1..3, ``direction`` ``+1`` (to the left: the next active seat
        clockwise) or ``-1`` (to the right). Each pass is followed by a
        betting round (R7).
    discard
        Whether each seat discards two and keeps five after the passes (R8);
        the kept five are then the showdown hand. Without a discard the
        showdown hand is the best five of the seven held.
    progressive_reveal
        Whether the kept five are turned up one at a time with a betting
        round after each of the first four (R9). Needs ``discard``.
    showdown
        ``"high"`` (the default: the best high hand takes the pot, R18-R20)
        or ``"hi-lo"``: after the last betting round every active seat
        declares high, low or both in secret (R22), and the pot splits
        between the best high and the best ace-to-five low among the
        declarers (R23-R26).
    name
        A label (``"pagat"``, ``"bicycle"``, ``"hi-lo"``...), shown in hand
        histories.

    Notes
    -----
    Betting rounds: one after the deal, one after each pass, and one after
    each of the first four reveals when ``progressive_reveal`` is on
    (:attr:`betting_rounds`; 6 for the default rules).

    Examples
    --------
    >>> Rules(players=4).with_players(7).players
    7
    >>> Rules(passes=((4, 1),))
    Traceback (most recent call last):
    ...
    ValueError: pass 1 of passes=((4, 1),) moves 4 cards; a pass moves 1 to 3 cards
    >>> Rules(reserve=20)
    Traceback (most recent call last):
    ...
    ValueError: reserve=20 is too small: a seat can put in up to 25 chips (ante 1 + 6 rounds ...
    """

    players: int = 6
    ante: int = 1
    bet: int = 1
    max_raises: int = 3
    reserve: int = 25
    passes: tuple[tuple[int, int], ...] = ((3, +1),)
    discard: bool = True
    progressive_reveal: bool = True
    name: str = "pagat"
    showdown: str = "high"

    def __post_init__(self) -> None:
        for label in ("players", "ante", "bet", "max_raises", "reserve"):
            value = getattr(self, label)
            try:
                if isinstance(value, bool):
                    raise TypeError
                object.__setattr__(self, label, operator.index(value))
            except TypeError:
                raise TypeError(f"{label}={value!r} must be an int") from None
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(
                f"players={self.players} is not allowed; Anaconda is played by "
                f"{MIN_PLAYERS} to {MAX_PLAYERS} players (R2)"
            )
        if HAND_SIZE * self.players > DECK_SIZE:  # pragma: no cover - implied by MAX_PLAYERS
            raise ValueError(
                f"players={self.players} needs {HAND_SIZE * self.players} cards; "
                f"{DECK_SIZE} exist"
            )
        if self.ante <= 0:
            raise ValueError(f"ante={self.ante} must be positive (R3)")
        if self.bet <= 0:
            raise ValueError(f"bet={self.bet} must be positive (R3)")
        if self.max_raises < 0:
            raise ValueError(f"max_raises={self.max_raises} must be 0 or more (R3)")
        passes = tuple(tuple(p) for p in self.passes)
        object.__setattr__(self, "passes", passes)
        for i, entry in enumerate(passes, start=1):
            if len(entry) != 2:
                raise ValueError(
                    f"pass {i} of passes={passes!r} is {entry!r}; give (cards, direction)"
                )
            count, direction = entry
            if (
                isinstance(count, bool)
                or not hasattr(count, "__index__")
                or not 1 <= operator.index(count) <= 3
            ):
                raise ValueError(
                    f"pass {i} of passes={passes!r} moves {count!r} cards; "
                    "a pass moves 1 to 3 cards"
                )
            if direction not in (1, -1) or isinstance(direction, bool):
                raise ValueError(
                    f"pass {i} of passes={passes!r} has direction {direction!r}; "
                    "use +1 (to the left) or -1 (to the right)"
                )
        passes = tuple((operator.index(c), int(d)) for c, d in passes)
        object.__setattr__(self, "passes", passes)
        total = sum(count for count, _ in passes)
        if total > 6:
            raise ValueError(
                f"passes={passes!r} pass {total} cards in all; at most 6 fit a seat's view"
            )
        if self.showdown not in SHOWDOWNS:
            raise ValueError(
                f"showdown={self.showdown!r} is not a showdown; use 'high' (the default) or "
                "'hi-lo' (declarations, R21-R26)"
            )
        if self.progressive_reveal and not self.discard:
            raise ValueError(
                "progressive_reveal=True needs discard=True: the revealed cards are the kept five"
            )
        most = self.ante + self.betting_rounds * self.max_level * self.bet
        if self.reserve < most:
            raise ValueError(
                f"reserve={self.reserve} is too small: a seat can put in up to {most} chips "
                f"(ante {self.ante} + {self.betting_rounds} rounds x {self.max_level} "
                f"x {self.bet}); R4"
            )
        actions = self.betting_rounds * (self.players + self.max_level * (self.players - 1))
        if actions > V.LOG_CAPACITY:
            raise ValueError(
                f"max_raises={self.max_raises} allows up to {actions} betting actions in a "
                f"deal; the betting log holds {V.LOG_CAPACITY}"
            )

    # ------------------------------------------------------------ derived --
    @property
    def betting_rounds(self) -> int:
        """Betting rounds in a deal that goes to the showdown.

        Examples
        --------
        >>> Rules().betting_rounds, Rules(progressive_reveal=False).betting_rounds
        (6, 2)
        """
        return 1 + len(self.passes) + (REVEAL_ROUNDS if self.progressive_reveal else 0)

    @property
    def max_level(self) -> int:
        """Bets plus raises allowed in one round (the cap of R3: 4 by default)."""
        return 1 + self.max_raises

    @property
    def cards_used(self) -> int:
        """Cards dealt: seven per seat (R5)."""
        return 7 * self.players

    # ------------------------------------------------------------ presets --
    @classmethod
    def pagat(cls, players: int = 6) -> Rules:
        """The variant of ``docs/rules.md`` (the default): one pass of three to the left,
        discard two, reveal four of the kept five with a betting round after each.

        Examples
        --------
        >>> Rules.pagat(4) == Rules(players=4)
        True
        """
        return cls(players=players)

    @classmethod
    def bicycle(cls, players: int = 6) -> Rules:
        """Bicycle's Anaconda (docs/rules.md, "Other versions").

        Pass three to the left, then two to the right, then one to the left;
        a betting round after the deal and after each pass (4 rounds); no
        discard and no progressive reveal: the showdown hand is the best five
        of the seven cards held.

        Examples
        --------
        >>> r = Rules.bicycle(5)
        >>> r.passes, r.discard, r.progressive_reveal, r.betting_rounds
        (((3, 1), (2, -1), (1, 1)), False, False, 4)
        """
        return cls(
            players=players,
            passes=((3, +1), (2, -1), (1, +1)),
            discard=False,
            progressive_reveal=False,
            name="bicycle",
        )

    @classmethod
    def hilo(cls, players: int = 6) -> Rules:
        """Hi-lo with declarations (docs/rules.md R21-R26), never the default.

        The deal and play of the default variant (R21); after the betting of
        reveal round 4 every active seat declares high, low or both at once
        and in secret (R22); the high half of the pot goes to the best high
        hand among the high and both declarers, the low half to the best
        ace-to-five low among the low and both declarers (R23-R25).

        Examples
        --------
        >>> r = Rules.hilo(4)
        >>> r.showdown, r.name, r.betting_rounds
        ('hi-lo', 'hi-lo', 6)
        >>> r == Rules(players=4, showdown="hi-lo", name="hi-lo")
        True
        >>> Rules(showdown="low")
        Traceback (most recent call last):
        ...
        ValueError: showdown='low' is not a showdown; use 'high' (the default) or 'hi-lo' ...
        """
        return cls(players=players, showdown="hi-lo", name="hi-lo")

    @property
    def hilo_showdown(self) -> bool:
        """Whether the showdown is hi-lo with declarations (R21-R26)."""
        return self.showdown == "hi-lo"

    def with_players(self, players: int) -> Rules:
        """The same rules for another table size.

        Examples
        --------
        >>> Rules.bicycle().with_players(3).name
        'bicycle'
        """
        return dataclasses.replace(self, players=players)

    # ------------------------------------------------------ serialisation --
    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (inverse: :meth:`from_dict`).

        ``showdown`` is written only when it is not the default ``"high"``, so
        high-only rules give exactly the dict (and hand histories) they gave
        before the hi-lo rules existed.

        Examples
        --------
        >>> Rules.from_dict(Rules.bicycle(3).to_dict()) == Rules.bicycle(3)
        True
        """
        data = dataclasses.asdict(self)
        data["passes"] = [list(p) for p in self.passes]
        if self.showdown == "high":
            del data["showdown"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output."""
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - fields
        if unknown:
            raise ValueError(
                f"unknown rules field {sorted(unknown)[0]!r}; fields are {sorted(fields)}"
            )
        data = dict(data)
        if "passes" in data:
            data["passes"] = tuple(tuple(p) for p in data["passes"])
        return cls(**data)


#: The default rules (docs/rules.md), six players.
PAGAT = Rules.pagat()
#: Bicycle's Anaconda, six players.
BICYCLE = Rules.bicycle()
#: Hi-lo with declarations (R21-R26), six players.
HILO = Rules.hilo()
