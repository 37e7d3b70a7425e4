"""``anaconda-sim spot``: the value of every choice at one decision of a saved
deal (the parser is :func:`anaconda_sim.cli.parser.register_spot`), and the
values ``anaconda-sim play --spots`` shows the person (:func:`spot_advisor`).

``spot HISTORY --list`` numbers the moves of a hand history. ``spot HISTORY
--move N`` prints the spot just before move N (what its seat knows), the
model (the hero's and the opponents' strategies, the posterior draws and
their effective sample size) and the value in chips of each legal choice of
that seat, best first (:func:`anaconda_sim.spots.action_values`).

Examples
--------
>>> from anaconda_sim.game import Game
>>> from anaconda_sim.table.rules import Rules
>>> g = Game(Rules(players=3), seed=4)
>>> g.bet(); g.call()
>>> print("\\n".join(move_lines(g.history)))
move  seat  when             what
   1     1  betting round 1  bet
   2     2  betting round 1  call
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..cards import format_cards
from ..game.engine import Game, Phase
from ..game.history import History
from ..game.replayer import load_history
from ..output.tables import TABLE_FORMATS, write_table
from ..spots.field import short_text
from ..spots.posterior import ImpossibleSpotError
from ..spots.state import Spot, spot_of
from ..spots.values import action_values
from ..strategies.spec import Strategy
from .app import Streams
from .strategy_option import parse_option_strategies
from .terminal import Advisor

__all__ = ["aligned", "format_values", "model_lines", "move_lines", "read_history", "run_spot",
           "spot_advisor", "verdict_lines"]  # fmt: skip

#: the heading of the choice column, by the decision of the table
CHOICE_HEADINGS = {"bet": "action", "pass": "pass", "discard": "discard", "order": "order"}

#: rows of the values ``play --spots`` shows (a betting decision has at most three)
ADVICE_ROWS = 5

#: digits of the values in chips
DIGITS = 3


def read_history(path: str, what: str) -> History:
    """The history in ``path``, replayed and checked; a file that cannot be
    read is one error naming ``what`` (the option or argument that gave it).

    Histories that are not valid JSON, or whose moves do not replay, raise
    the replayer's own error (a ``ValueError`` naming the file).
    """
    try:
        return load_history(path)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ValueError(
            f"cannot read {what} {path!r}: {reason}; give a history file written by "
            "`anaconda-sim play --save FILE`"
        ) from None


# ------------------------------------------------------------ the moves --


def _when(event: dict[str, Any], after: int) -> str:
    """When a move was made: its betting round, or the pass or discard after one."""
    kind = event["type"]
    if kind == "action":
        return f"betting round {event['round'] + 1}"
    phase = {"pass_commit": "pass", "discard_commit": "discard"}.get(kind, "declaration")
    return f"{phase} after round {after}"


def _what(event: dict[str, Any], unicode: bool) -> str:
    """What a move was, with the cards of a pass or discard (the file holds them all)."""
    kind = event["type"]
    if kind == "action":
        return str(event["action"])
    if kind == "pass_commit":
        return f"passes {format_cards(event['cards'], unicode=unicode)}"
    if kind == "discard_commit":
        return (f"discards {format_cards(event['discard'], unicode=unicode)}, shows "
                f"{format_cards(event['order'], unicode=unicode)} in order")  # fmt: skip
    return f"declares {event['declaration']}"


def move_lines(history: History, unicode: bool = True) -> list[str]:
    """The moves of ``history`` as a table, numbered from 1 as ``--move`` takes them."""
    rows = []
    after = 0  # the last betting round played: a pass or discard follows it
    for number, event in enumerate(history.moves(), start=1):
        if event["type"] == "action":
            after = event["round"] + 1
        rows.append({"move": number, "seat": event["seat"], "when": _when(event, after),
                     "what": _what(event, unicode)})  # fmt: skip
    if not rows:
        return ["(no moves: the deal was saved before anyone decided)"]
    columns = {name: [str(row[name]) for row in rows] for name in rows[0]}
    return aligned(columns, right={"move", "seat"})


def aligned(columns: dict[str, list[str]], right: set[str]) -> list[str]:
    """Text columns under their headings, two spaces apart: those in ``right``
    aligned right (numbers), the others left.

    Written here, not with ``DataFrame.to_string``, whose alignment of text
    columns changed between pandas versions.

    Examples
    --------
    >>> aligned({"rank": ["1", "12"], "choice": ["fold", "call"]}, right={"rank"})
    ['rank  choice', '   1  fold', '  12  call']
    """
    widths = {name: max([len(name), *map(len, cells)]) for name, cells in columns.items()}

    def cell(name: str, text: str) -> str:
        return text.rjust(widths[name]) if name in right else text.ljust(widths[name])

    count = len(next(iter(columns.values()), []))
    lines = ["  ".join(cell(name, name) for name in columns)]
    lines += ["  ".join(cell(name, cells[i]) for name, cells in columns.items())
              for i in range(count)]  # fmt: skip
    return [line.rstrip() for line in lines]


# ------------------------------------------------------------ the table --


def _number(value: float, sign: str = "") -> str:
    """``value`` to :data:`DIGITS` digits, a rounding error of zero written as zero
    (not ``-0.000``)."""
    value = 0.0 if abs(value) < 0.5 * 10**-DIGITS else float(value)
    return f"{value:{sign}.{DIGITS}f}"


def _versus_best(table: pd.DataFrame) -> list[str]:
    """``diff_vs_best ± diff_se``, as :func:`~anaconda_sim.output.tables.format_table` writes it."""
    return [
        "best" if d == 0 and s == 0 else f"{_number(d, '+')} ± {_number(s)}" + (" tie" if t else "")
        for d, s, t in zip(table["diff_vs_best"], table["diff_se"], table["tied_with_best"],
                           strict=True)
    ]  # fmt: skip


def format_values(table: pd.DataFrame, top: int | None = None) -> str:
    """A readable action-values table: rank, the choice, value, se, the paired
    difference from the best with its se, and ``P(best)``.

    :func:`~anaconda_sim.output.tables.format_table` knows the analyses'
    choice columns only, and shows a CI rather than the se; the conventions
    of its columns are kept.
    """
    shown = table if top is None else table.head(top)
    heading = CHOICE_HEADINGS.get(table.attrs.get("decision", ""), "choice")
    columns = {
        "rank": [str(r) for r in shown["rank"]],
        heading: [str(c) for c in shown["choice"]],
        "value": [_number(v) for v in shown["value"]],
        "se": [_number(v) for v in shown["se"]],
        "vs best (± se)": _versus_best(shown),
        "P(best)": [f"{p:.3f}" for p in shown["p_best"]],
    }
    right = {"rank", "value", "se", "P(best)"}
    return "\n".join(aligned(columns, right))


def _names(specs: Sequence[str]) -> str:
    """Strategy specs, short and each once."""
    return ", ".join(dict.fromkeys(short_text(s) for s in specs))


def model_lines(table: pd.DataFrame) -> list[str]:
    """What the values were computed against: the hero, the opponents, the posterior."""
    a = table.attrs
    return [
        f"{a['decision']} values in chips (the seat's net over the whole deal) - "
        f"{a['rules']} rules, {a['players']} players, seed {a['seed']}",
        f"hero: {_names([a['hero']])} (seat {a['seat']}, after this decision)",
        f"opponents: {_names(a['opponents'])} ({_source(a)})",
        f"posterior: {a['draws']:,} draws ({a['attempts']:,} attempts, {_tries(a['tries'])}), "
        f"effective sample size {a['ess']:,.0f}",
    ]


def verdict_lines(table: pd.DataFrame) -> list[str]:
    """What to read the table with: a warning when the effective sample size
    is low, and one line when no choice is better than another (then, when
    every choice is worth the same on every draw, the table is not shown)."""
    a = table.attrs
    lines = [f"warning: {a['ess_warning']}"] if a.get("ess_warning") else []
    if a.get("summary"):
        lines.append(a["summary"])
    return lines


def _source(attrs: dict[str, Any]) -> str:
    """Where the opponents came from, in the words of the shell."""
    source, recorded = attrs.get("field"), attrs.get("recorded_strategies")
    if source == "recorded":
        return "recorded in the history"
    if source == "assumed":
        return "assumed: the history does not record who played; give --opponents to choose"
    if recorded is None:
        return "given by --opponents; the history does not record who played"
    if attrs.get("field_is_recorded"):
        return "given by --opponents, the ones the history records"
    rivals = [spec for s, spec in enumerate(recorded) if s != attrs.get("seat")]
    return f"given by --opponents; the history records {_names(rivals)}"


def _tries(tries: Any) -> str:
    """The candidates per rival of the posterior sampler: one count, or one per rival."""
    counts = [int(t) for t in tries] if isinstance(tries, (list, tuple)) else [int(tries)]
    if len(set(counts)) <= 1:
        return f"{counts[0] if counts else 0} candidates per rival"
    return f"candidates per rival {', '.join(map(str, counts))}"


# ----------------------------------------------------------- the checks --


def _check_out(path: str | None) -> None:
    """Refuse an ``--out`` that cannot be written, before any work."""
    if path is None:
        return
    target = Path(path)
    if target.suffix.lower() not in TABLE_FORMATS:
        raise ValueError(f"--out {path!r}: unknown extension {target.suffix or '(none)'!r}; "
                         f"use one of {', '.join(TABLE_FORMATS)}")  # fmt: skip
    if target.is_dir():
        raise ValueError(f"--out {path!r} is a directory; name a file inside it")


def _check_move(args: argparse.Namespace, history: History) -> int:
    """``--move``, given and one of the history's moves."""
    count = len(history.moves())
    if count == 0:
        raise ValueError(f"{args.history!r} has no moves: no decision to value")
    if args.move is None:
        raise ValueError(f"give --move N, a move of {args.history!r} (1..{count}); "
                         "--list shows them")  # fmt: skip
    if not 1 <= args.move <= count:
        raise ValueError(f"--move {args.move} is not a move of {args.history!r}: its moves are "
                         f"1..{count} (--list shows them)")  # fmt: skip
    return int(args.move)


def _check_decision(args: argparse.Namespace, spot: Spot) -> None:
    """``--decision`` and ``--keep`` fit each other and the spot."""
    if args.keep is not None and args.decision != "order":
        raise ValueError("--keep is for --decision order (the reveal orders of the five kept)")
    if args.decision == "order" and args.keep is None:
        raise ValueError("--decision order needs --keep CARDS (the five cards kept)")
    if args.decision is not None and spot.phase is not Phase.DISCARD:
        raise ValueError(f"--decision {args.decision} is for a discard; move {spot.move} is a "
                         f"{spot.phase.name.lower()} decision (omit --decision)")  # fmt: skip


def _strategies(args: argparse.Namespace, players: int) -> tuple[Any, Strategy | None]:
    """``--opponents`` (one, or one per seat; ``None`` when not given: the
    recorded ones) and ``--hero`` (one), parsed."""
    hero = None
    if args.hero is not None:
        given = parse_option_strategies("--hero", args.hero)
        if len(given) != 1:
            raise ValueError(f"--hero takes one strategy, got {len(given)} in {args.hero!r}")
        hero = given[0]
    if args.opponents is None:
        return None, hero
    opponents = parse_option_strategies("--opponents", args.opponents)
    if len(opponents) not in (1, players):
        raise ValueError(f"--opponents lists {len(opponents)} strategies for {players} seats; "
                         "give one, or one per seat, seat 0 first")  # fmt: skip
    return (opponents[0] if len(opponents) == 1 else opponents), hero


# -------------------------------------------------------------- command --


def _values(args: argparse.Namespace, spot: Spot, opponents: Any, hero: Strategy | None,
            seed: int) -> pd.DataFrame:  # fmt: skip
    """The action values of the spot, or an impossible spot said in the command's words."""
    # without --tries the library's default holds (one number, kept there)
    tries: dict[str, Any] = {} if args.tries is None else {"tries": args.tries}
    try:
        return action_values(spot, opponents, hero=hero, deals=args.deals, seed=seed,
                             decision=args.decision, keep=args.keep, unicode=args.unicode,
                             **tries)  # fmt: skip
    except ImpossibleSpotError as exc:
        raise ImpossibleSpotError(
            f"{args.history} move {spot.move}: {exc} (here: --opponents, --tries)"
        ) from None


def run_spot(args: argparse.Namespace, streams: Streams) -> int:
    """Handler of ``spot``."""
    _check_out(args.out)
    history = read_history(args.history, "HISTORY")
    say = lambda text: print(text, file=streams.stdout)  # noqa: E731
    if args.list:
        for line in move_lines(history, args.unicode):
            say(line)
        return 0
    move = _check_move(args, history)
    opponents, hero = _strategies(args, history.rules.players)
    spot = spot_of(history, move=move, seat=args.seat)
    _check_decision(args, spot)
    # a fresh seed is printed with the model, so the table can be made again
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    table = _values(args, spot, opponents, hero, seed)
    say(spot.describe(args.unicode))
    for line in model_lines(table):
        say(line)
    for line in verdict_lines(table):
        say(line)
    if not table.attrs["all_equal"]:
        say(format_values(table, top=args.top))
    if args.out:
        say(f"table written to {write_table(table, args.out)}")
    return 0


# ---------------------------------------------------------- play --spots --


def advice(game: Game, seat: int, opponents: Sequence[Strategy] | None, deals: int,
           seed: int | None, top: int = ADVICE_ROWS,
           keep: Sequence[int] | None = None) -> str:  # fmt: skip
    """The values of ``seat``'s choices in ``game`` now, as ``play --spots`` shows them
    (``opponents`` ``None``: the strategies the game's history records); with
    ``keep`` (at a discard, the five kept) the values of their reveal orders."""
    field = None if opponents is None else list(opponents)
    decision = None if keep is None else "order"
    try:
        table = action_values(game, field, seat=seat, deals=deals, seed=seed, decision=decision,
                              keep=None if keep is None else list(keep))  # fmt: skip
    except ImpossibleSpotError as exc:
        # the deal goes on without values: the bots' play was too unlikely to sample
        return f"(no values here: {exc})"
    rows = f", best {top} of {len(table)}" if len(table) > top else ""
    a = table.attrs
    against = _names(a["opponents"]) + (" as they play" if a.get("field") == "recorded" else "")
    head = (f"Values in chips of your {a['decision']} choices ({a['draws']:,} deals against "
            f"{against}, effective sample size {a['ess']:,.0f}{rows}):")  # fmt: skip
    lines = [head, *verdict_lines(table)]
    if not a["all_equal"]:
        lines.append(format_values(table, top=top))
    return "\n".join(lines)


def spot_advisor(opponents: Sequence[Strategy] | None = None, *, deals: int,
                 seed: int | None, top: int = ADVICE_ROWS) -> Advisor:  # fmt: skip
    """The advisor of ``play --spots``: :func:`advice` against ``opponents``
    (one strategy per seat; the person's entry is ignored), by default the
    strategies the game records (the bots at the table)."""
    field = None if opponents is None else list(opponents)

    def advise(game: Game, seat: int, keep: Sequence[int] | None = None) -> str:
        return advice(game, seat, field, deals, seed, top, keep)

    return advise
