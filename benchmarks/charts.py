"""Benchmark charts: evaluator throughput beside the peers, and deals per second.

:func:`plot_benchmarks` draws the figures that the scripts of this folder
write to ``benchmarks/results/`` (``bench_evaluator.py``: evaluations per
second; ``bench_deals.py``: simulated deals per second), as charted in
``notebooks/06_benchmarks.ipynb``. The chart lives here, beside the
benchmark scripts, rather than in the library; it is drawn in the style of
:mod:`anaconda_sim.output.plots` with that module's public building blocks.

``benchmarks/`` is a folder of scripts, not a package: put it on
``sys.path`` (as the scripts do for ``_common``) and ``import charts``, or
load this file with :mod:`importlib`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from anaconda_sim.output.plots import (
    BEST_COLOR,
    PALETTE,
    Z95,
    check_frame,
    errorbar_half,
    new_figure,
    numeric,
    tidy,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["plot_benchmarks"]


def _rate_text(rate: float) -> str:
    for scale, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rate >= scale:
            return f"{rate / scale:.3g} {unit}/s"
    return f"{rate:.3g} /s"


def _speedup_text(ratio: float, other: str) -> str:
    if ratio >= 1:
        times = f"{ratio:.2g}" if ratio < 10 else f"{ratio:,.0f}"
        return f"{times}× faster than {other}"
    times = f"{1 / ratio:.2g}" if ratio > 0.1 else f"{1 / ratio:,.0f}"
    return f"{times}× slower than {other}"


def _si(value: float, _pos: Any = None) -> str:
    """Counts with SI prefixes: 2k, 300k, 1.5M, 2G."""
    for scale, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:g}{unit}"
    return f"{value:g}"


def _si_log_axis(axis: Any, decades: float) -> None:
    """SI tick labels on a log axis; 2 and 5 times each power too when few decades show."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    axis.set_major_formatter(FuncFormatter(_si))
    axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))
    axis.set_minor_formatter(FuncFormatter(_si) if decades <= 3 else NullFormatter())


def _summarise(
    df: pd.DataFrame, keys: list[str], column: str, func: str
) -> tuple[pd.DataFrame, str]:
    """Median of repeated runs with their range, or +- 1.96 ``<column>_se``; and a note."""
    frame = df.copy()
    frame[column] = numeric(df, column, func)
    if not (frame[column] > 0).all():
        raise ValueError(f"{func} needs positive numbers in column {column!r} (log scale)")
    grouped = frame.groupby(keys, sort=False, observed=True, dropna=False)[column]
    out = grouped.agg(["median", "min", "max", "count"]).reset_index()
    notes = []
    if (out["count"] > 1).any():
        notes.append("error bars: range of repeated runs")
    se_column = f"{column}_se"
    if se_column in df.columns:
        frame[se_column] = numeric(df, se_column, func)
        se = frame.groupby(keys, sort=False, observed=True, dropna=False)[se_column].median()
        se_values = np.nan_to_num(se.to_numpy(), nan=0.0)
        single = out["count"].to_numpy() == 1
        out.loc[single, "min"] = np.maximum(out["median"] - Z95 * se_values, 0)[single]
        out.loc[single, "max"] = (out["median"] + Z95 * se_values)[single]
        if single.any():
            notes.append("error bars: 95% CI")
    return out, "".join(f"; {n}" for n in notes)


def plot_benchmarks(
    df_eval: pd.DataFrame,
    df_deals: pd.DataFrame | None = None,
    *,
    ours: str = "anaconda-sim",
    fig: Figure | None = None,
) -> Figure:
    """Throughput beside the peer evaluators, and simulated deals per second.

    One panel per evaluation task (``"7-card"``, ``"5-card"``...): a bar per
    library and thread setting on a log scale, labelled with its rate; bars
    of ``ours`` also state the ratio to the fastest and slowest peer.
    Repeated runs of one setting are drawn as their median with the range
    as error bars; a ``rate_se`` column gives ±1.96 SE bars instead.

    Parameters
    ----------
    df_eval
        ``library``, ``task``, ``threads`` (e.g. ``"1 core"``), ``rate``
        (evaluations per second).
    df_deals
        Optional ``players``, ``strategy``, ``threads``, ``deals_per_s``:
        drawn as a panel of deals per second against players.
    ours
        The library whose bars are highlighted and compared with the others.
    fig
        An empty figure to draw in; a new one by default.

    Examples
    --------
    From the repository root, with ``benchmarks/`` on ``sys.path``:

    >>> import sys
    >>> sys.path.insert(0, "benchmarks")
    >>> import pandas as pd
    >>> from charts import plot_benchmarks
    >>> df = pd.DataFrame({"library": ["anaconda-sim", "treys"], "task": "7-card",
    ...                    "threads": "1 core", "rate": [4e7, 1.5e5]})
    >>> fig = plot_benchmarks(df)
    >>> fig.get_suptitle()
    'Throughput: anaconda-sim and peer evaluators'
    >>> [t.get_text() for t in fig.axes[0].texts]
    ['40 M/s', '150 k/s']
    """
    func = "plot_benchmarks"
    check_frame(df_eval, func, ["library", "task", "threads", "rate"])
    if df_deals is not None:
        check_frame(df_deals, func, ["players", "strategy", "threads", "deals_per_s"])
    runs, eval_note = _summarise(df_eval, ["task", "library", "threads"], "rate", func)
    tasks = list(dict.fromkeys(runs["task"].tolist()))
    libraries = list(dict.fromkeys(runs["library"].tolist()))
    peers = [lib for lib in libraries if lib != ours]
    colors = {lib: PALETTE[i % len(PALETTE)] for i, lib in enumerate(peers)}
    colors[ours] = BEST_COLOR
    counts = [int((runs["task"] == t).sum()) for t in tasks]
    height = max(3.6, 1.4 + sum(0.42 * c + 0.9 for c in counts))
    if fig is None:
        fig = new_figure(15.5 if df_deals is not None else 10.0, height)
    grid_spec = fig.add_gridspec(
        len(tasks), 2 if df_deals is not None else 1, height_ratios=[c + 2 for c in counts],
        width_ratios=[1.7, 1] if df_deals is not None else None,
    )  # fmt: skip
    lo = float(np.where(runs["min"] > 0, runs["min"], runs["median"]).min())
    hi = float(runs["max"].max())
    xlim = (lo / 2.5, hi * 9)  # room for the rate at the end of the longest bar
    first_ax = None
    for t, task in enumerate(tasks):
        ax = fig.add_subplot(grid_spec[t, 0], sharex=first_ax)
        first_ax = first_ax or ax
        rows = runs[runs["task"] == task].sort_values("median", ascending=False)
        y = np.arange(len(rows))
        med = rows["median"].to_numpy()
        err = errorbar_half(med, rows["min"].to_numpy(), rows["max"].to_numpy())
        has_err = bool((err > 0).any())
        ax.barh(
            y, med, xerr=err if has_err else None, height=0.68,
            color=[colors[lib] for lib in rows["library"]],
            error_kw={"elinewidth": 1.2, "capsize": 3, "ecolor": "#333333"},
        )  # fmt: skip
        peer_rows = rows[rows["library"] != ours]
        fastest = peer_rows.loc[peer_rows["median"].idxmax()] if len(peer_rows) else None
        slowest = peer_rows.loc[peer_rows["median"].idxmin()] if len(peer_rows) else None
        notes = []
        for yi, (_, row) in zip(y, rows.iterrows(), strict=True):
            mine = row["library"] == ours
            ax.text(
                row["max"] * 1.15, float(yi), _rate_text(row["median"]), va="center", ha="left",
                fontsize=8.5, fontweight="bold" if mine else "normal",
            )  # fmt: skip
            note = ""
            if mine and fastest is not None and slowest is not None:
                fast = _speedup_text(row["median"] / fastest["median"], fastest["library"])
                if fastest.name == slowest.name:
                    note = f"{fast} ({fastest['threads']})"
                else:
                    slow = _speedup_text(row["median"] / slowest["median"], slowest["library"])
                    note = f"{fast} (fastest peer)\n{slow} (slowest peer)"
            notes.append(note)
        labels = [f"{lib}\n{th}" for lib, th in zip(rows["library"], rows["threads"], strict=True)]
        ax.set_yticks(y, labels=labels, fontsize=9)
        for tick, lib in zip(ax.get_yticklabels(), rows["library"], strict=True):
            if lib == ours:
                tick.set_color(BEST_COLOR)
                tick.set_fontweight("bold")
        ax.set_ylim(len(rows) - 0.4, -0.6)
        ax.set_xscale("log")
        ax.set_xlim(*xlim)
        _si_log_axis(ax.xaxis, math.log10(xlim[1] / xlim[0]))
        if any(notes):
            side = ax.secondary_yaxis("right")
            side.set_yticks(y, labels=notes, fontsize=8.5)
            side.tick_params(length=0)
            side.spines["right"].set_visible(False)
            for tick in side.get_yticklabels():
                tick.set_color(BEST_COLOR)
        ax.set_title(f"{task} hand evaluation", fontsize=10.5, loc="left")
        tidy(ax, "x")
        ax.grid(axis="x", which="minor", color="#f0f0f0", linewidth=0.6)
        ax.tick_params(labelbottom=True)
        if t == len(tasks) - 1:
            ax.set_xlabel(f"evaluations per second (log scale{eval_note})", fontsize=10)
    if df_deals is not None:
        ax = fig.add_subplot(grid_spec[:, 1])
        deals, deals_note = _summarise(
            df_deals, ["strategy", "threads", "players"], "deals_per_s", func
        )
        strategies = list(dict.fromkeys(deals["strategy"].tolist()))
        threads = list(dict.fromkeys(deals["threads"].tolist()))
        styles = ("-", "--", ":", "-.")
        for (strategy, thread), rows in deals.groupby(["strategy", "threads"], sort=False):
            rows = rows.sort_values("players")
            x = numeric(rows, "players", func)
            med = rows["median"].to_numpy()
            err = errorbar_half(med, rows["min"].to_numpy(), rows["max"].to_numpy())
            ax.errorbar(
                x, med, yerr=err, fmt="o", linestyle=styles[threads.index(thread) % 4],
                color=PALETTE[strategies.index(strategy) % len(PALETTE)], capsize=3,
                markersize=5, label=f"{strategy} · {thread}",
            )  # fmt: skip
        ax.set_yscale("log")
        xs = np.unique(numeric(deals, "players", func))
        ax.set_xticks(xs.astype(int) if np.allclose(xs, np.round(xs)) else xs)
        ax.set_xlabel("players at the table", fontsize=10)
        ax.set_ylabel(f"simulated deals per second (log scale{deals_note})", fontsize=10)
        ax.set_title("Batch simulator throughput", fontsize=10.5, loc="left")
        positive = deals[["min", "median", "max"]].to_numpy()
        positive = positive[positive > 0]
        _si_log_axis(ax.yaxis, math.log10(positive.max() / positive.min()))
        tidy(ax, "y")
        ax.grid(axis="y", which="minor", color="#f0f0f0", linewidth=0.6)
        ax.legend(fontsize=8.5, title="strategy · threads", title_fontsize=8.5, framealpha=0.9)
    fig.suptitle(f"Throughput: {ours} and peer evaluators", fontsize=12.5)
    return fig
