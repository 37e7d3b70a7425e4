"""A spot: one seat's decision in a deal under way, and what that seat knows.

:func:`spot_of` reads a :class:`Spot` out of a :class:`~anaconda_sim.game.Game`
(its current state) or a :class:`~anaconda_sim.game.History` and a move
number (the state just before that move). The game is replayed move by move
on a fresh engine; before each rival's move the public view it decided on
is kept, with the own view it held then (its dealt seven, the seven after
the pass, or its kept five). Only what the deciding seat may see is read:
its own cards and packets, the public table, the cards turned up, and
which seats took part in the pass and the discard (never what they
passed or discarded).

Supported rules: the high-only game with one pass of three cards, the
discard and the four reveals (the library's default rules, any direction,
any stakes). Other rule sets raise a clear error.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

import numpy as np

from ..cards import format_cards, parse_cards
from ..game.engine import Action, Game, Phase
from ..game.history import History
from ..game.replayer import apply_move, load_history
from ..limits import DECK_SIZE, DISCARD_SIZE
from ..sim.spots import (
    REACHED_DEAL,
    REACHED_DISCARD,
    REACHED_PASS,
    SPOT_BET,
    SPOT_DISCARD,
    SPOT_ORDER,
    SPOT_PASS,
    VIEW_DEALT,
    VIEW_KEPT,
    VIEW_PASSED,
    SpotArrays,
)
from ..strategies.sensible import reveal_order_hiding_most_telling
from ..table import views as V
from ..table.rules import Rules

__all__ = ["Spot", "spot_of"]

#: the decision at a spot, by phase
KIND_NAMES = {SPOT_BET: "bet", SPOT_PASS: "pass", SPOT_DISCARD: "discard", SPOT_ORDER: "order"}


@dataclass(frozen=True)
class Decision:
    """A rival's recorded decision: who, what (``V.D_*``), on which own view
    (``VIEW_*``), the action of a bet, and words for messages."""

    seat: int
    kind: int
    view: int
    action: int
    pub: np.ndarray
    text: str


@dataclass(frozen=True)
class Spot:
    """One seat's decision in a deal under way, with what that seat knows.

    Attributes
    ----------
    rules, seat
        The rules and the deciding seat (the hero).
    phase
        The engine's phase at the spot: betting, pass or discard.
    move
        The number (1-based) of the move the seat is about to make.
    game
        The game at the spot (a replay; read its public state and the
        hero's views only: it holds the true deal).
    decisions
        The rivals' recorded decisions before the spot, in order.
    recorded
        The strategies the history records for its seats (one spec per
        seat), or ``None`` when it does not record who played
        (:attr:`~anaconda_sim.game.History.strategies`).
    """

    rules: Rules
    seat: int
    phase: Phase
    move: int
    game: Game
    decisions: tuple[Decision, ...]
    arrays: SpotArrays
    recorded: tuple[str, ...] | None = None

    @property
    def players(self) -> int:
        return self.rules.players

    def describe(self, unicode: bool = True) -> str:
        """The spot in words: the seat, the phase, what it holds, the board."""
        g = self.game
        own = format_cards(g.hand(self.seat), unicode=unicode)
        if self.phase is Phase.BETTING:
            what = (f"betting round {g.betting_round + 1}, {g.to_call(self.seat)} to call, "
                    f"pot {g.pot}")  # fmt: skip
        else:
            what = self.phase.name.lower()
        shown = "; ".join(
            f"seat {s} shows {format_cards(g.exposed(s), unicode=unicode)}"
            for s in range(self.players) if s != self.seat and g.exposed(s)
        )
        text = f"move {self.move}: seat {self.seat} ({what}) holds {own}"
        return f"{text}; {shown}" if shown else text


def _check_rules(rules: Rules) -> None:
    if rules.hilo_showdown or len(rules.passes) != 1 or rules.passes[0][0] != 3 \
            or not rules.discard or not rules.progressive_reveal:  # fmt: skip
        raise ValueError(
            f"spots support the high-only rules with one pass of three cards, the discard and "
            f"the four reveals (Rules(players=...)); these rules ({rules.name}: passes="
            f"{rules.passes}, discard={rules.discard}, progressive_reveal="
            f"{rules.progressive_reveal}, showdown={'hi-lo' if rules.hilo_showdown else 'high'})"
            " are not supported"
        )


def _view_of(game: Game, seat: int) -> int:
    if game._discards[seat]:
        return VIEW_KEPT
    if game._passed[seat]:
        return VIEW_PASSED
    return VIEW_DEALT


def _move_text(event: dict[str, Any], number: int) -> str:
    seat = event["seat"]
    if event["type"] == "action":
        rnd = event["round"] + 1
        return f"seat {seat}'s {event['action']} in betting round {rnd} (move {number})"
    if event["type"] == "pass_commit":
        return f"seat {seat}'s pass (move {number})"
    return f"seat {seat}'s discard and reveal order (move {number})"


def spot_of(state: Game | History | Spot | str | os.PathLike[str], *, move: int | None = None,
            seat: int | None = None) -> Spot:  # fmt: skip
    """The :class:`Spot` of a game now, or of a history before move ``move``.

    Parameters
    ----------
    state
        A :class:`~anaconda_sim.game.Game` (the spot is its current state),
        a :class:`~anaconda_sim.game.History` or the path of a history file
        written by :meth:`~anaconda_sim.game.History.save` (read and
        verified by :func:`~anaconda_sim.game.replayer.load_history`; give
        ``move``), or a Spot (returned as it is).
    move
        With a history: the 1-based number of the move whose decision is
        asked (``anaconda-sim spot HISTORY --list`` numbers them); the spot
        is the state just before it, and its seat decides. With a game:
        not given.
    seat
        The deciding seat. Default: the seat to act in a betting round, the
        seat of move ``move`` in a history; during a pass or discard of a
        game, give it when several seats have still to commit.

    Raises
    ------
    ValueError
        The game is over, the seat cannot decide now (not its turn, folded,
        already committed), the move number is out of range, or the rules
        are not supported.

    Examples
    --------
    >>> from anaconda_sim.table.rules import Rules
    >>> g = Game(Rules(players=3), seed=4)
    >>> g.bet()
    >>> spot_of(g).seat, spot_of(g).phase.name
    (2, 'BETTING')
    """
    if isinstance(state, Spot):
        return state
    if isinstance(state, (str, os.PathLike)):
        state = load_history(state)
    if isinstance(state, Game):
        if move is not None:
            raise ValueError("move= is for a history; a Game's spot is its current state")
        history = state.history
        number = len(history.moves()) + 1
    elif isinstance(state, History):
        history = state
        moves = history.moves()
        if move is None:
            raise ValueError(
                f"give move=N (1..{len(moves)}) with a history: the spot is the state just "
                "before move N"
            )
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)) \
                or not 1 <= move <= len(moves):  # fmt: skip
            raise ValueError(
                f"move={move!r} is not a move of this history; its moves are 1..{len(moves)} "
                "(anaconda-sim spot HISTORY --list shows them)"
            )
        number = int(move)
        if seat is None:
            seat = int(moves[number - 1]["seat"])
    else:
        raise TypeError(
            f"state={state!r} must be a Game, a History, a history file's path or a Spot"
        )
    _check_rules(history.rules)
    return _read(history, number, seat)


def _read(history: History, number: int, seat: int | None) -> Spot:
    """Replay ``history``'s first ``number - 1`` moves and read the spot."""
    rules = history.rules
    game = Game(rules, history.dealer, deck=list(history.deck), deal_index=history.deal_index)
    moves = history.moves()
    records: list[tuple[dict[str, Any], int, np.ndarray, int]] = []
    for k, event in enumerate(moves[: number - 1]):
        s = int(event["seat"])
        records.append((event, k + 1, game._fill_pub(), _view_of(game, s)))
        apply_move(game, event)
    if game.is_over:
        raise ValueError(f"the deal is over at move {number}: no decision is left")
    seat = _hero(game, seat)
    phase = game.phase
    decisions = []
    for event, k, pub, view in records:
        s = int(event["seat"])
        if s == seat:
            continue
        kind = {"action": V.D_BET, "pass_commit": V.D_PASS, "discard_commit": V.D_DISCARD}[
            event["type"]
        ]
        # a pass or discard not applied yet was made face down: it tells nothing
        if kind == V.D_PASS and not game._passed[s]:
            continue
        if kind == V.D_DISCARD and not game._discards[s]:
            continue
        action = int(Action.parse(event["action"])) if kind == V.D_BET else -1
        decisions.append(Decision(s, kind, view, action, pub, _move_text(event, k)))
    return Spot(rules, seat, phase, number, game, tuple(decisions),
                _arrays(game, seat, decisions), history.strategies)  # fmt: skip


def _hero(game: Game, seat: int | None) -> int:
    n = game.players
    if game.phase is Phase.BETTING:
        if seat is None:
            return game.to_act
        if not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise ValueError(f"seat={seat!r} is not a seat; seats are 0..{n - 1}")
        if seat != game.to_act:
            raise ValueError(
                f"seat {seat} cannot decide now: it is seat {game.to_act}'s turn to act in "
                f"betting round {game.betting_round + 1}"
            )
        return int(seat)
    if game.phase not in (Phase.PASS, Phase.DISCARD):
        raise ValueError(f"no spot in the {game.phase.name.lower()} phase")
    waiting = game.waiting_for()
    if seat is None:
        if len(waiting) != 1:
            raise ValueError(
                f"seats {', '.join(map(str, waiting))} have still to commit in this "
                f"{game.phase.name.lower()}; give seat= (one of them)"
            )
        return int(waiting[0])
    if seat not in waiting:
        raise ValueError(
            f"seat {seat} cannot commit now: the seats still to commit in this "
            f"{game.phase.name.lower()} are {', '.join(map(str, waiting)) or 'none'}"
        )
    return int(seat)


def _arrays(game: Game, hero: int, decisions: list[Decision]) -> SpotArrays:
    n = game.players
    reached = np.full(n, REACHED_DEAL, dtype=np.int64)
    source = np.full(n, -1, dtype=np.int64)
    target = np.full(n, -1, dtype=np.int64)
    for s in range(n):
        if game._discards[s]:
            reached[s] = REACHED_DISCARD
        elif game._passed[s]:
            reached[s] = REACHED_PASS
    for event in game.history.events:
        if event["type"] == "pass":
            for giver, taker, _ in event["moves"]:
                target[giver] = taker
                source[taker] = giver
    order: list[int] = []
    if reached[hero] != REACHED_DEAL:
        s = int(source[hero])
        while s != hero:
            order.append(s)
            s = int(source[s])
    order += [s for s in range(n) if s != hero and reached[s] == REACHED_DEAL]
    exposed = np.full((n, 4), -1, dtype=np.int64)
    n_exposed = np.zeros(n, dtype=np.int64)
    for s in range(n):
        shown = game.exposed(s)[:4]
        exposed[s, : len(shown)] = shown
        n_exposed[s] = len(shown)
    dealt = game.history.events[0]["hands"][hero]
    seen = set(dealt) | set(game._received[hero])
    for s in range(n):
        if s != hero:
            seen |= set(game.exposed(s)[:4])
    unseen = np.array([c for c in range(DECK_SIZE) if c not in seen], dtype=np.int64)
    hero_pass = np.full(3, -1, dtype=np.int64)
    hero_recv = np.full(3, -1, dtype=np.int64)
    if game._passed[hero]:
        hero_pass[:] = game._passed[hero]
        hero_recv[:] = game._received[hero]
    m = len(decisions)
    pub = np.zeros((max(m, 1), V.PUB_SIZE), dtype=np.int32)
    for k, d in enumerate(decisions):
        pub[k] = d.pub
        # every thread of the spot kernels reads these tables at once: with
        # their betting summary in place, a reader writes nothing into them
        V.fill_summary(pub[k])
    pub_now, own_now = game.seat_views(hero)
    return SpotArrays(
        hero=hero,
        order=np.array(order, dtype=np.int64),
        reached=reached,
        source=source,
        target=target,
        hero_pass=hero_pass,
        hero_recv=hero_recv,
        exposed=exposed,
        n_exposed=n_exposed,
        unseen=unseen,
        d_seat=np.array([d.seat for d in decisions], dtype=np.int64),
        d_kind=np.array([d.kind for d in decisions], dtype=np.int64),
        d_view=np.array([d.view for d in decisions], dtype=np.int64),
        d_action=np.array([d.action for d in decisions], dtype=np.int64),
        d_pub=pub[:m] if m else pub[:0],
        pub=pub_now,
        own=own_now,
        pending=len(game._need),
    )


def spot_choices(spot: Spot, decision: str | None = None, keep: Any = None,
                 unicode: bool = True) -> tuple[int, np.ndarray, list[str]]:  # fmt: skip
    """The hero's choices at ``spot``: ``(SPOT_* kind, rows of 7 cards or an
    action code, labels)``. At a discard, ``decision`` is ``"discard"``
    (the 21 pairs of discards, each five revealed in the order that hides
    its most telling card) or ``"order"`` (the 120 orders of the five in
    ``keep``)."""
    game = spot.game
    hero = spot.seat
    rows: list[list[int]] = []
    labels: list[str] = []
    if spot.phase is Phase.BETTING:
        if decision not in (None, "bet"):
            raise ValueError(f"decision={decision!r}: the spot is a betting decision")
        for action in game.legal_actions(hero):
            rows.append([int(action)] + [-1] * 6)
            labels.append(action.label)
        return SPOT_BET, np.array(rows, dtype=np.int64), labels
    held = list(game.hand(hero))
    if spot.phase is Phase.PASS:
        if decision not in (None, "pass"):
            raise ValueError(f"decision={decision!r}: the spot is a pass")
        for packet in combinations(held, 3):
            rows.append(list(packet) + [-1] * 4)
            labels.append(format_cards(packet, unicode=unicode))
        return SPOT_PASS, np.array(rows, dtype=np.int64), labels
    if decision in (None, "discard"):
        if keep is not None:
            raise ValueError("keep= is for decision='order'")
        for dropped in combinations(held, DISCARD_SIZE):
            five = [c for c in held if c not in dropped]
            rows.append(list(dropped) + reveal_order_hiding_most_telling(five))
            labels.append(format_cards(dropped, unicode=unicode))
        return SPOT_DISCARD, np.array(rows, dtype=np.int64), labels
    if decision != "order":
        raise ValueError(f"decision={decision!r} is not a decision at a discard; give "
                         "'discard' or 'order'")  # fmt: skip
    if keep is None:
        raise ValueError("decision='order' needs keep= (the five cards kept)")
    five = parse_cards(keep, count=5, what="keep")
    missing = [c for c in five if c not in held]
    if missing:
        raise ValueError(
            f"keep={format_cards(five)}: seat {hero} does not hold {format_cards(missing)} "
            f"(it holds {format_cards(held)})"
        )
    for order in permutations(five):
        rows.append([*order, -1, -1])
        labels.append(format_cards(order, unicode=unicode))
    return SPOT_ORDER, np.array(rows, dtype=np.int64), labels

