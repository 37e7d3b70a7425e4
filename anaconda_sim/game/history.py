"""Hand histories: every event of a deal, as JSON and as readable text.

A :class:`History` is the deal's setup (rules, dealer, the deck, the deal
index) plus the list of events in the order they happened. Events are plain
dicts with a ``"type"`` key, so a history is JSON as it stands:

``deal``            ``dealer``, ``deck`` (the cards dealt, in deal order), ``hands``
``ante``            ``seat``, ``amount``
``round``           a betting round starts: ``round``, ``stage``, ``opener``, ``pot``
``action``          ``round``, ``seat``, ``action`` (name), ``amount``, ``pot``
``round_end``       ``round``, ``pot``
``pass_commit``     ``pass``, ``seat``, ``cards`` (in the order listed)
``pass``            the packets move at once: ``pass``, ``moves`` = [from, to, cards]...
``discard_commit``  ``seat``, ``discard``, ``order`` (the kept five in reveal order)
``discard``         every seat has committed; the kept fives are fixed
``reveal``          ``reveal`` (1..4), ``cards`` = [[seat, card], ...]
``showdown``        ``hands`` = [[seat, cards, value, description], ...]
``award``           ``seat``, ``amount``
``end``             ``reason`` (``"showdown"`` or ``"folds"``), ``net`` per seat

Only ``action``, ``pass_commit`` and ``discard_commit`` are moves; the rest
follow from them and the deck, which is what :func:`anaconda_sim.game.engine.replay`
uses to rebuild a game.

Examples
--------
>>> from anaconda_sim.game.rules import Rules
>>> h = History(Rules(players=2), dealer=1, deck=tuple(range(14)), deal_index=0)
>>> History.from_json(h.to_json()) == h
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..cards import format_card, format_cards
from .rules import Rules

__all__ = ["MOVE_TYPES", "History", "format_history"]

#: Event types that are moves (inputs); every other event is a consequence.
MOVE_TYPES = ("action", "pass_commit", "discard_commit")


@dataclass
class History:
    """The record of one deal.

    Parameters
    ----------
    rules
        The rules the deal was played under.
    dealer
        The dealer seat.
    deck
        The shuffled deck as given to the game (at least ``7 * players``
        cards; the first ``7 * players`` are dealt, R5).
    deal_index
        Index of the deal in its run (selects the random streams).
    events
        The events, in order (see the module docstring).
    """

    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    deal_index: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "deck": list(self.deck),
            "deal_index": self.deal_index,
            "events": [dict(e) for e in self.events],
        }

    def to_json(self, indent: int | None = None) -> str:
        """The history as a JSON string (inverse: :meth:`from_json`)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> History:
        """A history from :meth:`to_dict` output."""
        return cls(
            rules=Rules.from_dict(data["rules"]),
            dealer=int(data["dealer"]),
            deck=tuple(int(c) for c in data["deck"]),
            deal_index=int(data.get("deal_index", 0)),
            events=[_normalise(e) for e in data["events"]],
        )

    @classmethod
    def from_json(cls, text: str) -> History:
        """A history from :meth:`to_json` output."""
        return cls.from_dict(json.loads(text))

    def moves(self) -> list[dict[str, Any]]:
        """The events that are moves (actions, pass and discard commits), in order."""
        return [e for e in self.events if e["type"] in MOVE_TYPES]

    def format(self) -> str:
        """Readable text; see :func:`format_history`."""
        return format_history(self)


def _normalise(event: dict[str, Any]) -> dict[str, Any]:
    """JSON turns tuples into lists; the engine records lists, so nothing to do
    but copy (kept as a function so the format has one place to evolve)."""
    return json.loads(json.dumps(event))


def _cards(cards: list[int]) -> str:
    return format_cards(cards, unicode=True) if cards else "-"


def format_history(history: History) -> str:
    """A readable hand history with Unicode suits.

    Shows the setup, every betting round with the pot, the exposed cards and
    each action, the passes (who passed what to whom), the discards, the
    showdown and the chips won and lost.

    Examples
    --------
    >>> from anaconda_sim.game.engine import Game
    >>> from anaconda_sim.game.rules import Rules
    >>> g = Game(Rules(players=2), dealer=0, deck=list(range(14)))
    >>> g.bet(); g.fold()
    >>> print(format_history(g.history))
    Anaconda (pagat), 2 players, dealer seat 0, deal 0
    Seat 0: 2♦ 2♠ 3♦ 3♠ 4♦ 4♠ 5♦
    Seat 1: 2♣ 2♥ 3♣ 3♥ 4♣ 4♥ 5♣
    Antes: 1 each, pot 2
    -- Betting round 1 (before the pass), pot 2, seat 1 opens
    seat 1 bets, puts in 1, pot 3
    seat 0 folds
    Seat 1 wins 3 (everyone else folded)
    Net: seat 0 -1, seat 1 +1
    """
    rules = history.rules
    lines = [
        f"Anaconda ({rules.name}), {rules.players} players, dealer seat {history.dealer}, "
        f"deal {history.deal_index}"
    ]
    exposed: dict[int, list[int]] = {}
    previous = ""
    for event in history.events:
        kind = event["type"]
        if kind == "discard_commit" and previous != "discard_commit":
            lines.append("-- Discard" + (" and order" if rules.progressive_reveal else ""))
        previous = kind
        if kind == "deal":
            for seat, hand in enumerate(event["hands"]):
                lines.append(f"Seat {seat}: {_cards(hand)}")
        elif kind == "round":
            stage = _stage_text(event["stage"], rules)
            if event["round"] == 0:
                lines.append(f"Antes: {rules.ante} each, pot {event['pot']}")
            lines.append(
                f"-- Betting round {event['round'] + 1} ({stage}), pot {event['pot']}, "
                f"seat {event['opener']} opens"
            )
            if exposed:
                for seat in sorted(exposed):
                    lines.append(f"   seat {seat} shows {_cards(exposed[seat])}")
        elif kind == "action":
            verb = {"fold": "folds", "check": "checks", "call": "calls", "bet": "bets",
                    "raise": "raises"}[event["action"]]  # fmt: skip
            line = f"seat {event['seat']} {verb}"
            if event["amount"]:
                line += f", puts in {event['amount']}, pot {event['pot']}"
            lines.append(line)
        elif kind == "pass":
            count = len(event["moves"][0][2]) if event["moves"] else 0
            lines.append(f"-- Pass {event['pass'] + 1}: {count} card(s)")
            for src, dst, cards in event["moves"]:
                lines.append(f"seat {src} passes {_cards(cards)} to seat {dst}")
        elif kind == "discard_commit":
            lines.append(
                f"seat {event['seat']} discards {_cards(event['discard'])}, "
                f"reveal order {_cards(event['order'])}"
            )
        elif kind == "reveal":
            for seat, card in event["cards"]:
                exposed.setdefault(seat, []).append(card)
            shown = ", ".join(
                f"seat {seat} {format_card(card, unicode=True)}" for seat, card in event["cards"]
            )
            lines.append(f"-- Reveal {event['reveal']}: {shown}")
        elif kind == "showdown":
            lines.append("-- Showdown")
            for seat, cards, _value, text in event["hands"]:
                lines.append(f"seat {seat}: {_cards(cards)} ({text})")
        elif kind == "award":
            reason = event.get("reason", "")
            suffix = " (everyone else folded)" if reason == "folds" else ""
            lines.append(f"Seat {event['seat']} wins {event['amount']}{suffix}")
        elif kind == "end":
            net = ", ".join(f"seat {s} {n:+d}" for s, n in enumerate(event["net"]))
            lines.append(f"Net: {net}")
    return "\n".join(lines)


def _stage_text(stage: int, rules: Rules) -> str:
    from .views import STAGE_REVEAL

    if stage >= STAGE_REVEAL:
        return f"after reveal {stage - STAGE_REVEAL}"
    if stage == 0:
        return "before the pass" if len(rules.passes) == 1 else "before the passes"
    if len(rules.passes) == 1:
        return "after the pass"
    return f"after pass {stage}"
