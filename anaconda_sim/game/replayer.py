"""Replaying a hand history through the reference engine.

:func:`replay` rebuilds a :class:`~anaconda_sim.game.engine.Game` from a
:class:`~anaconda_sim.game.history.History` move by move and checks every
recorded event against the replay. It sits above both: the engine writes
histories and a history is plain data, so neither needs the other to replay.
"""

from __future__ import annotations

import os
from typing import Any

from ..cards import format_cards
from ..errors import GameError
from .engine import Game
from .history import MOVE_TYPES, History, HistoryError, ReplayMismatchError

__all__ = ["apply_move", "load_history", "replay", "verify"]


def verify(history: History) -> History:
    """``history`` itself, once its replay (:func:`replay`) matches every event.

    Raises
    ------
    HistoryFormatError, ReplayMismatchError
        As :func:`replay`.

    Examples
    --------
    >>> from anaconda_sim.table.rules import Rules
    >>> g = Game(Rules(players=2), seed=5)
    >>> g.bet(); g.fold()
    >>> verify(History.from_json(g.history.to_json())) == g.history
    True
    """
    replay(history)
    return history


def load_history(path: str | os.PathLike[str]) -> History:
    """Read a history written by :meth:`History.save` and :func:`verify` it.

    Raises
    ------
    OSError
        The file cannot be read.
    HistoryFormatError, ReplayMismatchError
        As :func:`replay`, the message starting with the file name.
    """
    history = History.load(path)
    try:
        return verify(history)
    except HistoryError as exc:
        raise type(exc)(f"{os.fspath(path)}: {exc}") from None


def replay(history: History) -> Game:
    """Rebuild a game from its history by replaying the moves.

    The history's layout is checked first (:meth:`History.validate`); then
    every move is replayed and, before each move and at the end, the events
    the replay produced are compared with the recorded ones.

    Raises
    ------
    HistoryFormatError
        A missing key, a value of the wrong type, a card dealt twice...
    ReplayMismatchError
        A recorded move that is illegal when replayed (the message gives the
        move number and the event index), or an event that differs from the
        replay (the key, the recorded and the replayed values): a history
        that was edited or comes from different rules.

    Examples
    --------
    >>> from anaconda_sim.table.rules import Rules
    >>> g = Game(Rules(players=2), seed=5)
    >>> g.bet(); g.fold()
    >>> replay(History.from_json(g.history.to_json())).result == g.result
    True
    """
    history.validate()
    try:
        game = Game(history.rules, history.dealer, deck=list(history.deck),
                    deal_index=history.deal_index)  # fmt: skip
    except (TypeError, ValueError) as exc:
        raise ReplayMismatchError(f"cannot set up the deal of the history: {exc}") from None
    # the same deal under the same model: who played and how it was seeded
    game.history.strategies, game.history.seed = history.strategies, history.seed
    game.history.key = history.key
    recorded = history.events
    move = 0
    for index, event in enumerate(recorded):
        if event["type"] not in MOVE_TYPES:
            continue
        _compare_events(game.history.events, recorded[:index], move)
        move += 1
        try:
            apply_move(game, event)
        except GameError as exc:
            raise ReplayMismatchError(
                f"move {move} of the history (event {index}: {_move_text(event)}) is illegal "
                f"when replayed: {exc}; the history was edited or comes from other rules"
            ) from None
    _compare_events(game.history.events, recorded, move)
    return game


def apply_move(game: Game, event: dict[str, Any]) -> None:
    """Make the move a history event records (an action or a commit) in ``game``."""
    if event["type"] == "action":
        game.act(event["seat"], event["action"])
    elif event["type"] == "pass_commit":
        game.commit_pass(event["seat"], event["cards"])
    elif event["type"] == "declare_commit":
        game.commit_declare(event["seat"], event["declaration"])
    else:
        game.commit_discard(event["seat"], event["discard"], event["order"])


def _move_text(event: dict[str, Any]) -> str:
    seat = event["seat"]
    if event["type"] == "action":
        return f"seat {seat} {event['action']}"
    if event["type"] == "pass_commit":
        return f"seat {seat} passes {format_cards(event['cards'])}"
    if event["type"] == "declare_commit":
        return f"seat {seat} declares {event['declaration']}"
    return f"seat {seat} discards {format_cards(event['discard'])}"


def _compare_events(
    replayed: list[dict[str, Any]], recorded: list[dict[str, Any]], moves: int
) -> None:
    """Raise :class:`ReplayMismatchError` at the first event that differs."""
    if replayed == recorded:
        return
    after = f"after move {moves}" if moves else "before the first move"
    hint = "; the history was edited or comes from other rules"
    for i, (mine, theirs) in enumerate(zip(replayed, recorded, strict=False)):
        if mine == theirs:
            continue
        kind = theirs.get("type")
        if mine.get("type") != kind:
            raise ReplayMismatchError(
                f"replay differs from the history at event {i} ({after}): the history has a "
                f"{kind!r} event, the replay a {mine.get('type')!r} event{hint}"
            )
        keys = [k for k in {**theirs, **mine} if theirs.get(k, _MISSING) != mine.get(k, _MISSING)]
        diffs = "; ".join(
            _difference(f"key {k!r}", theirs.get(k, _MISSING), mine.get(k, _MISSING)) for k in keys
        )
        what = {
            "deal": " (the cards dealt differ)",
            "showdown": " (the final result differs)",
            "low_showdown": " (the final result differs)",
            "split": " (the final result differs)",
            "award": " (the final result differs)",
            "end": " (the final result differs)",
        }.get(str(kind), "")
        raise ReplayMismatchError(
            f"replay differs from the history at event {i} ({kind}, {after}){what}: {diffs}{hint}"
        )
    if len(replayed) > len(recorded):
        extra = replayed[len(recorded)]
        raise ReplayMismatchError(
            f"replay differs from the history at event {len(recorded)} ({after}): the replay "
            f"has a {extra['type']!r} event that the history lacks{hint}"
        )
    extra = recorded[len(replayed)]
    raise ReplayMismatchError(
        f"replay differs from the history at event {len(replayed)} ({after}): the history has "
        f"a {extra.get('type')!r} event that the replay does not produce{hint}"
    )


_MISSING = object()


def _difference(where: str, recorded: Any, replayed: Any) -> str:
    """Where two values differ, down to the first differing entry of long lists."""
    if isinstance(recorded, list) and isinstance(replayed, list):
        if len(recorded) == len(replayed) and len(repr(recorded)) > 60:
            for i, (a, b) in enumerate(zip(recorded, replayed, strict=True)):
                if a != b:
                    return _difference(f"{where}[{i}]", a, b)
    shown = ["missing" if v is _MISSING else repr(v) for v in (recorded, replayed)]
    return f"{where} is {shown[0]} in the history but {shown[1]} in the replay"
