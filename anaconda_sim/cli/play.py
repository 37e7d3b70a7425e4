"""``anaconda-sim play``: one deal among bots, a person against bots, or a
saved deal replayed (the parser is :func:`anaconda_sim.cli.parser.register_play`).
With ``--human SEAT --spots`` the person sees the value of every choice
before each decision (:func:`anaconda_sim.cli.spot.spot_advisor`).

Examples
--------
>>> import argparse, io
>>> from anaconda_sim.cli.app import Streams
>>> from anaconda_sim.cli.parser import build_parser
>>> args = build_parser().parse_args(["play", "--players", "3", "--opponents", "smart"])
>>> run_play(args, Streams(io.StringIO(), io.StringIO(), io.StringIO()))
Traceback (most recent call last):
...
ValueError: --opponents 'smart': unknown strategy 'smart'; built-ins are 'random', ...
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..game.history import History
from ..game.play import play_deal
from ..rng import MAX_DEAL_INDEX
from ..table.rules import Rules
from .app import Streams
from .spot import read_history, spot_advisor
from .strategy_option import parse_option_strategies
from .terminal import Advisor, play_terminal

__all__ = ["run_play"]

_PRESETS = {"pagat": Rules.pagat, "bicycle": Rules.bicycle, "hi-lo": Rules.hilo}


def _check_deal_index(index: int) -> None:
    """Refuse a ``--deal-index`` outside 0..MAX_DEAL_INDEX (the random streams need it)."""
    if not 0 <= index <= MAX_DEAL_INDEX:
        raise ValueError(
            f"--deal-index {index} is out of range; deal indices are 0..{MAX_DEAL_INDEX} "
            "(the random streams take it as a 64-bit integer)"
        )


def _check_save_path(path: str) -> None:
    """Refuse a ``--save`` path that cannot be written, before any deal is played."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"--save {path!r} is a folder; give a file name such as deal.json")
    if not os.path.isdir(folder):
        raise ValueError(f"--save {path!r}: the folder {folder!r} does not exist; create it first")


def _save(history: History, path: str) -> None:
    try:
        history.save(path)
    except OSError as exc:
        raise ValueError(
            f"cannot write --save {path!r}: {exc.strerror or exc}; choose a writable file"
        ) from None


def _check_spots(args: argparse.Namespace) -> None:
    """``--spots`` advises the person: it needs ``--human`` and rules that spots support."""
    if not args.spots:
        return
    if args.human is None or args.replay is not None:
        raise ValueError("--spots shows the values of your choices as you play: give --human "
                         "SEAT (and no --replay)")  # fmt: skip
    if args.rules != "pagat":
        raise ValueError(f"--spots supports --rules pagat only, not --rules {args.rules}")


def _advisor(args: argparse.Namespace) -> Advisor | None:
    """With ``--spots``: the bots' strategies, as the deal's history records
    them, weigh what they did and play on."""
    if not args.spots:
        return None
    return spot_advisor(deals=args.spot_deals, seed=args.seed)


def _seat_strategies(text: str, n: int, human: int | None) -> list[Any]:
    """``--opponents`` for every seat: one strategy for all, one per seat, or
    (with ``--human``) one per bot in seat order, the person's seat skipped
    (its entry is then ``None``: the person plays it)."""
    names: list[Any] = parse_option_strategies("--opponents", text)
    if len(names) == 1:
        return names * n
    if human is not None and len(names) == n - 1:
        return [*names[:human], None, *names[human:]]
    if len(names) != n:
        bots = f"{n - 1} bots or " if human is not None else ""
        raise ValueError(f"--opponents lists {len(names)} strategies for {n} seats; "
                         f"give one for every seat, or one per seat ({bots}{n} seats)")
    return names


def run_play(args: argparse.Namespace, streams: Streams) -> int:
    """Handler of ``play``."""
    _check_spots(args)
    if args.save is not None:
        _check_save_path(args.save)
    if args.replay is not None:
        if args.human is not None:
            raise ValueError(
                "--replay prints a saved deal and --human plays a new one; give only one"
            )
        history = read_history(args.replay, "--replay")
        if args.save is not None:
            _save(history, args.save)
        text = history.to_json(indent=1) if args.json else history.format()
        print(text, file=streams.stdout)
        return 0
    _check_deal_index(args.deal_index)
    rules = _PRESETS[args.rules](args.players)
    n = rules.players
    if args.human is not None and not 0 <= args.human < n:
        raise ValueError(f"--human {args.human} is not a seat; seats are 0..{n - 1}")
    names = _seat_strategies(args.opponents, n, args.human)
    if not 0 <= args.dealer < n:
        raise ValueError(f"--dealer {args.dealer} is not a seat; seats are 0..{n - 1}")
    if args.human is not None:
        played = play_terminal(rules, args.human, names, seed=args.seed, dealer=args.dealer,
                               deal_index=args.deal_index, input=streams.stdin,
                               output=streams.stdout,
                               advisor=_advisor(args))  # fmt: skip
        if args.save is not None and played is not None:
            _save(played.history, args.save)
        return 0
    game = play_deal(rules, names, seed=args.seed, dealer=args.dealer,
                     deal_index=args.deal_index)  # fmt: skip
    if args.save is not None:
        _save(game.history, args.save)
    text = game.history.to_json(indent=1) if args.json else game.history.format()
    print(text, file=streams.stdout)
    return 0
