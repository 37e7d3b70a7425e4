"""The field a spot is valued under: the strategy of every seat, and where it came from.

A history records who played (:attr:`~anaconda_sim.game.History.strategies`).
:func:`resolve_field` reads the strategies of a spot from it unless
``opponents`` are given, and says which it did:

``"recorded"``
    No ``opponents`` given and the history records who played: every rival
    plays its recorded strategy, the deciding seat (after this decision) its
    own, unless ``hero`` is given.
``"given"``
    ``opponents`` given: they are used whatever the history records;
    :attr:`Field.is_recorded` says whether they are the recorded ones.
``"assumed"``
    No ``opponents`` given and the history does not record who played (a
    history saved before it was recorded, or moves made by hand on a
    :class:`~anaconda_sim.game.Game`): :data:`ASSUMED` is assumed for every
    seat, and the tables and the shell say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..strategies.spec import Strategy, get_strategy, short_spec
from .state import Spot

__all__ = ["ASSUMED", "Field", "field_strategies", "resolve_field", "short_text"]

#: the strategy assumed for every seat of a history that does not record who played
ASSUMED = "learned"


@dataclass(frozen=True)
class Field:
    """The strategies a spot is valued under.

    Attributes
    ----------
    strategies
        One per seat; the deciding seat's is what it plays after the decision.
    source
        ``"recorded"``, ``"given"`` or ``"assumed"`` (module docstring).
    recorded
        The specs the history records, one per seat, or ``None``.
    """

    strategies: tuple[Strategy, ...]
    source: str
    recorded: tuple[str, ...] | None
    seat: int

    @property
    def is_recorded(self) -> bool | None:
        """Whether every rival plays the strategy the history records for it
        (``None``: the history records none)."""
        if self.recorded is None:
            return None
        return all(_same(self.strategies[s], spec) for s, spec in enumerate(self.recorded)
                   if s != self.seat)  # fmt: skip

    def attrs(self) -> dict[str, Any]:
        """The field as a table's ``attrs`` record it: ``field`` (its source),
        ``field_is_recorded`` and ``recorded_strategies``."""
        return {
            "field": self.source,
            "field_is_recorded": self.is_recorded,
            "recorded_strategies": None if self.recorded is None else list(self.recorded),
        }

    def describe(self) -> str:
        """Where the opponents' strategies came from, for a header.

        Examples
        --------
        >>> from anaconda_sim.game import play_deal
        >>> from anaconda_sim.spots import spot_of
        >>> from anaconda_sim.table.rules import Rules
        >>> h = play_deal(Rules(players=3), ["sensible"] * 3, seed=1).history
        >>> resolve_field(spot_of(h, move=2), None, None).describe()
        'recorded in the history'
        >>> resolve_field(spot_of(h, move=2), "learned", None).describe()
        'given; the history records sensible'
        """
        if self.source == "recorded":
            return "recorded in the history"
        if self.source == "assumed":
            return "assumed: the history does not record who played (give opponents to choose)"
        if self.recorded is None:
            return "given; the history does not record who played"
        if self.is_recorded:
            return "given, the ones the history records"
        rivals = [spec for s, spec in enumerate(self.recorded) if s != self.seat]
        return f"given; the history records {', '.join(dict.fromkeys(map(short_text, rivals)))}"


def short_text(spec: str) -> str:
    """``spec`` with only the parameters that differ from the defaults
    (:func:`~anaconda_sim.strategies.short_spec`), or as it is when it is
    not a built-in the library can read (``"human"``, a user's strategy)."""
    try:
        return short_spec(spec)
    except (TypeError, ValueError):
        return spec


def _same(strategy: Strategy, spec: str) -> bool:
    try:
        return get_strategy(spec) == strategy
    except (TypeError, ValueError):
        return False


def field_strategies(spot: Spot, opponents: Any, hero: Any) -> list[Strategy]:
    """One strategy per seat: ``hero`` at the spot's seat, ``opponents``
    elsewhere (a name, a Strategy, or one per seat)."""
    n = spot.players
    if isinstance(opponents, (str, Strategy)):
        seats = [get_strategy(opponents)] * n
    else:
        items = list(opponents)
        if len(items) != n:
            raise ValueError(
                f"{len(items)} opponents given for {n} seats; give one strategy, or one per "
                f"seat (the entry of seat {spot.seat} is ignored)"
            )
        seats = [get_strategy(s) for s in items]
    seats[spot.seat] = get_strategy(hero) if hero is not None else seats[(spot.seat + 1) % n]
    return seats


def _recorded_strategies(spot: Spot, recorded: tuple[str, ...], hero: Any) -> list[Strategy]:
    """The recorded strategies, each rebuilt; a rival's that cannot be rebuilt
    (a person, a user's strategy, a learned table of its own) is an error
    asking for ``opponents``."""
    seats: list[Strategy | None] = []
    for s, spec in enumerate(recorded):
        try:
            seats.append(get_strategy(spec))
        except (TypeError, ValueError):
            if s != spot.seat:
                raise ValueError(
                    f"seat {s} was played by {spec!r}, which the history records but the "
                    "library cannot rebuild; give opponents= (--opponents in the shell: one "
                    "strategy, or one per seat) to say what to assume for it"
                ) from None
            seats.append(None)
    own = seats[spot.seat]
    if hero is not None:
        own = get_strategy(hero)
    elif own is None:  # a person decided here: it plays on as the next seat
        own = seats[(spot.seat + 1) % spot.players]
    seats[spot.seat] = own
    return [s for s in seats if s is not None]


def resolve_field(spot: Spot, opponents: Any, hero: Any) -> Field:
    """The field of ``spot``: ``opponents`` when given, else the strategies
    its history records, else :data:`ASSUMED` (module docstring).

    Raises
    ------
    ValueError
        ``opponents`` not given and a rival's recorded strategy cannot be
        rebuilt (a person, a user's strategy); ``opponents`` of the wrong
        length.
    """
    recorded = spot.recorded
    if opponents is None and recorded is not None:
        return Field(tuple(_recorded_strategies(spot, recorded, hero)), "recorded", recorded,
                     spot.seat)  # fmt: skip
    if opponents is None:
        return Field(tuple(field_strategies(spot, ASSUMED, hero)), "assumed", None, spot.seat)
    return Field(tuple(field_strategies(spot, opponents, hero)), "given", recorded, spot.seat)
