"""The analysis subcommands of ``anaconda-sim``: one per kind of
:data:`anaconda_sim.analysis.registry.KINDS` (pass, discard, reveal, equity,
declare).

Their options are the keywords of the analysis functions, with the same
defaults (:mod:`anaconda_sim.cli.parser` builds them from the registry).
Each command prints what the rows are scored against (the model, the hero's
and the opponents' strategies), then a readable table (best first, with 95%
CIs), and can write the table (``--out`` .csv/.parquet/.json) and a chart
(``--plot`` .png/.svg/.pdf).
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis.registry import AnalysisKind, kind
from ..output import plots
from ..output.plots import FIGURE_FORMATS, save_figure
from ..output.tables import TABLE_FORMATS, format_table, write_table
from ..strategies.spec import short_spec
from .app import Streams
from .strategy_option import parse_option_strategies

__all__ = ["run_analysis"]

#: table size of an analysis when ``--players`` is not given
DEFAULT_PLAYERS = 6

#: the columns that compare rows with one another; the rows of ``equity
#: --all-players`` come from separate tables (one per table size), so there
#: they compare each row only with itself and are not printed
_RANKING = ["rank", "diff_vs_best", "diff_se", "tied_with_best", "p_best"]


def _strategies(args: argparse.Namespace) -> None:
    """``--hero`` and ``--opponents`` parsed (the strategy parser's errors, as they are)."""
    if getattr(args, "hero", None) is not None:
        hero = parse_option_strategies("--hero", args.hero)
        if len(hero) != 1:
            raise ValueError(f"--hero takes one strategy, got {len(hero)} in {args.hero!r}")
        args.hero = hero[0]
    if getattr(args, "opponents", None) is not None:
        opponents = parse_option_strategies("--opponents", args.opponents)
        args.opponents = opponents[0] if len(opponents) == 1 else opponents


def _check(args: argparse.Namespace) -> None:
    """Refuse a combination of options, or an unusable --out or --plot, before any work."""
    if getattr(args, "all_players", False) and args.players is not None:
        raise ValueError("--all-players runs every table size 2-7; omit --players")
    if getattr(args, "by", None) is not None and getattr(args, "confirm", None):
        raise ValueError(
            f"--confirm re-estimates single orders; omit --by {args.by} to use it"
        )
    for option, path, formats in (("--out", args.out, TABLE_FORMATS),
                                  ("--plot", args.plot, tuple(FIGURE_FORMATS))):  # fmt: skip
        if path is None:
            continue
        target = Path(path)
        if target.suffix.lower() not in formats:
            suffix = target.suffix or "(none)"
            raise ValueError(
                f"{option} {path!r}: unknown extension {suffix!r}; use one of {', '.join(formats)}"
            )
        if target.is_dir():
            raise ValueError(f"{option} {path!r} is a directory; name a file inside it")
        if target.exists() and not getattr(args, "force", False):
            raise ValueError(f"{option} {path!r} exists; add --force to overwrite it")
        parent = next((p for p in target.absolute().parents if p.exists()), None)
        if parent is not None and not parent.is_dir():
            raise ValueError(f"{option} {path!r}: {str(parent)!r} is a file, not a folder")


def _keywords(args: argparse.Namespace, analysis: AnalysisKind) -> dict[str, Any]:
    kwargs = {name: getattr(args, name) for name in analysis.options}
    if kwargs.get("seed") is None:
        kwargs["seed"] = secrets.randbelow(2**31)
    return kwargs


def _chart(analysis: AnalysisKind, kwargs: dict[str, Any]) -> Callable[[pd.DataFrame], Any]:
    name = "plot_reveal_by_hidden" if kwargs.get("by") == "hidden" else analysis.chart
    chart: Callable[[pd.DataFrame], Any] = getattr(plots, name)
    return chart


def _header(table: pd.DataFrame) -> list[str]:
    """What the rows were scored against: the model, the hero and the opponents."""
    attrs = table.attrs
    title = f"{attrs.get('analysis', '')} values for {attrs.get('hand', '')}".strip()
    hero = attrs.get("hero")
    hero = short_spec(hero) if hero else "none (no decision of the hero is modelled here)"
    opponents = dict.fromkeys(short_spec(o) for o in attrs.get("opponents", []))
    return [
        f"{title} - {attrs.get('rules', 'pagat')} rules, {attrs.get('players')} players, "
        f"{attrs.get('deals')} deals, seed {attrs.get('seed')}, "
        f"value = {attrs.get('value_unit')}",
        f"hero: {hero}",
        f"opponents: {', '.join(opponents)}",
    ]


def _every_table_size(function: Callable[..., pd.DataFrame], hand: str,
                      kwargs: dict[str, Any]) -> pd.DataFrame:  # fmt: skip
    """``equity --all-players``: one row per table size, 2 to 7, in a ``players`` column."""
    rows = [function(hand, players, **kwargs) for players in range(2, 8)]
    table = pd.concat(rows, ignore_index=True)
    table.attrs = {**rows[0].attrs, "players": "2-7"}
    return table


def run_analysis(args: argparse.Namespace, streams: Streams) -> int:
    """Handler of every analysis subcommand (``args.kind`` names it)."""
    analysis = kind(args.kind)
    _check(args)
    _strategies(args)
    function = analysis.load()
    kwargs = _keywords(args, analysis)
    if getattr(args, "all_players", False):
        table = _every_table_size(function, args.hand, kwargs)
        shown = table.drop(columns=[c for c in _RANKING if c in table])
    else:
        table = function(args.hand, args.players or DEFAULT_PLAYERS, **kwargs)
        shown = table
    say = lambda text: print(text, file=streams.stdout)  # noqa: E731
    for line in _header(table):
        say(line)
    say(format_table(shown, top=args.top))
    if args.out:
        say(f"table written to {write_table(table, args.out)}")
    if args.plot:
        figure = _chart(analysis, kwargs)(table)
        say(f"chart written to {save_figure(figure, args.plot, model=table.attrs)}")
    return 0
