"""The reference game engine: one deal of Anaconda as a readable state machine.

:class:`Game` plays one deal move by move under a :class:`~anaconda_sim.table.rules.Rules`
(docs/rules.md R3-R20). It is slow and obviously correct on purpose: it is the
ground truth the batch simulator is tested against deal by deal, the engine
behind hand histories and the game at the terminal.

Flow of a deal (default rules)
------------------------------
ante and deal (R3-R5) -> betting round 1 -> PASS (R7) -> betting round 2 ->
DISCARD (R8) -> reveal 1, betting round 3 -> ... -> reveal 4, betting round 6
-> showdown (R10, R18-R20). A deal ends at once when one seat is left (R17).
Under the hi-lo rules (``Rules.hilo()``, R21-R26) a DECLARE phase comes
between the last betting round and the showdown (R22), and the pot is split
between the best high and the best low among the declarers
(:func:`anaconda_sim.hands.hilo.split_hilo`, R24-R25).

Moves
-----
``act(seat, action)``
    A betting action by the seat to act (``check``, ``bet``, ``call``,
    ``raise``, ``fold``; R13-R16). ``check()``, ``bet()``... act for
    :attr:`Game.to_act`.
``commit_pass(seat, cards)``
    Simultaneous: every active seat commits; the packets move when the last
    one is in (R7).
``commit_discard(seat, discard, order)``
    Simultaneous: two discards and the kept five in reveal order (R8).
``commit_declare(seat, declaration)``
    Hi-lo rules only. Simultaneous and secret: ``"high"``, ``"low"`` or
    ``"both"`` (R22); no seat sees another's declaration until all are in.

Hand order (the batch simulator reproduces it exactly)
------------------------------------------------------
A seat's held cards start in deal order. After a pass its hand is the cards
it did not pass, in their previous order, followed by the received cards in
the order the passer listed them. After the discard its hand is the kept five
in reveal order.

Every illegal move raises a :class:`~anaconda_sim.errors.GameError` and
leaves the game exactly as it was.

Examples
--------
>>> from anaconda_sim.table.rules import Rules
>>> g = Game(Rules(players=3), dealer=0, seed=1)
>>> g.phase, g.to_act, g.pot, g.legal_actions()
(<Phase.BETTING: 'betting'>, 1, 3, (<Action.CHECK: 1>, <Action.BET: 3>))
>>> g.check(); g.bet(); g.fold(); g.call()
>>> g.phase, g.pot
(<Phase.PASS: 'pass'>, 5)
>>> g.act(1, "check")
Traceback (most recent call last):
...
anaconda_sim.errors.WrongPhaseError: seat 1 cannot check: the seats are passing cards (pass 1, ...
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import CardError, format_cards, parse_cards
from ..errors import (
    AlreadyCommittedError,
    GameOverError,
    IllegalActionError,
    IllegalCardsError,
    InvalidSeatError,
    OutOfTurnError,
    SeatFoldedError,
    WrongPhaseError,
)
from ..limits import DECK_SIZE, DISCARD_SIZE, HAND_SIZE, KEPT_SIZE, MAX_PLAYERS, MIN_PLAYERS
from ..table import views as V
from ..table.rules import REVEAL_ROUNDS, Rules
from .history import History

__all__ = [
    "Action",
    "Declaration",
    "Game",
    "Observation",
    "Phase",
    "Result",
    "SeatHand",
    "deck_for_hands",
    "deck_from_seed",
]


class Phase(enum.Enum):
    """What the game waits for."""

    BETTING = "betting"  #: the seat :attr:`Game.to_act` must act
    PASS = "pass"  #: every active seat commits a pass (R7)
    DISCARD = "discard"  #: every active seat commits its discards and order (R8)
    DECLARE = "declare"  #: hi-lo rules: every active seat declares high, low or both (R22)
    COMPLETE = "complete"  #: the deal is over; see :attr:`Game.result`


class Action(enum.IntEnum):
    """Betting actions; the values are the ``A_*`` codes of :mod:`anaconda_sim.table.views`."""

    FOLD = V.A_FOLD
    CHECK = V.A_CHECK
    CALL = V.A_CALL
    BET = V.A_BET
    RAISE = V.A_RAISE

    @property
    def label(self) -> str:
        """The lower-case name (``"raise"``)."""
        return V.ACTION_NAMES[self.value]

    @classmethod
    def parse(cls, action: Action | str | int) -> Action:
        """An :class:`Action` from itself, its name (any case) or its code.

        Examples
        --------
        >>> Action.parse("Raise"), Action.parse(2)
        (<Action.RAISE: 4>, <Action.CALL: 2>)
        >>> Action.parse("allin")
        Traceback (most recent call last):
        ...
        anaconda_sim.errors.IllegalActionError: unknown action 'allin'; actions are fold, check, ...
        """
        if isinstance(action, Action):
            return action
        names = ", ".join(V.ACTION_NAMES)
        if isinstance(action, str):
            key = action.strip().lower()
            if key in V.ACTION_NAMES:
                return cls(V.ACTION_NAMES.index(key))
        elif isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            if 0 <= int(action) < len(V.ACTION_NAMES):
                return cls(int(action))
        raise IllegalActionError(f"unknown action {action!r}; actions are {names}")


class Declaration(enum.IntEnum):
    """Hi-lo declarations (R22); the values are the ``DECLARE_*`` codes of
    :mod:`anaconda_sim.table.views`."""

    HIGH = V.DECLARE_HIGH
    LOW = V.DECLARE_LOW
    BOTH = V.DECLARE_BOTH

    @property
    def label(self) -> str:
        """The lower-case name (``"both"``)."""
        return V.DECLARE_NAMES[self.value]

    @classmethod
    def parse(cls, declaration: Declaration | str | int) -> Declaration:
        """A :class:`Declaration` from itself, its name (any case; ``"swing"`` is
        ``"both"``) or its code.

        Examples
        --------
        >>> Declaration.parse("Low"), Declaration.parse("swing"), Declaration.parse(0)
        (<Declaration.LOW: 1>, <Declaration.BOTH: 2>, <Declaration.HIGH: 0>)
        >>> Declaration.parse("hi")
        Traceback (most recent call last):
        ...
        anaconda_sim.errors.IllegalActionError: unknown declaration 'hi'; declare high, low or both
        """
        if isinstance(declaration, Declaration):
            return declaration
        if isinstance(declaration, str):
            key = declaration.strip().lower()
            key = "both" if key == "swing" else key
            if key in V.DECLARE_NAMES:
                return cls(V.DECLARE_NAMES.index(key))
        elif isinstance(declaration, (int, np.integer)) and not isinstance(declaration, bool):
            if 0 <= int(declaration) < len(V.DECLARE_NAMES):
                return cls(int(declaration))
        raise IllegalActionError(
            f"unknown declaration {declaration!r}; declare high, low or both"
        )


def _names(actions: Iterable[Action]) -> str:
    return ", ".join(a.label for a in actions) or "nothing"


@dataclass(frozen=True)
class SeatHand:
    """A hand shown at the showdown."""

    seat: int
    cards: tuple[int, ...]  #: the showdown cards (kept five, or the seven held)
    best_five: tuple[int, ...]  #: the five that make the hand
    value: int  #: evaluator value, higher is better (R18)
    description: str  #: e.g. ``"full house, queens full of nines"``
    low_value: int = 0  #: hi-lo rules: low value, higher is a better low (R23); else 0
    low_description: str = ""  #: hi-lo rules: e.g. ``"7-5-4-2-A low"``; else ""
    declaration: int = V.NO_DECLARATION  #: hi-lo rules: the seat's ``DECLARE_*`` code

    def __str__(self) -> str:
        return f"seat {self.seat}: {format_cards(self.cards, unicode=True)} ({self.description})"


@dataclass(frozen=True)
class Result:
    """The outcome of a complete deal.

    ``net[s]`` is what seat ``s`` won minus what it put in (antes included);
    the nets sum to zero.
    """

    pot: int
    net: tuple[int, ...]
    payouts: tuple[int, ...]  #: chips each seat takes from the pot
    invested: tuple[int, ...]  #: chips each seat put in
    winners: tuple[int, ...]  #: seats sharing the pot (one when ended early)
    hands: tuple[SeatHand, ...]  #: hands shown at the showdown (empty if ended early)
    ended_early: bool  #: True when everyone else folded (R17)
    #: hi-lo rules: each seat's ``DECLARE_*`` code (``NO_DECLARATION`` for a seat
    #: that folded, and for every seat of a deal ended early, R26); else ()
    declarations: tuple[int, ...] = ()
    high_winners: tuple[int, ...] = ()  #: hi-lo rules: seats sharing the high half
    low_winners: tuple[int, ...] = ()  #: hi-lo rules: seats sharing the low half
    failed_swingers: tuple[int, ...] = ()  #: hi-lo rules: declared both and won nothing (R24)
    high_half: int = 0  #: hi-lo rules: chips of the high half (the pot when low is uncontested)

    def hand(self, seat: int) -> SeatHand | None:
        """The shown hand of ``seat`` (``None`` if it did not reach a showdown)."""
        for h in self.hands:
            if h.seat == seat:
                return h
        return None


@dataclass(frozen=True)
class Observation:
    """Everything one seat may see now (docs/rules.md, Information), and nothing else.

    Cards are card indices; ``hand`` follows the engine's hand order (after
    the discard: the kept five in reveal order). ``pub`` and ``own`` are the
    same information in the flat-array encoding of :mod:`anaconda_sim.table.views`
    (what numba strategies read).
    """

    seat: int
    players: int
    dealer: int
    rules: Rules
    phase: Phase
    stage: int  #: ``pub[P_STAGE]``: 0, passes done, or ``STAGE_REVEAL + r``
    betting_round: int  #: current betting round (0-based), -1 outside betting
    hand: tuple[int, ...]
    passed: tuple[int, ...]  #: cards this seat passed (all passes, in order)
    received: tuple[int, ...]  #: cards this seat received (in order)
    discards: tuple[int, ...]  #: this seat's two discards (empty before)
    exposed: tuple[tuple[int, ...], ...]  #: per seat, the cards it has turned up
    folded: tuple[bool, ...]
    pot: int
    invested: tuple[int, ...]  #: per seat, chips put in this deal (antes included)
    in_round: tuple[int, ...]  #: per seat, chips put in this betting round
    level: int  #: bets + raises in this round
    to_act: int  #: seat to act in a betting round, else -1
    actions: tuple[tuple[int, int, str], ...]  #: betting log: (round, seat, action)
    pass_count: int  #: cards to pass now (0 outside a pass)
    pass_direction: int  #: +1 left, -1 right (0 outside a pass)
    committed: bool  #: this seat has committed in the current pass, discard or declaration
    legal_actions: tuple[Action, ...]  #: when it is this seat's turn, else ()
    #: hi-lo rules: this seat's own declaration once made (``DECLARE_*``), else -1
    declaration: int
    #: hi-lo rules: every seat's declaration, revealed only once all are made
    #: (-1 for each seat before that, and for seats that did not declare)
    declarations: tuple[int, ...]
    pub: np.ndarray = field(repr=False, compare=False)
    own: np.ndarray = field(repr=False, compare=False)

    @property
    def to_call(self) -> int:
        """Chips this seat must put in to call (0 when no bet is pending)."""
        return max(0, self.level * self.rules.bet - self.in_round[self.seat])

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat must act now (a bet, or a commit not yet made)."""
        if self.phase is Phase.BETTING:
            return self.to_act == self.seat
        if self.phase in (Phase.PASS, Phase.DISCARD, Phase.DECLARE):
            return not self.committed and not self.folded[self.seat]
        return False


def deck_from_seed(seed: int | None = None, deal_index: int = 0, key: Any = None) -> list[int]:
    """The full 52-card shuffle of a deal: stream 0 of ``deal_index`` under the key.

    This is exactly how the batch simulator deals: ``rng.deal_cards`` on
    ``rng.new_state(key, deal_index, 0)`` with nothing known, drawing all 52.

    Examples
    --------
    >>> d = deck_from_seed(3)
    >>> len(d), sorted(d) == list(range(52)), d == deck_from_seed(3)
    (52, True, True)
    """
    from .. import rng  # late: loads numba

    if key is None:
        key = rng.root_key(seed)
    out = np.empty(DECK_SIZE, dtype=np.int64)
    state = rng.new_state(np.uint64(key), deal_index, rng.STREAM_DECK)
    rng.deal_cards(state, np.uint64(0), DECK_SIZE, out)
    return [int(c) for c in out]


def deck_for_hands(hands: Sequence[Sequence[int | str] | str], dealer: int = 0) -> list[int]:
    """A deck that deals ``hands[s]`` to seat ``s`` in that order (R5), for set-up deals.

    Examples
    --------
    >>> from anaconda_sim.table.rules import Rules
    >>> hands = ["As Ks Qs Js Ts 9s 8s", "2c 3c 4c 5c 6c 7c 8c"]
    >>> g = Game(Rules(players=2), dealer=1, deck=deck_for_hands(hands, dealer=1))
    >>> format_cards(g.hand(0))
    'As Ks Qs Js Ts 9s 8s'
    """
    parsed = [parse_cards(h, HAND_SIZE, what=f"hand of seat {s}") for s, h in enumerate(hands)]
    n = len(parsed)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"{n} hands given; a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    deck = [parsed[(dealer + 1 + k) % n][k // n] for k in range(HAND_SIZE * n)]
    if len(set(deck)) != len(deck):
        raise ValueError("the hands share a card; every card must be distinct")
    return deck


def _hand_value(cards: Sequence[int]) -> int:
    from ..hands.evaluator import eval_cards  # late: loads numba

    arr = np.asarray(cards, dtype=np.int64)
    return int(eval_cards(arr, len(arr)))


def _exposed_value(cards: Sequence[int]) -> int:
    from ..hands.evaluator import exposed_cards_value  # late: loads numba

    arr = np.asarray(cards, dtype=np.int64)
    return int(exposed_cards_value(arr, len(arr)))


def _best_five(cards: Sequence[int]) -> tuple[int, ...]:
    if len(cards) == KEPT_SIZE:
        return tuple(cards)
    from ..hands.evaluator import best_five_into  # late: loads numba

    arr = np.asarray(cards, dtype=np.int64)
    out = np.empty(len(arr), dtype=np.int64)
    best_five_into(arr, len(arr), out)
    return tuple(int(c) for c in out[:KEPT_SIZE])


def _low_value(cards: Sequence[int]) -> int:
    from ..hands.low import low_value_of  # late: loads numba

    arr = np.asarray(cards, dtype=np.int64)
    return int(low_value_of(arr, len(arr)))


def _describe_low(value: int) -> str:
    from ..hands.low import describe_low  # late: loads numba

    return describe_low(int(value))


def _describe(value: int) -> str:
    from ..hands.evaluator import describe  # late: loads numba

    return str(describe(int(value)))


class Game:
    """One deal of Anaconda, move by move.

    Parameters
    ----------
    rules
        The rules (table size, stakes, pass schedule...).
    dealer
        The dealer seat (R5, R6).
    deck
        The shuffled deck: at least ``7 * players`` distinct cards (indices
        or text); card ``deck[k]`` goes to seat ``(dealer + 1 + k) mod n``
        (R5). If ``None``, the deck is shuffled from ``seed``.
    seed
        Seed of the shuffle when ``deck`` is ``None``
        (:func:`deck_from_seed`); ``None`` draws fresh entropy.
    deal_index
        Index of the deal in its run (selects the random streams).

    Examples
    --------
    >>> from anaconda_sim.table.rules import Rules
    >>> g = Game(Rules(players=2), deck="As Ks Ah Kh Ad Kd Ac Kc Qs Js Qh Jh Qd Jd")
    >>> format_cards(g.hand(1)), format_cards(g.hand(0))
    ('As Ah Ad Ac Qs Qh Qd', 'Ks Kh Kd Kc Js Jh Jd')
    """

    def __init__(
        self,
        rules: Rules,
        dealer: int = 0,
        deck: Sequence[int | str] | str | np.ndarray | None = None,
        seed: int | None = None,
        deal_index: int = 0,
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
        n = rules.players
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)):
            raise TypeError(f"dealer={dealer!r} must be a seat number")
        if not 0 <= int(dealer) < n:
            raise ValueError(f"dealer={dealer} is not a seat; seats are 0..{n - 1}")
        if deck is None:
            cards = deck_from_seed(seed, deal_index)
        else:
            if seed is not None:
                raise ValueError("give either deck or seed, not both")
            try:
                cards = parse_cards(deck, what="deck")
            except CardError as exc:
                raise ValueError(str(exc)) from None
            if len(cards) < HAND_SIZE * n:
                raise ValueError(
                    f"deck has {len(cards)} cards; {n} players need at least {HAND_SIZE * n} (R5)"
                )
        self.rules = rules
        self.players = n
        self.dealer = int(dealer)
        self.deal_index = int(deal_index)
        self.deck: tuple[int, ...] = tuple(cards)

        # --- state (everything snapshot() reports) ---
        self._hands: list[list[int]] = [[] for _ in range(n)]
        for k in range(HAND_SIZE * n):
            self._hands[(self.dealer + 1 + k) % n].append(self.deck[k])
        self._folded = [False] * n
        self._invested = [0] * n
        self._passed: list[list[int]] = [[] for _ in range(n)]
        self._received: list[list[int]] = [[] for _ in range(n)]
        self._discards: list[list[int]] = [[] for _ in range(n)]
        self._exposed: list[list[int]] = [[] for _ in range(n)]
        self._phase = Phase.BETTING
        self._stage = 0
        self._round = -1  # index of the current (or last) betting round
        self._passes_done = 0
        self._discarded = False
        self._revealed = 0
        self._level = 0
        self._in_round = [0] * n
        self._to_act = -1
        self._opener = -1
        self._need: list[int] = []  # seats that must still act this round
        self._pass_commits: dict[int, list[int]] = {}
        self._discard_commits: dict[int, tuple[list[int], list[int]]] = {}
        self._declare_commits: dict[int, int] = {}
        self._declarations = [V.NO_DECLARATION] * n  # revealed once all have declared
        self._log: list[tuple[int, int, int]] = []
        self._result: Result | None = None
        self.history = History(rules, self.dealer, self.deck, self.deal_index)
        if deck is None and seed is not None:
            # the deck is the shuffle of the seed: record it (who plays is
            # recorded by whatever seats the players, play_deal)
            from .. import rng  # late: loads numba

            self.history.seed, self.history.key = int(seed), int(rng.root_key(seed))

        self._event("deal", dealer=self.dealer, deck=list(self.deck),
                    hands=[list(h) for h in self._hands])  # fmt: skip
        for seat in self._clockwise_from_left():
            self._invested[seat] += rules.ante
            self._event("ante", seat=seat, amount=rules.ante)
        self._start_round(self._first_active_left_of_dealer())

    # ================================================================ queries
    @property
    def phase(self) -> Phase:
        """What the game waits for."""
        return self._phase

    @property
    def to_act(self) -> int:
        """The seat to act in a betting round, or -1."""
        return self._to_act if self._phase is Phase.BETTING else -1

    @property
    def pot(self) -> int:
        """Chips in the pot (antes included)."""
        return sum(self._invested)

    @property
    def stage(self) -> int:
        """``pub[P_STAGE]``: 0 before the first pass, k after pass k, 100 + r after reveal r."""
        return self._stage

    @property
    def betting_round(self) -> int:
        """Index of the current betting round (0-based), -1 outside betting."""
        return self._round if self._phase is Phase.BETTING else -1

    @property
    def level(self) -> int:
        """Bets plus raises so far in the current round (0 outside betting)."""
        return self._level if self._phase is Phase.BETTING else 0

    @property
    def invested(self) -> tuple[int, ...]:
        """Chips each seat has put in this deal (antes included)."""
        return tuple(self._invested)

    @property
    def folded(self) -> tuple[bool, ...]:
        """Whether each seat has folded."""
        return tuple(self._folded)

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats still in, in seat order."""
        return tuple(s for s in range(self.players) if not self._folded[s])

    @property
    def revealed(self) -> int:
        """Cards each active seat has turned up (0..4)."""
        return self._revealed

    @property
    def pass_index(self) -> int:
        """Index in ``rules.passes`` of the pass being committed, or of the next one."""
        return self._passes_done

    @property
    def result(self) -> Result | None:
        """The outcome once the phase is ``COMPLETE``, else ``None``."""
        return self._result

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self._phase is Phase.COMPLETE

    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, in hand order (the game sees every hand)."""
        self._check_seat(seat)
        return list(self._hands[seat])

    def exposed(self, seat: int) -> list[int]:
        """The cards ``seat`` has turned up so far."""
        self._check_seat(seat)
        return list(self._exposed[seat])

    def waiting_for(self) -> tuple[int, ...]:
        """Seats whose move the game waits for (the seat to act, or uncommitted seats)."""
        if self._phase is Phase.BETTING:
            return (self._to_act,)
        if self._phase is Phase.PASS:
            return tuple(s for s in self.active_seats if s not in self._pass_commits)
        if self._phase is Phase.DISCARD:
            return tuple(s for s in self.active_seats if s not in self._discard_commits)
        if self._phase is Phase.DECLARE:
            return tuple(s for s in self.active_seats if s not in self._declare_commits)
        return ()

    def has_committed(self, seat: int) -> bool:
        """Whether ``seat`` has committed in the current pass, discard or declaration."""
        if self._phase is Phase.PASS:
            return seat in self._pass_commits
        if self._phase is Phase.DISCARD:
            return seat in self._discard_commits
        if self._phase is Phase.DECLARE:
            return seat in self._declare_commits
        return False

    @property
    def declarations(self) -> tuple[int, ...]:
        """Every seat's ``DECLARE_*`` code, once all active seats have declared
        (hi-lo rules, R22); ``NO_DECLARATION`` (-1) for each seat before that."""
        return tuple(self._declarations)

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Betting actions legal now for ``seat`` (default: the seat to act).

        Empty outside a betting round or when it is not ``seat``'s turn.
        With no bet pending: check or bet (folding is not offered, R13);
        facing a bet: fold, call, and raise while the cap allows (R3).
        """
        if self._phase is not Phase.BETTING:
            return ()
        if seat is None:
            seat = self._to_act
        if seat != self._to_act:
            return ()
        if self._to_call(seat) == 0:
            if self._level < self.rules.max_level:
                return (Action.CHECK, Action.BET)
            return (Action.CHECK,)  # pragma: no cover - not reachable under R15
        if self._level < self.rules.max_level:
            return (Action.FOLD, Action.CALL, Action.RAISE)
        return (Action.FOLD, Action.CALL)

    def to_call(self, seat: int | None = None) -> int:
        """Chips ``seat`` (default: the seat to act) must add to call."""
        if seat is None:
            seat = self._to_act
        if self._phase is not Phase.BETTING or seat < 0:
            return 0
        return self._to_call(seat)

    # ================================================================= moves
    def act(self, seat: int, action: Action | str | int) -> None:
        """A betting action by ``seat`` (R13-R17).

        Raises
        ------
        WrongPhaseError, GameOverError
            Not a betting round now.
        OutOfTurnError
            ``seat`` is not the seat to act.
        IllegalActionError
            The action is not legal now (the message lists the legal ones).
        """
        act = Action.parse(action)
        self._check_seat(seat)
        self._require_phase(Phase.BETTING, seat, act.label)
        if self._folded[seat]:
            raise SeatFoldedError(
                f"seat {seat} cannot {act.label}: it has folded (R16); "
                f"seat {self._to_act} is to act"
            )
        if seat != self._to_act:
            raise OutOfTurnError(
                f"seat {seat} cannot {act.label}: it is seat {self._to_act}'s turn "
                f"(legal for seat {self._to_act}: {_names(self.legal_actions())})"
            )
        legal = self.legal_actions()
        if act not in legal:
            to_call = self._to_call(seat)
            if to_call:
                why = f"seat {seat} faces a bet of {to_call}"
                if act in (Action.BET, Action.RAISE) and self._level >= self.rules.max_level:
                    why += f" and the cap of {self.rules.max_level} bets and raises is reached (R3)"
            else:
                why = "no bet is pending" + (
                    " (folding is not allowed then, R13)" if act is Action.FOLD else ""
                )
            raise IllegalActionError(
                f"seat {seat} cannot {act.label}: {why}; legal: {_names(legal)}"
            )
        self._apply_action(seat, act)

    def check(self) -> None:
        """The seat to act checks."""
        self.act(self._to_act_or_raise("check"), Action.CHECK)

    def bet(self) -> None:
        """The seat to act bets."""
        self.act(self._to_act_or_raise("bet"), Action.BET)

    def call(self) -> None:
        """The seat to act calls."""
        self.act(self._to_act_or_raise("call"), Action.CALL)

    def raise_(self) -> None:
        """The seat to act raises."""
        self.act(self._to_act_or_raise("raise"), Action.RAISE)

    def fold(self) -> None:
        """The seat to act folds."""
        self.act(self._to_act_or_raise("fold"), Action.FOLD)

    def commit_pass(self, seat: int, cards: Sequence[int | str] | str | np.ndarray) -> None:
        """Commit the cards ``seat`` passes in the current pass (R7).

        The packets move only when every active seat has committed: each to
        the next active seat in the pass direction, skipping folded seats.

        Raises
        ------
        WrongPhaseError, GameOverError, SeatFoldedError, AlreadyCommittedError
        IllegalCardsError
            Wrong number of cards, repeated cards, cards not held.
        """
        self._check_seat(seat)
        self._require_phase(Phase.PASS, seat, "pass cards")
        count, _ = self.rules.passes[self._passes_done]
        if self._folded[seat]:
            raise SeatFoldedError(f"seat {seat} cannot pass cards: it has folded (R16)")
        if seat in self._pass_commits:
            raise AlreadyCommittedError(
                f"seat {seat} has already committed its pass "
                f"({format_cards(self._pass_commits[seat])}); waiting for seats "
                f"{_seats(self.waiting_for())}"
            )
        chosen = self._parse_held(seat, cards, count, "pass")
        self._pass_commits[seat] = chosen
        self._event("pass_commit", **{"pass": self._passes_done}, seat=seat, cards=list(chosen))
        if len(self._pass_commits) == len(self.active_seats):
            self._apply_pass()

    def commit_discard(
        self,
        seat: int,
        discard: Sequence[int | str] | str | np.ndarray,
        order: Sequence[int | str] | str | np.ndarray | None = None,
    ) -> None:
        """Commit ``seat``'s two discards and the reveal order of its kept five (R8).

        ``order`` must be a permutation of the held cards minus the discards;
        ``None`` keeps them in hand order. Applied when every active seat has
        committed.

        Raises
        ------
        WrongPhaseError, GameOverError, SeatFoldedError, AlreadyCommittedError
        IllegalCardsError
            Not two distinct held cards, or an order that is not a
            permutation of the kept five.
        """
        self._check_seat(seat)
        self._require_phase(Phase.DISCARD, seat, "discard")
        if self._folded[seat]:
            raise SeatFoldedError(f"seat {seat} cannot discard: it has folded (R16)")
        if seat in self._discard_commits:
            raise AlreadyCommittedError(
                f"seat {seat} has already committed its discard; waiting for seats "
                f"{_seats(self.waiting_for())}"
            )
        dropped = self._parse_held(seat, discard, DISCARD_SIZE, "discard")
        kept = [c for c in self._hands[seat] if c not in dropped]
        if order is None:
            ordered = kept
        else:
            try:
                ordered = parse_cards(order, what="reveal order")
            except CardError as exc:
                raise IllegalCardsError(f"seat {seat} cannot order its cards: {exc}") from None
            if sorted(ordered) != sorted(kept):
                raise IllegalCardsError(
                    f"seat {seat} cannot reveal in the order {format_cards(ordered)}: "
                    f"it must be an ordering of the five kept cards {format_cards(kept)}"
                )
        self._discard_commits[seat] = (list(dropped), list(ordered))
        self._event("discard_commit", seat=seat, discard=list(dropped), order=list(ordered))
        if len(self._discard_commits) == len(self.active_seats):
            self._apply_discard()

    def commit_declare(self, seat: int, declaration: Declaration | str | int) -> None:
        """Commit ``seat``'s declaration: ``"high"``, ``"low"`` or ``"both"`` (R22).

        Hi-lo rules only. Declarations are simultaneous and secret: no seat's
        observation shows another's until every active seat has declared;
        then the showdown follows at once, with no betting (R22), and the pot
        is split (R24-R25).

        Raises
        ------
        WrongPhaseError, GameOverError
            Not the declaration now, or rules without declarations.
        SeatFoldedError, AlreadyCommittedError, InvalidSeatError
        IllegalActionError
            Not ``high``, ``low`` or ``both``.
        """
        self._check_seat(seat)
        if not self.rules.hilo_showdown:
            raise WrongPhaseError(
                f"seat {seat} cannot declare: the {self.rules.name} rules have no declaration "
                "(only the hi-lo rules do, R22: Rules.hilo() or showdown='hi-lo')"
            )
        self._require_phase(Phase.DECLARE, seat, "declare")
        if self._folded[seat]:
            raise SeatFoldedError(f"seat {seat} cannot declare: it has folded (R16, R26)")
        if seat in self._declare_commits:
            raise AlreadyCommittedError(
                f"seat {seat} has already declared; a declaration cannot be changed (R22); "
                f"waiting for seats {_seats(self.waiting_for())}"
            )
        code = Declaration.parse(declaration)
        self._declare_commits[seat] = int(code)
        self._event("declare_commit", seat=seat, declaration=code.label)
        if len(self._declare_commits) == len(self.active_seats):
            self._apply_declare()

    # ================================================================= views
    def seat_views(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """Fresh ``(pub, own)`` int32 arrays for ``seat`` (layout: :mod:`anaconda_sim.table.views`).

        During a pass or discard the public array is the same for every seat
        and does not depend on who has committed (commits are face down).

        Notes
        -----
        How the fields are filled (the batch simulator fills them the same way):

        * ``P_STAGE``: 0 before the first pass, ``k`` once pass ``k`` has
          been applied (so ``k - 1`` passes are done while pass ``k`` is
          being decided, and the discard is decided at stage
          ``len(passes)``), ``STAGE_REVEAL + r`` once reveal ``r`` is done.
        * ``P_ROUND``, ``P_TO_ACT``, ``P_OPENER``: the betting round (0-based,
          counting every round of the deal), the seat to act and the round's
          opener during a betting round; ``-1`` during a pass or discard.
        * ``P_LEVEL`` and ``P_IN_ROUND``: the current round's bets + raises
          and chips per seat; 0 during a pass or discard.
        * ``P_PASS_COUNT``, ``P_PASS_DIR``, ``P_PASS_INDEX``: the pass being
          committed, only in the PASS phase; all 0 otherwise.
        * ``P_INVESTED``, ``P_POT``: antes included. ``P_ACTIVE``: seats not
          folded. ``P_REVEALED``: cards each active seat has turned up.
        * ``P_EXPOSED``: the cards each seat turned up (a folded seat keeps
          what it showed); the fifth card is never there (it is turned up at
          the showdown, when no decision is left).
        * The betting log holds every action of the deal so far, also during
          a pass or discard: :func:`~anaconda_sim.table.views.log_entry`.
        * ``own``: the held cards in hand order (see the module docstring),
          every card passed in the order passed (all passes), every card
          received in the order the passer listed them, the two discards.
        """
        self._check_seat(seat)
        return self._fill_pub(), self._fill_own(seat)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now, as a frozen :class:`Observation`."""
        self._check_seat(seat)
        pub, own = self.seat_views(seat)
        betting = self._phase is Phase.BETTING
        passing = self._phase is Phase.PASS
        count, direction = self.rules.passes[self._passes_done] if passing else (0, 0)
        return Observation(
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            rules=self.rules,
            phase=self._phase,
            stage=self._stage,
            betting_round=self.betting_round,
            hand=tuple(self._hands[seat]),
            passed=tuple(self._passed[seat]),
            received=tuple(self._received[seat]),
            discards=tuple(self._discards[seat]),
            exposed=tuple(tuple(e) for e in self._exposed),
            folded=tuple(self._folded),
            pot=self.pot,
            invested=tuple(self._invested),
            in_round=tuple(self._in_round) if betting else (0,) * self.players,
            level=self.level,
            to_act=self.to_act,
            actions=tuple((r, s, V.ACTION_NAMES[a]) for r, s, a in self._log),
            pass_count=count,
            pass_direction=direction,
            committed=self.has_committed(seat),
            legal_actions=self.legal_actions(seat) if betting else (),
            declaration=self._declare_commits.get(seat, self._declarations[seat]),
            declarations=tuple(self._declarations),
            pub=pub,
            own=own,
        )

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of the whole state as plain Python data (for equality tests)."""
        state = {k: v for k, v in vars(self).items() if k != "history"}
        state["history_events"] = self.history.events
        state = copy.deepcopy(state)
        state["_phase"] = self._phase.value
        state["_need"] = sorted(self._need)
        return state

    # ========================================================== the machine
    def _event(self, kind: str, **data: Any) -> None:
        self.history.events.append({"type": kind, **data})

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise InvalidSeatError(
                f"seat {seat!r} is not a seat number; seats are 0..{self.players - 1}"
            )
        if not 0 <= seat < self.players:
            raise InvalidSeatError(
                f"seat {seat} is not at the table; seats are 0..{self.players - 1}"
            )

    def _phase_text(self) -> str:
        if self._phase is Phase.BETTING:
            return f"betting round {self._round + 1} is on and seat {self._to_act} is to act"
        if self._phase is Phase.PASS:
            count, _ = self.rules.passes[self._passes_done]
            return (
                f"the seats are passing cards (pass {self._passes_done + 1}, {count} cards); "
                "commit with commit_pass"
            )
        if self._phase is Phase.DISCARD:
            return "the seats are discarding; commit with commit_discard"
        if self._phase is Phase.DECLARE:
            return "the seats are declaring high, low or both; commit with commit_declare"
        return "the deal is over"

    def _require_phase(self, phase: Phase, seat: int, what: str) -> None:
        if self._phase is phase:
            return
        cls = GameOverError if self._phase is Phase.COMPLETE else WrongPhaseError
        raise cls(f"seat {seat} cannot {what}: {self._phase_text()}")

    def _to_act_or_raise(self, what: str) -> int:
        if self._phase is not Phase.BETTING:
            cls = GameOverError if self._phase is Phase.COMPLETE else WrongPhaseError
            raise cls(f"cannot {what}: {self._phase_text()}")
        return self._to_act

    def _to_call(self, seat: int) -> int:
        return self._level * self.rules.bet - self._in_round[seat]

    def _parse_held(self, seat: int, cards: Any, count: int, what: str) -> list[int]:
        held = self._hands[seat]
        try:
            chosen = parse_cards(cards, count, what=what)
        except CardError as exc:
            raise IllegalCardsError(
                f"seat {seat} cannot {what} those cards: {exc}; choose {count} of "
                f"{format_cards(held)}"
            ) from None
        missing = [c for c in chosen if c not in held]
        if missing:
            raise IllegalCardsError(
                f"seat {seat} cannot {what} {format_cards(missing)}: not in its hand; "
                f"choose {count} of {format_cards(held)}"
            )
        return chosen

    def _clockwise_from_left(self) -> list[int]:
        """All seats clockwise starting left of the dealer."""
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def _first_active_left_of_dealer(self) -> int:
        for seat in self._clockwise_from_left():
            if not self._folded[seat]:
                return seat
        raise AssertionError("no active seat")  # pragma: no cover

    def _next_active(self, seat: int, direction: int = 1) -> int:
        n = self.players
        for step in range(1, n + 1):
            other = (seat + direction * step) % n
            if not self._folded[other]:
                return other
        raise AssertionError("no active seat")  # pragma: no cover

    # --- betting ---------------------------------------------------------
    def _start_round(self, opener: int) -> None:
        self._round += 1
        self._phase = Phase.BETTING
        self._level = 0
        self._in_round = [0] * self.players
        self._need = [s for s in self._clockwise_from(opener) if not self._folded[s]]
        self._to_act = opener
        self._opener = opener
        self._event("round", round=self._round, stage=self._stage, opener=opener, pot=self.pot)

    def _clockwise_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(self.players)]

    def _apply_action(self, seat: int, act: Action) -> None:
        amount = 0
        if act is Action.FOLD:
            self._folded[seat] = True
            self._need.remove(seat)
        elif act in (Action.CHECK, Action.CALL):
            amount = self._to_call(seat)
            self._need.remove(seat)
        else:  # bet or raise
            self._level += 1
            amount = self._to_call(seat)
            self._need = [s for s in self._clockwise_from(seat)[1:] if not self._folded[s]]
        self._in_round[seat] += amount
        self._invested[seat] += amount
        self._log.append((self._round, seat, int(act)))
        self._event("action", round=self._round, seat=seat, action=act.label,
                    amount=amount, pot=self.pot)  # fmt: skip
        if len(self.active_seats) == 1:
            self._finish(early=True)
        elif not self._need:
            self._end_round()
        else:
            for other in self._clockwise_from(seat)[1:]:
                if other in self._need:
                    self._to_act = other
                    break

    def _end_round(self) -> None:
        self._event("round_end", round=self._round, pot=self.pot)
        self._to_act = -1
        self._level = 0
        self._in_round = [0] * self.players
        self._need = []
        if self._passes_done < len(self.rules.passes):
            self._phase = Phase.PASS
            self._pass_commits = {}
        elif self.rules.discard and not self._discarded:
            self._phase = Phase.DISCARD
            self._discard_commits = {}
        elif self.rules.progressive_reveal and self._revealed < REVEAL_ROUNDS:
            self._reveal_and_bet()
        else:
            self._to_showdown()

    def _to_showdown(self) -> None:
        """After the last betting round: the declaration (hi-lo rules, R22) or the showdown."""
        if self.rules.hilo_showdown:
            self._phase = Phase.DECLARE
            self._declare_commits = {}
        else:
            self._finish(early=False)

    def _apply_declare(self) -> None:
        shown = []
        for seat in self._clockwise_from_left():
            if not self._folded[seat]:
                self._declarations[seat] = self._declare_commits[seat]
                shown.append([seat, V.DECLARE_NAMES[self._declarations[seat]]])
        self._declare_commits = {}
        self._event("declare", declarations=shown)
        self._finish(early=False)

    # --- pass, discard, reveal --------------------------------------------
    def _apply_pass(self) -> None:
        count, direction = self.rules.passes[self._passes_done]
        moves = []
        incoming: dict[int, list[int]] = {}
        for seat in self._clockwise_from_left():
            if self._folded[seat]:
                continue
            target = self._next_active(seat, direction)
            packet = self._pass_commits[seat]
            incoming[target] = packet
            moves.append([seat, target, list(packet)])
        for seat, packet in ((s, self._pass_commits[s]) for s in self.active_seats):
            self._passed[seat].extend(packet)
        for target, packet in incoming.items():
            given = self._pass_commits[target]
            kept = [c for c in self._hands[target] if c not in given]
            self._hands[target] = kept + list(packet)
            self._received[target].extend(packet)
        self._passes_done += 1
        self._stage = self._passes_done
        self._pass_commits = {}
        self._event("pass", **{"pass": self._passes_done - 1}, count=count,
                    direction=direction, moves=moves)  # fmt: skip
        self._start_round(self._first_active_left_of_dealer())

    def _apply_discard(self) -> None:
        for seat in self.active_seats:
            dropped, ordered = self._discard_commits[seat]
            self._discards[seat] = list(dropped)
            self._hands[seat] = list(ordered)
        self._discarded = True
        self._discard_commits = {}
        self._event("discard")
        if self.rules.progressive_reveal:
            self._reveal_and_bet()
        else:
            self._to_showdown()

    def _reveal_and_bet(self) -> None:
        index = self._revealed
        shown = []
        for seat in self._clockwise_from_left():
            if not self._folded[seat]:
                card = self._hands[seat][index]
                self._exposed[seat].append(card)
                shown.append([seat, card])
        self._revealed += 1
        self._stage = V.STAGE_REVEAL + self._revealed
        self._event("reveal", reveal=self._revealed, cards=shown)
        self._start_round(self._reveal_opener())

    def _reveal_opener(self) -> int:
        """R11/R12: the strongest exposed cards open; ties go to the first seat
        clockwise after the dealer."""
        best_seat, best_value = -1, -1
        for seat in self._clockwise_from_left():
            if self._folded[seat]:
                continue
            value = _exposed_value(self._exposed[seat])
            if value > best_value:
                best_seat, best_value = seat, value
        return best_seat

    # --- the end -----------------------------------------------------------
    def _finish(self, early: bool) -> None:
        pot = self.pot
        payouts = [0] * self.players
        hands: list[SeatHand] = []
        hilo: dict[str, Any] = {}
        if early and self.rules.hilo_showdown:
            hilo["declarations"] = tuple(self._declarations)  # none: R26
        if early:
            winners = list(self.active_seats)
            payouts[winners[0]] = pot
            self._event("award", seat=winners[0], amount=pot, reason="folds")
        else:
            # the fifth card is turned up with no betting (R10)
            for seat in self._clockwise_from_left():
                if self._folded[seat]:
                    continue
                cards = tuple(self._hands[seat])
                if self.rules.progressive_reveal:
                    self._exposed[seat] = list(cards)
                value = _hand_value(cards)
                hands.append(SeatHand(seat, cards, _best_five(cards), value, _describe(value)))
            self._event("showdown", hands=[[h.seat, list(h.cards), h.value, h.description]
                                            for h in hands])  # fmt: skip
            if self.rules.hilo_showdown:
                hands, winners, hilo = self._settle_hilo(hands, pot, payouts)
            else:
                top = max(h.value for h in hands)
                winners = [h.seat for h in hands if h.value == top]  # clockwise after the dealer
                share, odd = divmod(pot, len(winners))  # R19
                for i, seat in enumerate(winners):
                    payouts[seat] = share + (1 if i < odd else 0)  # R20
                    self._event("award", seat=seat, amount=payouts[seat], reason="showdown")
        net = tuple(payouts[s] - self._invested[s] for s in range(self.players))
        self._result = Result(
            pot=pot,
            net=net,
            payouts=tuple(payouts),
            invested=tuple(self._invested),
            winners=tuple(winners),
            hands=tuple(hands),
            ended_early=early,
            **hilo,
        )
        self._phase = Phase.COMPLETE
        self._to_act = -1
        self._need = []
        self._event("end", reason="folds" if early else "showdown", net=list(net))

    def _settle_hilo(
        self, hands: list[SeatHand], pot: int, payouts: list[int]
    ) -> tuple[list[SeatHand], list[int], dict[str, Any]]:
        """R23-R25: low values, the split of :func:`~anaconda_sim.hands.hilo.split_hilo`,
        and their events; fills ``payouts``."""
        from ..hands.hilo import SWING_FAILED, WON_HIGH, WON_LOW, split_hilo  # late: loads numba

        n = self.players
        lows = []
        for h in hands:
            low = _low_value(h.cards)
            lows.append(
                SeatHand(h.seat, h.cards, h.best_five, h.value, h.description, low,
                         _describe_low(low), self._declarations[h.seat])
            )  # fmt: skip
        self._event("low_showdown", hands=[[h.seat, h.low_value, h.low_description] for h in lows])
        high = np.zeros(n, np.int64)
        low_values = np.zeros(n, np.int64)
        active = np.zeros(n, np.int64)
        for h in lows:
            high[h.seat] = h.value
            low_values[h.seat] = h.low_value
            active[h.seat] = 1
        declarations = np.array(self._declarations, dtype=np.int64)
        paid = np.zeros(n, np.int64)
        flags = np.zeros(n, np.int64)
        high_half = int(split_hilo(high, low_values, declarations, active, self.dealer, pot,
                                   paid, flags))  # fmt: skip
        order = self._clockwise_from_left()
        failed = [s for s in order if flags[s] & SWING_FAILED]
        high_winners = [s for s in order if flags[s] & WON_HIGH]
        low_winners = [s for s in order if flags[s] & WON_LOW]
        self._event("split", high=high_half, low=pot - high_half, failed=failed)
        winners = [s for s in order if paid[s] > 0]
        for seat in winners:
            payouts[seat] = int(paid[seat])
            halves = [name for name, bit in (("high", WON_HIGH), ("low", WON_LOW))
                      if flags[seat] & bit]  # fmt: skip
            self._event("award", seat=seat, amount=payouts[seat], reason=" and ".join(halves))
        return lows, winners, {
            "declarations": tuple(self._declarations),
            "high_winners": tuple(high_winners),
            "low_winners": tuple(low_winners),
            "failed_swingers": tuple(failed),
            "high_half": high_half,
        }

    # --- views ---------------------------------------------------------------
    def _fill_pub(self) -> np.ndarray:
        pub = V.new_pub()
        rules = self.rules
        betting = self._phase is Phase.BETTING
        pub[V.P_PLAYERS] = self.players
        pub[V.P_DEALER] = self.dealer
        pub[V.P_STAGE] = self._stage
        pub[V.P_ROUND] = self._round if betting else -1
        pub[V.P_NROUNDS] = rules.betting_rounds
        pub[V.P_POT] = self.pot
        pub[V.P_LEVEL] = self._level if betting else 0
        pub[V.P_MAX_LEVEL] = rules.max_level
        pub[V.P_BET_SIZE] = rules.bet
        pub[V.P_TO_ACT] = self._to_act if betting else -1
        pub[V.P_OPENER] = self._opener if betting else -1
        pub[V.P_ACTIVE] = len(self.active_seats)
        if self._phase is Phase.PASS:
            count, direction = rules.passes[self._passes_done]
            pub[V.P_PASS_COUNT] = count
            pub[V.P_PASS_DIR] = direction
            pub[V.P_PASS_INDEX] = self._passes_done
        pub[V.P_REVEALED] = self._revealed
        pub[V.P_FIVE_CARD] = 1 if rules.discard else 0
        if rules.hilo_showdown:
            pub[V.P_HILO] = 1
            pub[V.P_DECLARING] = 1 if self._phase is Phase.DECLARE else 0
            pub[V.P_DECLARED] = V.pack_declarations(self._declarations)
        for seat in range(self.players):
            pub[V.P_FOLDED + seat] = 1 if self._folded[seat] else 0
            pub[V.P_IN_ROUND + seat] = self._in_round[seat] if betting else 0
            pub[V.P_INVESTED + seat] = self._invested[seat]
            for j, card in enumerate(self._exposed[seat][:4]):
                pub[V.P_EXPOSED + 4 * seat + j] = card
        pub[V.P_LOG_LEN] = len(self._log)
        for i, (rnd, seat, code) in enumerate(self._log):
            pub[V.P_LOG + i] = V.log_entry(rnd, seat, code)
        V.fill_summary(pub)
        return pub

    def _fill_own(self, seat: int) -> np.ndarray:
        own = V.new_own(seat)
        hand = self._hands[seat]
        own[V.O_NCARDS] = len(hand)
        own[V.O_CARDS : V.O_CARDS + len(hand)] = hand
        passed, received = self._passed[seat], self._received[seat]
        own[V.O_NPASSED] = len(passed)
        own[V.O_PASSED : V.O_PASSED + len(passed)] = passed
        own[V.O_NRECEIVED] = len(received)
        own[V.O_RECEIVED : V.O_RECEIVED + len(received)] = received
        discards = self._discards[seat]
        own[V.O_DISCARDS : V.O_DISCARDS + len(discards)] = discards
        return own

    def __repr__(self) -> str:
        return (
            f"Game({self.rules.name}, players={self.players}, dealer={self.dealer}, "
            f"phase={self._phase.value}, pot={self.pot})"
        )


def _seats(seats: Iterable[int]) -> str:
    return ", ".join(str(s) for s in seats) or "none"
