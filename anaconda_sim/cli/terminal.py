"""Play Anaconda at the terminal against built-in bots.

:class:`HumanPlayer` is a :class:`~anaconda_sim.game.play.Player` that shows a
person what their seat may see (Unicode suits), lists the legal moves and
reads the answer from a text stream. Bad input is explained and asked again;
the end of input (Ctrl-D) or ``quit`` leaves the game cleanly. With an
``advisor`` (``anaconda-sim play --spots``), the text it gives for the game
and the person's seat is shown before each betting, pass and discard prompt,
and before the reveal order.

Examples
--------
>>> import io
>>> from anaconda_sim.table.rules import Rules
>>> out = io.StringIO()
>>> game = play_terminal(Rules(players=2), human=0, opponents="call-down", seed=1,
...                      input=io.StringIO("fold\\n" * 40), output=out)
>>> game is None or game.is_over
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np

from .. import rng as _rng
from ..cards import CardError, format_cards, parse_cards
from ..checks import check_deal_index, check_int
from ..game.engine import Action, Game, Observation, Phase, deck_from_seed
from ..game.history import PERSON, describe_stage
from ..game.play import Bot, as_players, play_deal, run_game
from ..strategies.spec import Strategy
from ..table.rules import Rules

__all__ = ["ACTION_HELP", "SHORTHANDS", "Advisor", "HumanPlayer", "Quit", "play_terminal"]

#: What ``play_terminal(advisor=...)`` calls before each of the person's
#: decisions: ``advisor(game, seat)`` returns the text to show (the game is
#: the true deal; an advisor must read only what ``seat`` may see); at the
#: reveal order, once the two discards are chosen, ``advisor(game, seat,
#: keep=five)`` with the five cards kept.
Advisor = Callable[..., str]


class Quit(Exception):
    """The person left the game (end of input or ``quit``)."""


#: One-letter answers at the betting prompt and the actions each may mean; the
#: one legal now is taken (``c`` checks when nothing is to call, else calls).
SHORTHANDS: dict[str, tuple[str, ...]] = {
    "f": ("fold",),
    "k": ("check",),
    "x": ("check",),
    "c": ("check", "call"),
    "b": ("bet",),
    "r": ("raise",),
}

#: The help line shown when the game starts.
ACTION_HELP = (
    "Actions: f fold, k or x check, c check or call, b bet, r raise (or type the word); "
    "cards like 'Qs 9h' or 'Q♠ 9♥'; 'quit' leaves."
)


def _parse_action(answer: str, legal: Sequence[Action]) -> list[Action]:
    """The legal actions ``answer`` may mean: a shorthand, the name, or a start of it."""
    if answer in SHORTHANDS:
        return [a for a in legal if a.label in SHORTHANDS[answer]]
    matches = [a for a in legal if a.label == answer]
    if not matches and answer:
        matches = [a for a in legal if a.label.startswith(answer)]
    return matches


def _keys_for(action: Action, legal: Sequence[Action]) -> str:
    """The one-letter keys that choose ``action`` now, e.g. ``"k, x or c"``."""
    keys = [k for k in SHORTHANDS if _parse_action(k, legal) == [action]]
    return " or ".join(keys) if len(keys) < 3 else ", ".join(keys[:-1]) + " or " + keys[-1]


def _cards(cards: Sequence[int]) -> str:
    return format_cards(cards, unicode=True) if len(cards) else "-"


def _interactive(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class HumanPlayer:
    """A person at the terminal.

    Parameters
    ----------
    input, output
        Text streams to read answers from and write to (default: stdin and
        stdout).
    advise
        Called before each betting, pass and discard prompt, and with
        ``keep=`` (the five kept) before the reveal order; the text it
        returns is shown (``None``: nothing is shown).
    """

    name = PERSON  #: what a history records for the seat

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None,
                 advise: Callable[..., str] | None = None) -> None:  # fmt: skip
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.advise = advise
        self.seat = -1
        self._seen_actions = 0

    # --------------------------------------------------------------- I/O --
    def say(self, text: str = "") -> None:
        """Write a line."""
        print(text, file=self.output)

    def ask(self, prompt: str) -> str:
        """Read one answer; raise :class:`Quit` at the end of input or on ``quit``."""
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline()
        if not line:
            self.say()
            raise Quit("end of input")
        answer = line.strip()
        if not _interactive(self.input):
            self.output.write(answer + "\n")  # a transcript reads like a session
        if answer.lower() in {"quit", "exit", "q"}:
            raise Quit("quit")
        return answer

    # ----------------------------------------------------------- display --
    def begin_deal(self, seat: int, state: np.ndarray) -> None:
        """A new deal: remember the seat."""
        self.seat = seat
        self._seen_actions = 0

    def show(self, obs: Observation) -> None:
        """Print what the seat may see now."""
        for rnd, seat, action in obs.actions[self._seen_actions :]:
            who = "you" if seat == obs.seat else f"seat {seat}"
            self.say(f"  round {rnd + 1}: {who} {action}")
        self._seen_actions = len(obs.actions)
        self.say()
        self.say(f"== {self._stage_text(obs)} | pot {obs.pot} | dealer seat {obs.dealer} ==")
        for seat in range(obs.players):
            tag = "you " if seat == obs.seat else "    "
            state = "folded" if obs.folded[seat] else f"in for {obs.invested[seat]}"
            shown = f", shows {_cards(obs.exposed[seat])}" if obs.exposed[seat] else ""
            self.say(f"  {tag}seat {seat}: {state}{shown}")
        self.say(f"Your cards: {_cards(obs.hand)}")
        if obs.passed:
            self.say(f"You passed {_cards(obs.passed)}; you received {_cards(obs.received)}")
        if obs.discards:
            self.say(f"You discarded {_cards(obs.discards)}")

    def show_advice(self, keep: Sequence[int] | None = None) -> None:
        """Print the advisor's text for the decision at hand, if there is an
        advisor (``keep``: the five kept, at the reveal order)."""
        if self.advise is not None:
            self.say(self.advise() if keep is None else self.advise(keep=list(keep)))

    @staticmethod
    def _stage_text(obs: Observation) -> str:
        """The header of a decision; rounds, passes and reveals count from 1."""
        if obs.phase is Phase.PASS:
            total = len(obs.rules.passes)
            done = obs.stage  # passes applied so far (0-based index of this pass)
            side = "left" if obs.pass_direction > 0 else "right"
            return f"Pass {done + 1} of {total}: {obs.pass_count} card(s) to the {side}"
        if obs.phase is Phase.DISCARD:
            return "Discard"
        return (
            f"Betting round {obs.betting_round + 1} of {obs.rules.betting_rounds}, "
            f"{describe_stage(obs.stage, obs.rules)}"
        )

    # --------------------------------------------------------- decisions --
    def choose_action(self, obs: Observation) -> Action:
        """Ask for a betting action until a legal one is given.

        Accepts the action's name, any unambiguous start of it, or the usual
        one-letter shorthand (:data:`SHORTHANDS`: ``f`` fold, ``k`` or ``x``
        check, ``c`` check or call, ``b`` bet, ``r`` raise).
        """
        self.show(obs)
        self.show_advice()
        legal = obs.legal_actions
        names = ", ".join(a.label for a in legal)
        keys = ", ".join(f"{a.label} ({_keys_for(a, legal)})" for a in legal)
        extra = f" (to call: {obs.to_call})" if obs.to_call else ""
        while True:
            answer = self.ask(f"Your action{extra} [{keys}]: ").lower()
            matches = _parse_action(answer, legal)
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                self.say(f"'{answer}' is ambiguous: type one of {names}")
            elif answer in SHORTHANDS:
                wanted = "/".join(SHORTHANDS[answer])
                self.say(f"'{answer}' ({wanted}) is not legal now: type one of {keys}")
            else:
                self.say(f"'{answer}' is not legal now: type one of {keys}")

    def _read_cards(self, prompt: str, hand: Sequence[int], count: int, what: str) -> list[int]:
        while True:
            answer = self.ask(prompt)
            try:
                cards = parse_cards(answer, count, what=what)
            except CardError as exc:
                self.say(f"{exc}. Type {count} cards like 'Qs 9h' or 'Q♠ 9♥'.")
                continue
            missing = [c for c in cards if c not in hand]
            if missing:
                self.say(f"You do not hold {_cards(missing)}; your cards: {_cards(hand)}")
                continue
            return cards

    def choose_pass(self, obs: Observation) -> list[int]:
        """Ask for the cards to pass."""
        self.show(obs)
        self.show_advice()
        side = "left" if obs.pass_direction > 0 else "right"
        return self._read_cards(
            f"Pass {obs.pass_count} card(s) to the {side}: ", obs.hand, obs.pass_count, "pass"
        )

    def choose_discard(self, obs: Observation) -> tuple[list[int], list[int]]:
        """Ask for two discards, then the reveal order of the kept five."""
        self.show(obs)
        self.show_advice()
        discard = self._read_cards("Discard 2 cards: ", obs.hand, 2, "discard")
        kept = [c for c in obs.hand if c not in discard]
        if not obs.rules.progressive_reveal:
            return discard, kept
        self.say(f"You keep {_cards(kept)}. The first four are turned up one by one;")
        self.say("the fifth stays hidden until the showdown.")
        self.show_advice(keep=kept)
        while True:
            answer = self.ask("Reveal order, first card first (Enter keeps this order): ")
            if not answer:
                return discard, kept
            try:
                order = parse_cards(answer, 5, what="reveal order")
            except CardError as exc:
                self.say(f"{exc}. Type all five kept cards in the order to reveal them.")
                continue
            if sorted(order) != sorted(kept):
                self.say(f"The order must use exactly your five kept cards: {_cards(kept)}")
                continue
            return discard, order

    def choose_declaration(self, obs: Observation) -> str:
        """Ask for the hi-lo declaration (R22): high, low or both."""
        self.show(obs)
        names = {"h": "high", "l": "low", "b": "both"}
        while True:
            answer = self.ask("Declare high, low or both [h/l/b]: ").strip().lower()
            if answer in names.values():
                return answer
            if answer in names:
                return names[answer]
            self.say(f"'{answer}' is not a declaration: type h (high), l (low) or b (both)")

    def __repr__(self) -> str:
        return "HumanPlayer()"


def _report(game: Game, person: HumanPlayer) -> None:
    """The end of the deal: the actions the person has not seen, the showdown, chips."""
    human, say = person.seat, person.say
    result = game.result
    assert result is not None
    for rnd, seat, action in game.observation(human).actions[person._seen_actions :]:
        who = "you" if seat == human else f"seat {seat}"
        say(f"  round {rnd + 1}: {who} {action}")
    say()
    if result.ended_early:
        winner = result.winners[0]
        who = "You win" if winner == human else f"Seat {winner} wins"
        say(f"{who} the pot of {result.pot}: everyone else folded.")
    else:
        say("Showdown:")
        for hand in result.hands:
            who = "you " if hand.seat == human else "    "
            say(f"  {who}seat {hand.seat}: {_cards(hand.cards)}  {hand.description}")
        names = ", ".join("you" if w == human else f"seat {w}" for w in result.winners)
        say(f"Pot {result.pot} won by {names}.")
    chips = ", ".join(
        f"{'you' if s == human else f'seat {s}'} {n:+d}" for s, n in enumerate(result.net)
    )
    say(f"Chips: {chips}")


def _play_advised(rules: Rules, players: list[Any], person: HumanPlayer, advisor: Advisor, *,
                  seed: int | None, dealer: int, deal_index: int) -> Game:  # fmt: skip
    """:func:`~anaconda_sim.game.play.play_deal`, step by step, so that the
    person's advisor can read the game under way.

    ``play_deal`` builds its game inside and returns it only when finished;
    this is its protocol (the same deck, streams and ``begin_deal`` calls,
    ``tests/cli/test_cli_spot.py`` checks the deal is the same), with the
    game handed to the advisor before it is played.
    """
    players = as_players(players, rules.players)
    dealer = check_int(dealer, "dealer", low=0, high=rules.players - 1,
                       why=f"seats are 0..{rules.players - 1}")  # fmt: skip
    deal_index = check_deal_index(deal_index)
    key = _rng.root_key(seed)
    game = Game(rules, dealer=dealer, deck=deck_from_seed(key=key, deal_index=deal_index),
                deal_index=deal_index)  # fmt: skip
    game.history.record_model(players, seed, key)
    person.advise = lambda **keep: advisor(game, person.seat, **keep)
    states = [_rng.new_state(key, deal_index, _rng.STREAM_SEAT + s) for s in range(rules.players)]
    for seat, player in enumerate(players):
        if hasattr(player, "begin_deal"):
            player.begin_deal(seat, states[seat])
    return run_game(game, players, states)


def play_terminal(
    rules: Rules,
    human: int = 0,
    opponents: str | Sequence[Any] = "sensible",
    *,
    seed: int | None = None,
    dealer: int = 0,
    deal_index: int = 0,
    input: TextIO | None = None,
    output: TextIO | None = None,
    advisor: Advisor | None = None,
) -> Game | None:
    """Play one deal at the terminal as seat ``human`` against bots.

    Parameters
    ----------
    rules
        The rules (table size...).
    human
        The person's seat.
    opponents
        A built-in strategy name for every bot, or one strategy per seat (a
        name, a :class:`~anaconda_sim.strategies.Strategy` or a player; the
        entry at ``human`` is ignored).
    seed
        Seed of the deal (cards and bots' decisions).
    dealer
        The dealer seat.
    deal_index
        Index of the deal within the seed (selects the cards and the bots'
        random streams, as ``anaconda-sim play --deal-index``).
    input, output
        Text streams (default: stdin and stdout).
    advisor
        ``advisor(game, human)`` gives text to show before each of the
        person's betting, pass and discard prompts (:data:`Advisor`); the
        deal is the same with or without one.

    Returns
    -------
    Game or None
        The finished game, or ``None`` if the person left before the end.
    """
    n = rules.players
    if not 0 <= human < n:
        raise ValueError(f"human seat {human} is not a seat; seats are 0..{n - 1}")
    person = HumanPlayer(input, output)
    specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
    if len(specs) != n:
        raise ValueError(f"{len(specs)} opponents for {n} seats; give one per seat or one name")
    players: list[Any] = [
        person if s == human else (Bot(spec) if isinstance(spec, (str, Strategy)) else spec)
        for s, spec in enumerate(specs)
    ]
    person.say(
        f"Anaconda ({rules.name}), {n} players. You are seat {human}; "
        f"seat {dealer} deals. Type 'quit' to leave."
    )
    person.say(ACTION_HELP)
    try:
        if advisor is None:
            game = play_deal(rules, players, seed=seed, dealer=dealer, deal_index=deal_index)
        else:
            game = _play_advised(rules, players, person, advisor, seed=seed, dealer=dealer,
                                 deal_index=deal_index)  # fmt: skip
    except Quit:
        person.say("You left the game.")
        return None
    _report(game, person)
    return game
