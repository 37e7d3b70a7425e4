"""``anaconda-sim calibration``: an equity estimate's reliability table on
fresh deals (the parser is :func:`anaconda_sim.cli.parser.register_calibration`).

Prints one line per bin of the prediction: how many decisions fell in it,
the mean prediction, the observed share of the pot with its 95% CI, and the
gap; ``--out`` writes the table, ``--plot`` its reliability diagram.
"""

from __future__ import annotations

import argparse

import pandas as pd

from ..learning.reliability import calibration
from ..output.plots import plot_calibration, save_figure
from ..output.tables import write_table
from ..strategies.spec import short_spec
from .app import Streams

__all__ = ["format_calibration", "run_calibration"]


def format_calibration(table: pd.DataFrame) -> str:
    """The reliability table as text, one bin a line.

    Examples
    --------
    >>> table = pd.DataFrame({"bin": ["0.00-0.50"], "decisions": [10], "fraction": [1.0],
    ...                       "predicted": [0.3], "observed": [0.25], "ci_low": [0.2],
    ...                       "ci_high": [0.3], "gap": [-0.05]})
    >>> print(format_calibration(table))
          bin  decisions  share predicted observed           95% CI     gap
    0.00-0.50         10 100.0%    0.3000   0.2500 [0.2000, 0.3000] -0.0500
    """
    out = pd.DataFrame({
        "bin": table["bin"],
        "decisions": table["decisions"],
        "share": table["fraction"].map(lambda f: f"{100 * f:.1f}%"),
        "predicted": table["predicted"].map(lambda v: f"{v:.4f}"),
        "observed": table["observed"].map(lambda v: f"{v:.4f}"),
        "95% CI": [f"[{lo:.4f}, {hi:.4f}]"
                   for lo, hi in zip(table["ci_low"], table["ci_high"], strict=True)],
        "gap": table["gap"].map(lambda v: f"{v:+.4f}"),
    })  # fmt: skip
    return out.to_string(index=False)


def run_calibration(args: argparse.Namespace, streams: Streams) -> int:
    """Handler of ``anaconda-sim calibration``."""
    table = calibration(args.strategy, args.players, deals=args.deals, seed=args.seed,
                        estimate=args.estimate, bins=args.bins)  # fmt: skip
    attrs = table.attrs
    say = lambda text: print(text, file=streams.stdout)  # noqa: E731
    say(f"calibration of the {attrs['estimate']} estimate - field {attrs['players']} x "
        f"{short_spec(attrs['strategy'])}, {attrs['deals']:,} deals, "
        f"{attrs['decisions']:,} betting decisions, seed {attrs['seed']}")  # fmt: skip
    say(f"estimate: {attrs['estimate_definition']}")
    say(format_calibration(table))
    worst = table.loc[table["fraction"] >= 0.01, "gap"].abs().max()
    say(f"largest gap in a bin holding at least 1% of the decisions: {worst:.4f}")
    if args.out:
        say(f"table written to {write_table(table, args.out)}")
    if args.plot:
        figure = plot_calibration(table)
        say(f"chart written to {save_figure(figure, args.plot, model=attrs)}")
    return 0
