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
``pass``            the packets move at once: ``pass``, ``count``, ``direction``,
                    ``moves`` = [from, to, cards]...
``discard_commit``  ``seat``, ``discard``, ``order`` (the kept five in reveal order)
``discard``         every seat has committed; the kept fives are fixed
``reveal``          ``reveal`` (1..4), ``cards`` = [[seat, card], ...]
``showdown``        ``hands`` = [[seat, cards, value, description], ...]
``award``           ``seat``, ``amount``, ``reason``
``end``             ``reason`` (``"showdown"`` or ``"folds"``), ``net`` per seat

Under the hi-lo rules (R21-R26) four more event types appear:

``declare_commit``  ``seat``, ``declaration`` (``"high"``, ``"low"`` or ``"both"``)
``declare``         every seat has declared; the declarations are revealed:
                    ``declarations`` = [[seat, declaration], ...]
``low_showdown``    after ``showdown``: ``hands`` = [[seat, low value, description], ...]
``split``           ``high`` and ``low`` (chips of each half), ``failed`` (seats that
                    declared both and won nothing, R24)

and an ``award``'s ``reason`` is ``"high"``, ``"low"`` or ``"high and low"``.

Only ``action``, ``pass_commit``, ``discard_commit`` and ``declare_commit``
are moves; the rest
follow from them and the deck, which is what :func:`anaconda_sim.game.replayer.replay`
uses to rebuild a game.

Numbering
---------
In the JSON, ``round`` (betting round) and ``pass`` are 0-based indices, as
the engine counts them; ``reveal`` counts the cards turned up so far (1..4),
and ``stage`` is the code of :data:`anaconda_sim.table.views.STAGE_REVEAL`.
Text for people (:func:`format_history`, the terminal game) always counts
from 1: betting rounds 1..N, passes 1..P, reveals 1..4.

The model
---------
A history also records who played and how the deal was seeded, so that a
spot of it can be valued under the strategies that made it
(:func:`anaconda_sim.spots.action_values` uses them by default):
``strategies``, one spec per seat (``"sensible:bluff=0.1,..."`` with every
parameter at full precision, :func:`strategy_record`; ``"human"`` for a seat
played at the terminal), or ``None`` when the moves were made by hand on a
:class:`~anaconda_sim.game.engine.Game`; ``seed``, the integer seed of the
run (``None`` when it was seeded by fresh entropy or a key); ``key``, the
run's root key (:func:`anaconda_sim.rng.root_key`), from which the deck and
every seat's random stream of deal ``deal_index`` follow, or ``None`` when
the deck was given. :meth:`History.model_text` says all of it in one line.

File format
-----------
:meth:`History.to_dict` writes ``"format": FORMAT_VERSION`` (now 2) first.
Reading (:meth:`History.from_dict`, :meth:`History.from_json`,
:meth:`History.load`) checks the version, every key and its type, the cards
(0..51, none dealt twice) and the seat numbers, and raises
:class:`HistoryFormatError` (a ``ValueError``) naming what is wrong; it never
lets a bare ``KeyError`` or ``TypeError`` out. Format 2 is format 1 plus the
model's three keys ``strategies``, ``seed`` and ``key``; format 1 histories
(written before the model was recorded) still read, with the three set to
``None`` (who played is then unknown: a spot of one says the strategies it
assumes). Histories written before the ``"format"`` key existed have exactly
the layout of format 1, so a history without the key is read as format 1;
any other version is refused. The hi-lo rules extend the format without
changing it: their histories add the event types above and the rules key
``showdown``, which high-only rules never write (:meth:`Rules.to_dict`), so
every history written before reads as it did.
Reading checks the layout only; :func:`anaconda_sim.game.replayer.verify` (and
:func:`~anaconda_sim.game.replayer.load_history`, which reads and verifies)
also replays the deal, raising :class:`ReplayMismatchError` when a recorded
move is illegal or an event (a hand dealt, a pot, the final result...)
differs from the replay.

Examples
--------
>>> from anaconda_sim.table.rules import Rules
>>> h = History(Rules(players=2), dealer=1, deck=tuple(range(14)), deal_index=0)
>>> History.from_json(h.to_json()) == h
True
>>> History.from_json('{"format": 3}')
Traceback (most recent call last):
...
anaconda_sim.game.history.HistoryFormatError: history format 3 is not supported: ...
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import format_card, format_cards
from ..limits import DECK_SIZE, HAND_SIZE, MAX_DEAL_INDEX
from ..table import views as V
from ..table.rules import Rules

__all__ = [
    "FORMAT_VERSION",
    "MOVE_TYPES",
    "History",
    "HistoryError",
    "HistoryFormatError",
    "ReplayMismatchError",
    "describe_stage",
    "format_history",
    "strategy_record",
]

#: Version of the JSON layout written by :meth:`History.to_dict`.
FORMAT_VERSION = 2
#: Versions :meth:`History.from_dict` reads (1: before the model was recorded).
READ_VERSIONS = (1, 2)
#: The strategy recorded for a seat a person played at the terminal.
PERSON = "human"


#: Event types that are moves (inputs); every other event is a consequence.
MOVE_TYPES = ("action", "pass_commit", "discard_commit", "declare_commit")


class HistoryError(ValueError):
    """A hand history that cannot be used (base of the two errors below)."""


class HistoryFormatError(HistoryError):
    """A history whose JSON is not format :data:`FORMAT_VERSION`: a key missing,
    a value of the wrong type or out of range, a card dealt twice..."""


class ReplayMismatchError(HistoryError):
    """A history whose moves do not replay to its events (an illegal move, or a
    dealt hand, pot or result that differs from the replay)."""


def _fail(where: str, problem: str) -> HistoryFormatError:
    return HistoryFormatError(f"{where} {problem}")


def _as_int(value: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int in ``lo..hi``, or a :class:`HistoryFormatError` naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"must be an integer, not {type(value).__name__} ({value!r})")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f"{lo} or more"
        raise _fail(where, f"is {value}; it must be {bounds}")
    return value


def _as_list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, not {type(value).__name__} ({value!r})")
    if length is not None and len(value) != length:
        raise _fail(where, f"has {len(value)} entries; it must have {length}")
    return value


def _as_str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(where, f"must be a string, not {type(value).__name__} ({value!r})")
    return value


def _as_cards(value: Any, where: str) -> list[int]:
    """A list of distinct card indices 0..51."""
    cards = [_as_int(c, f"{where}[{i}]", 0, 51) for i, c in enumerate(_as_list(value, where))]
    _no_card_twice(cards, where)
    return cards


def _no_card_twice(cards: list[int], where: str) -> None:
    seen: dict[int, int] = {}
    for i, card in enumerate(cards):
        if card in seen:
            raise _fail(
                where,
                f"has the card {format_card(card)} ({card}) twice, at positions {seen[card]} "
                f"and {i}; every card of a deck is distinct (R1)",
            )
        seen[card] = i


# --- checkers of event values: (value, where, players) -> None ------------
_Check = Callable[[Any, str, int], None]


def _int(value: Any, where: str, players: int) -> None:
    _as_int(value, where)


def _count(value: Any, where: str, players: int) -> None:
    _as_int(value, where, 0)


def _seat(value: Any, where: str, players: int) -> None:
    _as_int(value, where, 0, players - 1)


def _text(value: Any, where: str, players: int) -> None:
    _as_str(value, where)


def _action(value: Any, where: str, players: int) -> None:
    if _as_str(value, where) not in V.ACTION_NAMES:
        raise _fail(where, f"is {value!r}; actions are {', '.join(V.ACTION_NAMES)}")


def _declaration(value: Any, where: str, players: int) -> None:
    if _as_str(value, where) not in V.DECLARE_NAMES:
        raise _fail(where, f"is {value!r}; declarations are {', '.join(V.DECLARE_NAMES)}")


def _seat_declarations(value: Any, where: str, players: int) -> None:
    for i, pair in enumerate(_as_list(value, where)):
        seat, declaration = _as_list(pair, f"{where}[{i}]", 2)
        _seat(seat, f"{where}[{i}][0]", players)
        _declaration(declaration, f"{where}[{i}][1]", players)


def _low_hands(value: Any, where: str, players: int) -> None:
    for i, entry in enumerate(_as_list(value, where)):
        seat, low_value, text = _as_list(entry, f"{where}[{i}]", 3)
        _seat(seat, f"{where}[{i}][0]", players)
        _as_int(low_value, f"{where}[{i}][1]", 1)
        _as_str(text, f"{where}[{i}][2]")


def _seats(value: Any, where: str, players: int) -> None:
    for i, seat in enumerate(_as_list(value, where)):
        _seat(seat, f"{where}[{i}]", players)


def _card_list(value: Any, where: str, players: int) -> None:
    _as_cards(value, where)


def _hands(value: Any, where: str, players: int) -> None:
    hands = [_as_cards(h, f"{where}[{s}]") for s, h in enumerate(_as_list(value, where, players))]
    _no_card_twice([c for h in hands for c in h], where)


def _nets(value: Any, where: str, players: int) -> None:
    for s, n in enumerate(_as_list(value, where, players)):
        _as_int(n, f"{where}[{s}]")


def _pass_moves(value: Any, where: str, players: int) -> None:
    for i, move in enumerate(_as_list(value, where)):
        src, dst, cards = _as_list(move, f"{where}[{i}]", 3)
        _seat(src, f"{where}[{i}][0]", players)
        _seat(dst, f"{where}[{i}][1]", players)
        _as_cards(cards, f"{where}[{i}][2]")


def _seat_cards(value: Any, where: str, players: int) -> None:
    for i, pair in enumerate(_as_list(value, where)):
        seat, card = _as_list(pair, f"{where}[{i}]", 2)
        _seat(seat, f"{where}[{i}][0]", players)
        _as_int(card, f"{where}[{i}][1]", 0, 51)


def _shown_hands(value: Any, where: str, players: int) -> None:
    for i, entry in enumerate(_as_list(value, where)):
        seat, cards, hand_value, text = _as_list(entry, f"{where}[{i}]", 4)
        _seat(seat, f"{where}[{i}][0]", players)
        _as_cards(cards, f"{where}[{i}][1]")
        _as_int(hand_value, f"{where}[{i}][2]")
        _as_str(text, f"{where}[{i}][3]")


#: The keys of every event type in format 1 and how their values are checked.
_EVENT_KEYS: dict[str, dict[str, _Check]] = {
    "deal": {"dealer": _seat, "deck": _card_list, "hands": _hands},
    "ante": {"seat": _seat, "amount": _count},
    "round": {"round": _count, "stage": _count, "opener": _seat, "pot": _count},
    "action": {"round": _count, "seat": _seat, "action": _action, "amount": _count,
               "pot": _count},
    "round_end": {"round": _count, "pot": _count},
    "pass_commit": {"pass": _count, "seat": _seat, "cards": _card_list},
    "pass": {"pass": _count, "count": _count, "direction": _int, "moves": _pass_moves},
    "discard_commit": {"seat": _seat, "discard": _card_list, "order": _card_list},
    "discard": {},
    "reveal": {"reveal": _count, "cards": _seat_cards},
    "showdown": {"hands": _shown_hands},
    "award": {"seat": _seat, "amount": _count, "reason": _text},
    "end": {"reason": _text, "net": _nets},
    # hi-lo rules (R21-R26)
    "declare_commit": {"seat": _seat, "declaration": _declaration},
    "declare": {"declarations": _seat_declarations},
    "low_showdown": {"hands": _low_hands},
    "split": {"high": _count, "low": _count, "failed": _seats},
}  # fmt: skip


def _check_event(event: Any, index: int, players: int) -> None:
    where = f"history event {index}"
    if not isinstance(event, dict):
        raise _fail(where, f"must be a JSON object, not {type(event).__name__} ({event!r})")
    if "type" not in event:
        raise _fail(where, f"has no key 'type'; types are {', '.join(_EVENT_KEYS)}")
    kind = event["type"]
    if not isinstance(kind, str) or kind not in _EVENT_KEYS:
        raise _fail(where, f"has the unknown type {kind!r}; types are {', '.join(_EVENT_KEYS)}")
    where = f"history event {index} ({kind})"
    for key, check in _EVENT_KEYS[kind].items():
        if key not in event:
            raise _fail(where, f"has no key {key!r}; a {kind} event has "
                               f"{', '.join(_EVENT_KEYS[kind]) or 'no other keys'}")  # fmt: skip
        check(event[key], f"{where} key {key!r}", players)


def _key(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise _fail(
            "history", f"has no key {key!r}; a history has the keys format, rules, dealer, "
            "deck, deal_index, strategies, seed, key and events (History.to_dict writes them all)"
        )  # fmt: skip
    return data[key]


def _number(value: float) -> str:
    """A parameter as short text that reads back as exactly ``value``."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


def strategy_record(player: Any) -> str:
    """The text a history records for the strategy of one seat.

    A :class:`~anaconda_sim.strategies.Strategy` (or a
    :class:`~anaconda_sim.game.play.Bot` holding one) is its spec with every
    parameter written to full precision, so that
    :func:`~anaconda_sim.strategies.get_strategy` reads back the same
    strategy; a learned strategy with a win table of its own keeps the
    table's digest (:meth:`~anaconda_sim.strategies.Strategy.spec`): it names
    the table but cannot rebuild it. ``None`` (a seat a person plays) is
    :data:`PERSON`; any other player is its ``name`` attribute, or its
    class's name.

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> strategy_record(get_strategy("sensible", bluff=0.123456789))
    'sensible:aggressive_at=6,continue_early=1,continue_late=4,respect_exposed=1,bluff=0.123456789'
    >>> strategy_record(get_strategy("call-down")), strategy_record(None)
    ('call-down', 'human')
    """
    if player is None:
        return PERSON
    strategy = getattr(player, "strategy", player)  # a Bot plays the Strategy it holds
    if hasattr(strategy, "param_dict") and hasattr(strategy, "spec"):
        params = strategy.param_dict()
        if not params:
            return str(strategy.spec())
        text = ",".join(f"{k}={_number(float(v))}" for k, v in params.items())
        table = str(strategy.spec()).partition(",win_table=")[2]
        return f"{strategy.name}:{text}" + (f",win_table={table}" if table else "")
    return str(getattr(player, "name", type(player).__name__))


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
    strategies
        Who played: one spec per seat (:func:`strategy_record`), or ``None``
        when unknown (moves made by hand, or a format 1 history).
    seed
        The integer seed of the run, or ``None``.
    key
        The run's root key (the deck and the seats' random streams of deal
        ``deal_index`` follow from it), or ``None`` when the deck was given.
    """

    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    deal_index: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    strategies: tuple[str, ...] | None = None
    seed: int | None = None
    key: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict, ``"format"`` (:data:`FORMAT_VERSION`) first."""
        return {
            "format": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "deck": list(self.deck),
            "deal_index": self.deal_index,
            "strategies": None if self.strategies is None else list(self.strategies),
            "seed": self.seed,
            "key": self.key,
            "events": [dict(e) for e in self.events],
        }

    def record_model(self, players: Any, seed: Any, key: Any) -> None:
        """Record who plays the deal (one player or strategy per seat,
        :func:`strategy_record`) and how it is seeded: ``seed`` when it is an
        integer, and the run's root ``key``."""
        self.strategies = tuple(strategy_record(p) for p in players)
        integer = isinstance(seed, (int, np.integer)) and not isinstance(seed, bool)
        self.seed = int(seed) if integer else None
        self.key = None if key is None else int(key)

    def model_text(self) -> str:
        """Who played and how the deal was seeded, in one line.

        Examples
        --------
        >>> from anaconda_sim.game.play import play_deal
        >>> play_deal(Rules(players=2), ["call-down", "random"], seed=3).history.model_text()
        'played by call-down, random (seats 0..1); seed 3, deal 0'
        >>> History(Rules(players=2), dealer=0, deck=tuple(range(14))).model_text()
        'who played is not recorded; seed not recorded, deal 0'
        """
        if self.strategies is None:
            who = "who played is not recorded"
        else:
            who = f"played by {', '.join(self.strategies)} (seats 0..{len(self.strategies) - 1})"
        seed = "seed not recorded" if self.seed is None else f"seed {self.seed}"
        return f"{who}; {seed}, deal {self.deal_index}"

    def to_json(self, indent: int | None = None) -> str:
        """The history as a JSON string (inverse: :meth:`from_json`)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the history to ``path`` as JSON (read it back with :meth:`load`)."""
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(self.to_json(indent=1) + "\n")

    def validate(self) -> None:
        """Check the layout: seats, cards (0..51, no card twice), every event's keys.

        Raises
        ------
        HistoryFormatError
            Naming the first bad value (its event index and key) and what it
            must be.
        """

        if not isinstance(self.rules, Rules):
            raise _fail("history rules", f"must be a Rules object, not {type(self.rules).__name__}")
        players = self.rules.players
        _as_int(self.dealer, "history key 'dealer'", 0, players - 1)
        _as_int(self.deal_index, "history key 'deal_index'", 0, MAX_DEAL_INDEX)
        deck = _as_cards(list(self.deck), "history key 'deck'")
        if not HAND_SIZE * players <= len(deck) <= DECK_SIZE:
            raise _fail(
                "history key 'deck'",
                f"has {len(deck)} cards; {players} players need {HAND_SIZE * players} to "
                f"{DECK_SIZE} (R5)",
            )
        if self.strategies is not None:
            specs = _as_list(list(self.strategies), "history key 'strategies'", players)
            for seat, spec in enumerate(specs):
                _as_str(spec, f"history key 'strategies'[{seat}]")
        if self.seed is not None:
            _as_int(self.seed, "history key 'seed'", 0)
        if self.key is not None:
            _as_int(self.key, "history key 'key'", 0, (1 << 64) - 1)
        for index, event in enumerate(_as_list(self.events, "history key 'events'")):
            _check_event(event, index, players)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> History:
        """A history from :meth:`to_dict` output.

        Parameters
        ----------
        data
            The dict. Without a ``"format"`` key it is read as format 1 (the
            layout of histories written before the key existed); a format 1
            history has no model (``strategies``, ``seed`` and ``key`` are
            ``None``).

        Raises
        ------
        HistoryFormatError
            Another format version, a missing key, a value of the wrong type or
            out of range, a card dealt twice.
        """
        if not isinstance(data, Mapping):
            raise _fail("history", f"must be a JSON object, not {type(data).__name__}")
        version = data.get("format", 1)
        if isinstance(version, bool) or not isinstance(version, int):
            raise _fail("history key 'format'", f"must be an integer, not {version!r}")
        if version not in READ_VERSIONS:
            raise HistoryFormatError(
                f"history format {version} is not supported: this version of anaconda-sim reads "
                f"formats {', '.join(map(str, READ_VERSIONS))}; write the history again with "
                "this version, or read it with the version that wrote it"
            )
        rules_data = _key(data, "rules")
        if not isinstance(rules_data, Mapping):
            raise _fail("history key 'rules'", f"must be a JSON object, not {rules_data!r}")
        try:
            rules = Rules.from_dict(dict(rules_data))
        except (TypeError, ValueError, KeyError) as exc:
            raise _fail("history key 'rules'", f"is not valid rules: {exc}") from None
        history = cls(
            rules=rules,
            dealer=_key(data, "dealer"),
            deck=tuple(_as_list(_key(data, "deck"), "history key 'deck'")),
            deal_index=data.get("deal_index", 0),
            events=_as_list(_key(data, "events"), "history key 'events'"),
        )
        if version >= 2:  # format 1 was written before the model was recorded
            strategies = _key(data, "strategies")
            if strategies is not None:
                strategies = tuple(_as_list(strategies, "history key 'strategies'"))
            history.strategies = strategies
            history.seed = _key(data, "seed")
            history.key = _key(data, "key")
        history.validate()
        history.events = [_normalise(e) for e in history.events]
        return history

    @classmethod
    def from_json(cls, text: str) -> History:
        """A history from :meth:`to_json` output (errors: see :meth:`from_dict`)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise HistoryFormatError(
                f"history is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
            ) from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> History:
        """Read a history written by :meth:`save` (its layout checked; to replay
        it too, :func:`anaconda_sim.game.replayer.load_history`).

        Raises
        ------
        OSError
            The file cannot be read.
        HistoryFormatError
            As :meth:`from_dict`, the message starting with the file name.
        """
        with open(path, "rb") as stream:
            raw = stream.read()
        name = os.fspath(path)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise HistoryFormatError(
                f"{name}: not UTF-8 text (byte {exc.start}); a history file is the JSON "
                "written by History.save or `anaconda-sim play --save`"
            ) from None
        try:
            return cls.from_json(text)
        except HistoryError as exc:
            raise type(exc)(f"{name}: {exc}") from None

    def moves(self) -> list[dict[str, Any]]:
        """The events that are moves (actions, pass, discard and declare commits), in order."""
        return [e for e in self.events if e["type"] in MOVE_TYPES]

    def format(self) -> str:
        """Readable text; see :func:`format_history`."""
        return format_history(self)


def _normalise(event: dict[str, Any]) -> dict[str, Any]:
    """JSON turns tuples into lists; the engine records lists, so nothing to do
    but copy (kept as a function so the format has one place to evolve)."""
    return dict(json.loads(json.dumps(event)))


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
    >>> from anaconda_sim.table.rules import Rules
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
    if history.strategies is not None:
        seed = "" if history.seed is None else f"; seed {history.seed}"
        lines.append(f"Played by: {_played_by(history.strategies)}{seed}")
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
            stage = describe_stage(event["stage"], rules)
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
        elif kind == "declare":
            declared = ", ".join(f"seat {seat} {name}" for seat, name in event["declarations"])
            lines.append(f"-- Declarations (at once): {declared}")
        elif kind == "low_showdown":
            for seat, _value, text in event["hands"]:
                lines.append(f"seat {seat} low: {text}")
        elif kind == "split":
            line = f"High half {event['high']}, low half {event['low']}"
            if event["failed"]:
                line += "; declared both and won nothing: " + ", ".join(
                    f"seat {seat}" for seat in event["failed"]
                )
            lines.append(line)
        elif kind == "award":
            reason = event.get("reason", "")
            suffix = {"folds": " (everyone else folded)", "high": " (high)", "low": " (low)",
                      "high and low": " (high and low)"}.get(reason, "")  # fmt: skip
            lines.append(f"Seat {event['seat']} wins {event['amount']}{suffix}")
        elif kind == "end":
            net = ", ".join(f"seat {s} {n:+d}" for s, n in enumerate(event["net"]))
            lines.append(f"Net: {net}")
    return "\n".join(lines)


def _played_by(strategies: tuple[str, ...]) -> str:
    """The recorded strategies for people: each without its default
    parameters, once when every seat plays the same."""
    from ..strategies.spec import short_spec  # late: loads numba (the strategies)

    def short(spec: str) -> str:
        try:
            return short_spec(spec)
        except (TypeError, ValueError):  # a person, a user's strategy
            return spec

    names = [short(spec) for spec in strategies]
    if len(set(names)) == 1:
        return f"{names[0]} at every seat"
    return ", ".join(f"seat {seat} {name}" for seat, name in enumerate(names))


def describe_stage(stage: int, rules: Rules) -> str:
    """Where a betting round falls in the deal, for people (numbers count from 1).

    ``stage`` is the code of :attr:`anaconda_sim.game.engine.Game.stage`.

    Examples
    --------
    >>> describe_stage(0, Rules.bicycle(3)), describe_stage(2, Rules.bicycle(3))
    ('before the passes', 'after pass 2')
    >>> describe_stage(V.STAGE_REVEAL + 1, Rules(players=3))
    'after reveal 1'
    """
    if stage >= V.STAGE_REVEAL:
        return f"after reveal {stage - V.STAGE_REVEAL}"
    if stage == 0:
        return "before the pass" if len(rules.passes) == 1 else "before the passes"
    if len(rules.passes) == 1:
        return "after the pass"
    return f"after pass {stage}"
