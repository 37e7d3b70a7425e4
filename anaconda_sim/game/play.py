"""Running strategies through the reference engine, deal by deal.

:func:`play_deal` plays one whole deal with one strategy per seat. A strategy
is either a built-in or custom :class:`~anaconda_sim.strategies.Strategy`
(numba functions on the flat views) or any Python object following the
:class:`Player` protocol (decisions from an
:class:`~anaconda_sim.game.engine.Observation`). :class:`Bot` adapts a
``Strategy`` to the protocol, which is how the terminal game seats bots.

The protocol of calls (the batch simulator mirrors it exactly)
--------------------------------------------------------------
* Random streams: seat ``s`` decides with ``rng.new_state(key, deal_index,
  1 + s)``, created once per deal; the deck, when not given, is the full
  shuffle of stream 0 (:func:`~anaconda_sim.game.engine.deck_from_seed`).
* Betting: the seat to act fills its views, ``decide_bet`` returns an
  intent, :func:`~anaconda_sim.strategies.intent_to_action` makes it an
  action, the engine applies it; repeat until the round ends.
* Pass and discard: every active seat decides in clockwise order starting
  left of the dealer, all from views filled before any commit is applied
  (the public array is the same for all of them); then the commits are made
  in that same order.
* Declaration (hi-lo rules, R22): as a pass or discard. A ``Strategy``
  declares with :func:`~anaconda_sim.strategies.decide_declare`; a
  :class:`Player` with its ``choose_declaration`` method, or, without one,
  as the built-in ``"sensible"`` does.

Examples
--------
>>> from anaconda_sim.table.rules import Rules
>>> g = play_deal(Rules(players=3), ["call-down"] * 3, seed=2)
>>> g.is_over, sum(g.result.net)
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .. import rng as _rng
from ..checks import check_deal_index, check_int
from ..strategies.common import intent_to_action
from ..strategies.declare import decide_declare
from ..strategies.spec import Strategy, compile_engine_decisions, get_strategy
from ..table.rules import Rules
from .engine import Action, Game, Observation, Phase, deck_from_seed

__all__ = ["Bot", "Player", "RandomPlayer", "as_player", "as_players", "play_deal", "run_game"]


@runtime_checkable
class Player(Protocol):
    """A plain-Python strategy for the reference engine.

    Each method receives what the seat may see and returns its decision.
    ``begin_deal`` is optional: when present the engine calls it once at the
    start of every deal with the seat and the seat's random stream (a
    ``uint64[1]`` state for :mod:`anaconda_sim.rng`).
    """

    def choose_pass(self, obs: Observation) -> Sequence[int | str] | str:
        """The ``obs.pass_count`` cards to pass (indices or text)."""
        ...

    def choose_discard(
        self, obs: Observation
    ) -> tuple[Sequence[int | str] | str, Sequence[int | str] | str]:
        """``(discards, order)``: two discards and the kept five in reveal order."""
        ...

    def choose_action(self, obs: Observation) -> Action | str | int:
        """A legal betting action (one of ``obs.legal_actions``)."""
        ...

    # Optional, hi-lo rules only (not part of the runtime check):
    # ``choose_declaration(obs) -> "high" | "low" | "both"`` (or a DECLARE_* code).


class Bot:
    """A :class:`~anaconda_sim.strategies.Strategy` seen as a :class:`Player`.

    It runs the strategy's numba decisions on the observation's flat views
    with the seat's random stream, so a deal played with bots is identical
    to one played with the bare strategies.

    Examples
    --------
    >>> Bot("sensible").name
    'sensible'
    """

    def __init__(self, strategy: Any, **params: float) -> None:

        self.strategy = get_strategy(strategy, **params)
        self.name = self.strategy.name
        self._state: np.ndarray | None = None

    def begin_deal(self, seat: int, state: np.ndarray) -> None:
        """Take the seat's random stream for this deal."""
        self._state = state

    def _stream(self) -> np.ndarray:
        if self._state is None:
            self._state = _rng.new_state(_rng.root_key(0), 0, _rng.STREAM_SEAT)
        return self._state

    def choose_pass(self, obs: Observation) -> list[int]:
        """The strategy's pass."""
        cards = self.strategy.decide_pass(obs.pub, obs.own, self._stream())
        return [int(c) for c in cards]

    def choose_discard(self, obs: Observation) -> tuple[list[int], list[int]]:
        """The strategy's discards and reveal order."""
        discard, order = self.strategy.decide_discard(obs.pub, obs.own, self._stream())
        return [int(c) for c in discard], [int(c) for c in order]

    def choose_action(self, obs: Observation) -> Action:
        """The strategy's intent, made a legal action."""

        intent = self.strategy.decide_bet(obs.pub, obs.own, self._stream())
        return Action(int(intent_to_action(obs.pub, obs.own, intent)))

    def choose_declaration(self, obs: Observation) -> int:
        """The strategy's declaration (hi-lo rules, R22), a ``DECLARE_*`` code."""

        return decide_declare(self.strategy, obs.pub, obs.own, self._stream())

    def __repr__(self) -> str:
        return f"Bot({self.name!r})"


class RandomPlayer:
    """Uniformly random legal play in pure Python (for tests and fuzzing).

    Uses the seat's stream of :mod:`anaconda_sim.rng`, so it is reproducible.
    """

    name = "py-random"

    def __init__(self) -> None:
        self._state = _rng.new_state(_rng.root_key(0), 0, _rng.STREAM_SEAT)

    def begin_deal(self, seat: int, state: np.ndarray) -> None:
        """Take the seat's random stream for this deal."""
        self._state = state

    def _pick(self, items: Sequence[Any], k: int) -> list[Any]:
        pool = list(items)
        for i in range(k):
            j = i + int(_rng.rand_below(self._state, len(pool) - i))
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def choose_pass(self, obs: Observation) -> list[int]:
        """Random cards."""
        return self._pick(obs.hand, obs.pass_count)

    def choose_discard(self, obs: Observation) -> tuple[list[int], list[int]]:
        """Random discards and a random order."""
        discard = self._pick(obs.hand, 2)
        kept = [c for c in obs.hand if c not in discard]
        return discard, self._pick(kept, 5)

    def choose_action(self, obs: Observation) -> Action:
        """A random legal action."""
        return self._pick(obs.legal_actions, 1)[0]

    def choose_declaration(self, obs: Observation) -> str:
        """A random declaration (hi-lo rules)."""
        return str(self._pick(["high", "low", "both"], 1)[0])


def as_players(strategies: Any, n: int, name: str = "strategies") -> list[Any]:
    """One player per seat of an ``n``-seat table, from a sequence of specs
    (:func:`as_player`), or a clear error naming ``name``."""
    try:
        if isinstance(strategies, (str, bytes)):
            raise TypeError
        items = list(strategies)
    except TypeError:
        raise TypeError(
            f"{name}={strategies!r} must be a list of {n} strategies, one per seat "
            "(specs like 'sensible:bluff=0.1', Strategy or Player objects)"
        ) from None
    if len(items) != n:
        raise ValueError(f"{len(items)} strategies for {n} players; give one per seat")
    return [as_player(s) for s in items]


def as_player(spec: Any) -> Any:
    """A :class:`Player` or :class:`~anaconda_sim.strategies.Strategy` from a spec.

    Names of built-ins become ``Strategy`` objects; ``Player`` objects are
    returned as they are.
    """
    if isinstance(spec, str):

        return get_strategy(spec)
    if _is_strategy(spec) or isinstance(spec, Player):
        return spec
    raise TypeError(
        f"{spec!r} is neither a strategy name, a Strategy, nor an object with "
        "choose_pass, choose_discard and choose_action"
    )


def _is_strategy(obj: Any) -> bool:
    return all(hasattr(obj, m) for m in ("decide_bet", "decide_pass", "decide_discard"))


def play_deal(
    rules: Rules,
    strategies: Sequence[Any],
    *,
    deck: Sequence[int | str] | str | None = None,
    seed: int | None = None,
    dealer: int = 0,
    key: Any = None,
    deal_index: int = 0,
) -> Game:
    """Play one whole deal and return the finished :class:`~anaconda_sim.game.engine.Game`.

    Its history records the rules, every seat's strategy with its
    parameters, the seed and the root key
    (:meth:`~anaconda_sim.game.history.History.record_model`).

    Parameters
    ----------
    rules
        The rules; ``rules.players`` must equal ``len(strategies)``.
    strategies
        One per seat: a built-in name, a ``Strategy`` or a :class:`Player`.
    deck
        The deck (default: the shuffle of stream 0 under ``key``).
    seed
        Seed of the run (gives ``key = rng.root_key(seed)``) when ``key`` is
        ``None``.
    dealer
        The dealer seat.
    key
        The run's root key (uint64), as used by the batch simulator.
    deal_index
        Index of the deal in its run: selects the deck and decision streams.

    Examples
    --------
    >>> from anaconda_sim.table.rules import Rules
    >>> a = play_deal(Rules(players=4), ["sensible"] * 4, seed=9, deal_index=3)
    >>> b = play_deal(Rules(players=4), ["sensible"] * 4, seed=9, deal_index=3)
    >>> a.history.events == b.history.events
    True
    """
    if not isinstance(rules, Rules):
        raise TypeError(
            f"rules={rules!r} must be a Rules object, not {type(rules).__name__}; "
            "give e.g. Rules(players=6)"
        )
    players = as_players(strategies, rules.players)
    dealer = check_int(dealer, "dealer", low=0, high=rules.players - 1,
                       why=f"seats are 0..{rules.players - 1}")  # fmt: skip
    deal_index = check_deal_index(deal_index)
    if key is None:
        key = _rng.root_key(seed)
    elif seed is not None:
        raise ValueError("give either key or seed, not both")
    key = np.uint64(key)
    if deck is None:
        deck = deck_from_seed(key=key, deal_index=deal_index)
    game = Game(rules, dealer=dealer, deck=deck, deal_index=deal_index)
    # the model of the deal travels with its history (a spot of it is
    # valued under these strategies by default)
    game.history.record_model(players, seed, key)
    states = [_rng.new_state(key, deal_index, _rng.STREAM_SEAT + s) for s in range(rules.players)]
    for seat, player in enumerate(players):
        if hasattr(player, "begin_deal"):
            player.begin_deal(seat, states[seat])
    run_game(game, players, states)
    return game


def run_game(game: Game, players: Sequence[Any], states: Sequence[np.ndarray]) -> Game:
    """Drive ``game`` to the end with one player (or ``Strategy``) per seat.

    ``states[s]`` is seat ``s``'s random stream (used by ``Strategy`` objects;
    :class:`Player` objects got theirs from ``begin_deal``).
    """
    if any(isinstance(player, Strategy) for player in players):
        # every built-in decision the deal will need, compiled at once
        compile_engine_decisions(bool(game.rules.hilo_showdown))
    while game.phase is not Phase.COMPLETE:
        if game.phase is Phase.BETTING:
            seat = game.to_act
            game.act(seat, _decide_action(game, players[seat], seat, states[seat]))
        elif game.phase is Phase.PASS:
            seats = _decision_order(game)
            decisions = [_decide_pass(game, players[s], s, states[s]) for s in seats]
            for seat, cards in zip(seats, decisions, strict=True):
                game.commit_pass(seat, cards)
        elif game.phase is Phase.DECLARE:
            seats = _decision_order(game)
            declared = [_decide_declare(game, players[s], s, states[s]) for s in seats]
            for seat, declaration in zip(seats, declared, strict=True):
                game.commit_declare(seat, declaration)
        else:
            seats = _decision_order(game)
            decisions = [_decide_discard(game, players[s], s, states[s]) for s in seats]
            for seat, (discard, order) in zip(seats, decisions, strict=True):
                game.commit_discard(seat, discard, order)
    return game


def _decision_order(game: Game) -> list[int]:
    """Active seats clockwise starting left of the dealer."""
    n = game.players
    seats = [(game.dealer + 1 + i) % n for i in range(n)]
    return [s for s in seats if not game.folded[s]]


def _decide_action(game: Game, player: Any, seat: int, state: np.ndarray) -> Any:
    if _is_strategy(player):

        pub, own = game.seat_views(seat)
        intent = player.decide_bet(pub, own, state)
        return Action(int(intent_to_action(pub, own, intent)))
    return player.choose_action(game.observation(seat))


def _decide_pass(game: Game, player: Any, seat: int, state: np.ndarray) -> Any:
    if _is_strategy(player):
        pub, own = game.seat_views(seat)
        return [int(c) for c in player.decide_pass(pub, own, state)]
    return player.choose_pass(game.observation(seat))


def _decide_discard(game: Game, player: Any, seat: int, state: np.ndarray) -> Any:
    if _is_strategy(player):
        pub, own = game.seat_views(seat)
        discard, order = player.decide_discard(pub, own, state)
        return [int(c) for c in discard], [int(c) for c in order]
    return player.choose_discard(game.observation(seat))


def _decide_declare(game: Game, player: Any, seat: int, state: np.ndarray) -> Any:

    if _is_strategy(player):
        pub, own = game.seat_views(seat)
        return decide_declare(player, pub, own, state)
    if hasattr(player, "choose_declaration"):
        return player.choose_declaration(game.observation(seat))
    pub, own = game.seat_views(seat)
    return decide_declare(get_strategy("sensible"), pub, own, state)
