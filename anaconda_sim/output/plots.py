"""Charts for notebooks and the command line: choices with their error bars.

Every function takes a DataFrame from :mod:`anaconda_sim.analysis` (or any
frame with the same columns) and returns a :class:`matplotlib.figure.Figure`.
The frames' ``attrs`` add context to titles and axis labels: ``"hand"``,
``"players"``, ``"deals"``, ``"seed"``, ``"rules"``, ``"betting"``,
``"hero"``, ``"opponents"`` (the subtitle says whom the numbers are
against; a sweep's ``opponents`` and ``rules`` columns are read when every
row has the same) and ``"value_unit"``
(the unit of ``value``: ``"pot share"`` or ``"chips per deal"``); ``"title"``
replaces the chart's own title line; ``"ci_level"``
(e.g. ``0.95``) names the confidence level, otherwise it is read from the
ratio of the CI half-width to ``se``.

Figures are made with the object-oriented API and are *not* registered
with pyplot: a notebook displays a returned figure, a script saves it with
:func:`save_figure`, and nothing accumulates in pyplot's figure list when
charts are made in a loop. To draw into a pyplot figure instead, pass
``ax=`` (one-panel charts) or ``fig=`` (several panels). matplotlib is
imported on first use, so importing this module is cheap, and no global
setting (backend, rcParams) is changed.

The building blocks (:data:`PALETTE`, :data:`Z95`, :func:`check_frame`,
:func:`numeric`, :func:`new_figure`, :func:`tidy`, :func:`errorbar_half`)
are public for charts kept elsewhere in the same style, such as the
benchmark charts of ``benchmarks/charts.py``.

Examples
--------
>>> import pandas as pd
>>> from anaconda_sim.output.plots import plot_equity
>>> df = pd.DataFrame({"players": [2, 3], "equity": [0.6, 0.45], "se": [0.01, 0.01]})
>>> fig = plot_equity(df)
>>> fig.axes[0].get_title()
'Equity by number of players'
>>> plot_equity(df.drop(columns="players"))
Traceback (most recent call last):
...
ValueError: plot_equity needs column 'players'; the frame has columns ['equity', 'se']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..cards import format_cards, parse_cards
from ..hands.evaluator import CATEGORY_COLUMNS, CATEGORY_KEYS, CATEGORY_NAMES
from ..provenance import encode, provenance
from ..stats import Z95
from ..strategies.spec import parse_strategies, short_spec

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "BEST_COLOR",
    "CATEGORY_LABELS",
    "OTHER_COLOR",
    "PALETTE",
    "TIED_COLOR",
    "Z95",
    "check_frame",
    "errorbar_half",
    "new_figure",
    "numeric",
    "plot_calibration",
    "plot_categories",
    "plot_declare_values",
    "plot_discard_values",
    "plot_equity",
    "plot_pass_values",
    "plot_reveal_by_hidden",
    "plot_reveal_values",
    "save_figure",
    "tidy",
]

# Okabe-Ito colours: distinct for colour-blind readers and in greyscale.
BEST_COLOR = "#D55E00"  # the best choice (vermillion)
TIED_COLOR = "#0072B2"  # not distinguishable from the best at the CI level (blue)
OTHER_COLOR = "#8C8C8C"  # worse than the best (grey)
# one colour per series, in order
PALETTE = ("#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")

#: category names as charts label them
CATEGORY_LABELS = CATEGORY_NAMES
_CATEGORY_ALIASES = {
    **{name.lower(): i for i, name in enumerate(CATEGORY_LABELS)},
    **{key: i for i, key in enumerate(CATEGORY_KEYS)},
    "highcard": 0, "one pair": 1, "three_of_a_kind": 3, "set": 3,
    "four_of_a_kind": 7, "royal flush": 8,
}  # fmt: skip

#: figure file extensions and their formats
FIGURE_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


# --------------------------------------------------------------------------
# input checks
# --------------------------------------------------------------------------


def check_frame(df: Any, func: str, required: Sequence[str]) -> None:
    """Raise unless ``df`` is a non-empty DataFrame with the ``required`` columns.

    The messages name the chart function ``func`` and the frame's columns.
    """
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{func} needs a pandas DataFrame, got {type(df).__name__}")
    for column in required:
        if column not in df.columns:
            raise ValueError(
                f"{func} needs column {column!r}; the frame has columns {list(df.columns)}"
            )
    if len(df) == 0:
        raise ValueError(f"{func} got an empty frame; there is nothing to plot")


def numeric(df: pd.DataFrame, column: str, func: str) -> np.ndarray:
    """A column as a float array; a ValueError naming ``func`` if it holds no numbers."""
    import pandas as pd

    try:
        values: np.ndarray = pd.to_numeric(df[column], errors="raise").to_numpy(dtype=float)
        return values
    except (TypeError, ValueError):
        raise ValueError(
            f"{func} needs numbers in column {column!r}, got dtype {df[column].dtype}"
        ) from None


def _interval(
    df: pd.DataFrame, func: str, value: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float | None]:
    """(low, high, z): the CI columns, or value +- 1.96 se when only ``se`` is given."""
    se = numeric(df, "se", func) if "se" in df.columns else None
    if "ci_low" in df.columns and "ci_high" in df.columns:
        low, high = numeric(df, "ci_low", func), numeric(df, "ci_high", func)
        z = None
        if se is not None:
            ok = np.isfinite(se) & (se > 0) & np.isfinite(high - low)
            if ok.any():
                z = float(np.median((high - low)[ok] / (2 * se[ok])))
        return low, high, z
    if se is not None:
        return value - Z95 * se, value + Z95 * se, Z95
    missing = "ci_low" if "ci_low" not in df.columns else "ci_high"
    raise ValueError(
        f"{func} needs column {missing!r} (or 'se') to draw the error bars; "
        f"the frame has columns {list(df.columns)}"
    )


def _ci_name(attrs: dict, z: float | None) -> str:
    level = attrs.get("ci_level")
    if level is None and z is not None and np.isfinite(z) and z > 0:
        level = math.erf(z / math.sqrt(2))
    if level is None:
        return "CI"
    level = float(level)
    if level > 1:
        level /= 100
    percent = 100 * level
    text = f"{percent:.0f}" if abs(percent - round(percent)) < 0.05 else f"{percent:.1f}"
    return f"{text}% CI"


def _z_of(attrs: dict, z: float | None) -> float:
    """The z of the CI level: what 'within noise of the best' means for differences."""
    if z is not None and np.isfinite(z) and z > 0:
        return float(z)
    level = attrs.get("ci_level")
    if level is not None:
        from statistics import NormalDist

        level = float(level) / (100 if float(level) > 1 else 1)
        return NormalDist().inv_cdf(0.5 + level / 2)
    return Z95


# --------------------------------------------------------------------------
# text
# --------------------------------------------------------------------------


def _cards_text(text: Any) -> str:
    """Cards as text with suit symbols ('Qs 3s 2c' -> 'Q♠ 3♠ 2♣'); other text unchanged."""
    try:
        return format_cards(parse_cards(str(text)), unicode=True)
    except ValueError:
        return str(text)


def _card_sort_key(text: str) -> tuple[int, int]:
    try:
        cards = parse_cards(text)
    except ValueError:
        return (1, 0)
    return (0, -max(cards)) if cards else (1, 0)


def _model(df: pd.DataFrame) -> dict:
    """The frame's ``attrs``, with the opponents and the rule set read from its
    ``opponents`` and ``rules`` columns when the attrs lack them and every row
    has the same (a sweep's results carry the model in columns)."""
    attrs = dict(df.attrs)
    for key in ("opponents", "rules"):
        if attrs.get(key) or key not in df.columns:
            continue
        values = df[key].dropna().unique()
        if len(values) == 1:
            attrs[key] = _seat_specs(str(values[0])) if key == "opponents" else str(values[0])
    return attrs


def _seat_specs(text: str) -> list[str]:
    """The strategies of an ``opponents`` text (one, or a comma list per seat)."""

    try:
        return [s.spec() for s in parse_strategies(text)]
    except ValueError:
        return [text]


def _subtitle(attrs: dict) -> str:
    """The model of a chart in one line: table size, deals, rules (when not
    the default's), betting, the hero and the opponents, seed."""
    parts = []
    players = attrs.get("players")
    if players is not None:
        parts.append(f"{players} players")
    deals = attrs.get("deals")
    if deals is not None:
        try:
            parts.append(f"{int(deals):,} deals")
        except (TypeError, ValueError):
            parts.append(f"{deals} deals")
    rules = attrs.get("rules")
    if rules and rules != "pagat":
        parts.append(f"{rules} rules")
    betting = attrs.get("betting")
    if betting is not None:
        parts.append("with betting" if betting else "showdown only (no betting)")
    opponents = attrs.get("opponents")
    if opponents:
        if isinstance(opponents, str):
            opponents = [opponents]
        count = isinstance(players, (int, np.integer)) and not isinstance(players, bool)
        parts.append(_opponents_text(list(opponents), attrs.get("hero"), count=count))
    seed = attrs.get("seed")
    if seed is not None:
        parts.append(f"seed {seed}")
    return " · ".join(parts)


def _opponents_text(opponents: list[str], hero: str | None, count: bool = True) -> str:
    """'vs 5 x sensible:continue_late=2' (changed parameters only; tables keep
    all); without ``count`` (a frame over several table sizes) 'vs learned'."""

    specs = [short_spec(str(s)) for s in opponents]
    same = len(set(specs)) == 1
    if same:
        text = f"vs {len(specs)} x {specs[0]}" if count else f"vs {specs[0]}"
    else:
        text = "vs " + ", ".join(specs)
    return f"hero {short_spec(hero)} · {text}" if hero else text


def _title(main: str, attrs: dict) -> str:
    main = str(attrs.get("title") or main)
    hand = attrs.get("hand")
    if hand:
        main = f"{main}: {_cards_text(hand)}"
    sub = _subtitle(attrs)
    return f"{main}\n{sub}" if sub else main


#: how an axis names each ``value_unit`` of the analyses
_UNIT_LABELS = {"pot share": "expected pot share", "chips per deal": "net chips per deal"}


def _value_unit(attrs: dict, default: str = "value") -> str:
    """The axis label of ``value`` for a table's model (older frames: ``value_label``)."""
    unit = str(attrs.get("value_unit") or attrs.get("value_label") or default)
    return _UNIT_LABELS.get(unit, unit)


def _is_share(label: str, *arrays: np.ndarray) -> bool:
    """Whether values are probabilities/shares (drawn as percent)."""
    words = ("share", "probab", "equity", "win rate", "frequency")
    if not any(word in label.lower() for word in words):
        return False
    finite = [a[np.isfinite(a)] for a in arrays]
    return all(((a >= -1e-9) & (a <= 1 + 1e-9)).all() for a in finite)


def _decimals(step: float) -> int:
    """Decimals that resolve differences of size ``step``."""
    if not np.isfinite(step) or step <= 0:
        return 3
    return int(np.clip(math.ceil(-math.log10(step)) + 1, 0, 6))


def _fmt(
    value: float, decimals: int, percent: bool, sign: bool = False, points: bool = False
) -> str:
    """A number as text; shares in percent, or in percentage points (``points``)
    when it is a difference of two shares."""
    if not np.isfinite(value):
        return "n/a"
    number = 100 * value if percent else value
    text = f"{number:+.{decimals}f}" if sign else f"{number:.{decimals}f}"
    text = text.replace("-", "−")
    if not percent:
        return text
    return f"{text} pp" if points else f"{text}%"


# --------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------


def new_figure(width: float, height: float) -> Figure:
    """A figure (constrained layout) that is not registered with pyplot."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _root(ax: Axes) -> Figure:
    """The figure at the top of an axes' parents (past any subfigures)."""
    from matplotlib.figure import Figure

    fig: Any = ax.figure
    while not isinstance(fig, Figure):
        fig = fig.figure
    return fig


def tidy(ax: Axes, grid: Literal["x", "y"] = "x") -> None:
    """The house style: no top and right spines, a light grid along ``grid`` under the data."""
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis=grid, color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)


def _percent_axis(axis: Any, log: bool = False) -> None:
    from matplotlib.ticker import FuncFormatter, PercentFormatter

    if log:
        axis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{100 * v:.3g}%"))
    else:
        axis.set_major_formatter(PercentFormatter(xmax=1))


def _legend_below(ax: Axes, fig: Figure) -> None:
    """A frameless legend under the x label, clear of the data."""
    from matplotlib.transforms import offset_copy

    ncols = 3 if len(ax.get_legend_handles_labels()[0]) <= 3 else 2
    below = offset_copy(ax.transAxes, fig=fig, y=-40, units="points")
    ax.legend(
        loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below, ncols=ncols,
        fontsize=8.5, frameon=False, handletextpad=0.4, columnspacing=1.5,
    )  # fmt: skip


def errorbar_half(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Non-negative error-bar lengths (matplotlib refuses negative ones)."""
    lower = np.where(np.isfinite(low), np.maximum(value - low, 0), 0)
    upper = np.where(np.isfinite(high), np.maximum(high - value, 0), 0)
    return np.vstack([lower, upper])


# --------------------------------------------------------------------------
# ranked choices: passes, discards, reveal orders, hidden cards
# --------------------------------------------------------------------------


def _ranked(df: pd.DataFrame, func: str, value: np.ndarray) -> np.ndarray:
    """Row order, best first: by ``rank`` if present, else by value (highest first)."""
    if "rank" in df.columns:
        key = numeric(df, "rank", func)
        return np.lexsort((-np.nan_to_num(value, nan=-np.inf), key))
    return np.argsort(-np.nan_to_num(value, nan=-np.inf), kind="stable")


def _choices_axes(
    df: pd.DataFrame,
    func: str,
    label_column: str,
    noun: str,
    title: str,
    top: int | None,
    ax: Axes | None,
    labeler: Any = _cards_text,
    row_height: float = 0.25,
) -> Figure:
    check_frame(df, func, [label_column, "value"])
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
        raise ValueError(f"{func}: top must be a positive integer or None, got {top!r}")
    attrs = _model(df)
    value = numeric(df, "value", func)
    low, high, z = _interval(df, func, value)
    order = _ranked(df, func, value)
    total = len(order)
    if top is not None:
        order = order[:top]
    n = len(order)
    labels = [labeler(df[label_column].iloc[i]) for i in order]
    if "count" in df.columns:  # a folded row stands for several choices alike up to suits
        counts = numeric(df, "count", func)[order]
        labels = [f"{text} (×{int(c)})" if c > 1 else text
                  for text, c in zip(labels, counts, strict=True)]  # fmt: skip
    v, lo, hi = value[order], low[order], high[order]

    has_diff = "diff_vs_best" in df.columns and "diff_se" in df.columns
    zz = _z_of(attrs, z)
    tied = np.zeros(n, dtype=bool)
    if has_diff:
        diff = numeric(df, "diff_vs_best", func)[order]
        diff_se = numeric(df, "diff_se", func)[order]
        tied = np.abs(diff) <= zz * diff_se
    tied[0] = False

    value_label = _value_unit(attrs)
    percent = _is_share(value_label, v)
    ci_name = _ci_name(attrs, z)

    if ax is None:
        fig = new_figure(8.8 if has_diff else 7.6, 1.9 + row_height * max(n, 4))
        ax = fig.add_subplot()
    else:
        fig = _root(ax)
    y = np.arange(n)
    err = errorbar_half(v, lo, hi)
    ax.axvspan(lo[0], hi[0], color=BEST_COLOR, alpha=0.12, linewidth=0, label=f"best's {ci_name}")
    ax.axvline(v[0], color=BEST_COLOR, linewidth=1, linestyle="--", alpha=0.8)
    groups = [
        (np.arange(n) == 0, BEST_COLOR, f"best {noun}", 7),
        (tied, TIED_COLOR, f"within noise of best (|Δ| ≤ {zz:.3g}·SE of Δ)", 5.5),
        (~tied & (np.arange(n) > 0), OTHER_COLOR, "worse than best" if has_diff else "others", 5),
    ]
    for mask, color, label, size in groups:
        if mask.any():
            ax.errorbar(
                v[mask], y[mask], xerr=err[:, mask], fmt="o", color=color, ecolor=color,
                markersize=size, elinewidth=1.6, capsize=2.5, label=label, zorder=3,
            )  # fmt: skip
    ax.set_yticks(y, labels=labels, fontsize=9.5)
    ax.set_ylim(n - 0.4, -0.6)
    ax.get_yticklabels()[0].set_color(BEST_COLOR)
    ax.get_yticklabels()[0].set_fontweight("bold")
    if percent:
        _percent_axis(ax.xaxis)
    ax.set_xlabel(f"{value_label} (point: estimate, bar: {ci_name})", fontsize=10)
    shown = f"top {n} of {total}" if n < total else f"all {total}"
    ax.set_ylabel(f"{noun} ({shown}, best first)", fontsize=10)
    ax.set_title(_title(title, attrs), fontsize=11.5)
    tidy(ax, "x")
    if not percent and np.nanmin(lo) < 0 < np.nanmax(hi):
        ax.axvline(0, color="#444444", linewidth=0.9, zorder=1)
    _legend_below(ax, fig)

    if has_diff:
        diff = numeric(df, "diff_vs_best", func)[order]
        diff_se = numeric(df, "diff_se", func)[order]
        finite = diff_se[np.isfinite(diff_se) & (diff_se > 0)]
        step = float(np.median(finite)) if finite.size else float("nan")
        digits = _decimals(100 * step if percent else step)
        diff_labels = [
            "best"
            if i == 0
            else f"{_fmt(d, digits, percent, sign=True, points=True)} ± "
            f"{_fmt(s, digits, percent, points=True)}"
            for i, (d, s) in enumerate(zip(diff, diff_se, strict=True))
        ]
        side = ax.secondary_yaxis("right")
        side.set_yticks(y, labels=diff_labels, fontsize=8.5)
        side.tick_params(length=0)
        for tick, is_tied in zip(side.get_yticklabels(), tied, strict=True):
            tick.set_color(TIED_COLOR if is_tied else "#444444")
        side.get_yticklabels()[0].set_color(BEST_COLOR)
        side.set_ylabel("Δ vs best ± SE (same deals)", fontsize=9.5)
        side.spines["right"].set_visible(False)
    return fig


def plot_pass_values(df: pd.DataFrame, top: int | None = None, ax: Axes | None = None) -> Figure:
    """The value of each of the 35 passes, best first, with confidence intervals.

    Parameters
    ----------
    df
        One row per pass: ``pass`` (cards as text), ``value`` and ``ci_low``,
        ``ci_high`` (or ``se``). Optional: ``rank`` (1 = best; otherwise
        ordered by value), ``diff_vs_best`` and ``diff_se`` (differences on
        common deals: passes within noise of the best are marked, and the
        right axis lists each difference).
    top
        Show only the best ``top`` passes.
    ax
        Axes to draw in; a new figure by default.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"pass": ["Qs 3s 2c", "9c 3s 2c"], "value": [0.31, 0.29],
    ...                    "ci_low": [0.30, 0.28], "ci_high": [0.32, 0.30]})
    >>> fig = plot_pass_values(df)
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['Q♠ 3♠ 2♣', '9♣ 3♠ 2♣']
    """
    return _choices_axes(df, "plot_pass_values", "pass", "pass", "Which 3 cards to pass", top, ax)


def plot_discard_values(
    df: pd.DataFrame, ax: Axes | None = None, *, top: int | None = None
) -> Figure:
    """The value of each of the 21 discards, best first, with confidence intervals.

    Columns as :func:`plot_pass_values`, with ``discard`` (cards as text)
    instead of ``pass``; ``top`` shows only the best ``top`` discards.
    """
    return _choices_axes(
        df, "plot_discard_values", "discard", "discard", "Which 2 cards to discard", top, ax
    )


def plot_declare_values(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Hi-lo: the value of each declaration, best first, with confidence intervals.

    Columns as :func:`plot_pass_values`, with ``declare`` (``high``, ``low``
    or ``both``) instead of ``pass``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"declare": ["low", "high"], "value": [2.0, -1.0],
    ...                    "ci_low": [1.5, -1.5], "ci_high": [2.5, -0.5]})
    >>> [t.get_text() for t in plot_declare_values(df).axes[0].get_yticklabels()]
    ['low', 'high']
    """
    return _choices_axes(df, "plot_declare_values", "declare", "declaration",
                         "What to declare (hi-lo)", None, ax, labeler=str)  # fmt: skip


def plot_reveal_by_hidden(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """The value of keeping each card hidden (one row per hidden card).

    Parameters
    ----------
    df
        ``hidden`` (a card as text), ``value``, ``ci_low``/``ci_high`` (or
        ``se``); optional ``rank``, ``diff_vs_best``, ``diff_se``. Group the
        120 reveal orders first: one row per hidden card.
    ax
        Axes to draw in; a new figure by default.
    """
    func = "plot_reveal_by_hidden"
    check_frame(df, func, ["hidden", "value"])
    duplicated = df["hidden"].map(_cards_text).duplicated()
    if duplicated.any():
        card = _cards_text(df["hidden"][duplicated].iloc[0])
        raise ValueError(
            f"{func} needs one row per hidden card, but {card} appears more than once; "
            "group the reveal orders by hidden card first"
        )
    return _choices_axes(
        df, func, "hidden", "hidden card", "Which card to keep hidden", None, ax, row_height=0.4
    )


def plot_reveal_values(df: pd.DataFrame, top: int = 15, *, fig: Figure | None = None) -> Figure:
    """Reveal orders: a hidden × first-revealed heatmap and the best orders.

    Left: the mean value of the orders in each cell (hidden card by row,
    first revealed card by column; each cell averages the 6 orders of the
    middle three cards), annotated with the mean and ``±`` the mean SE of
    those orders (an upper bound on the SE of their mean). The cell of the
    best order is outlined. Right: the best ``top`` orders with their CIs.

    Parameters
    ----------
    df
        One row per reveal order: ``order`` (5 cards as text in reveal
        order, the last one hidden), ``value``, ``ci_low``/``ci_high`` (or
        ``se``); optional ``hidden`` and ``first`` (else read from
        ``order``), ``rank``, ``diff_vs_best``, ``diff_se``.
    top
        How many orders the right panel lists.
    fig
        An empty figure to draw in; a new one by default.
    """
    from matplotlib.colors import Normalize, TwoSlopeNorm
    from matplotlib.patches import Rectangle

    func = "plot_reveal_values"
    check_frame(df, func, ["order", "value"])
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"{func}: top must be a positive integer, got {top!r}")
    attrs = _model(df)
    value = numeric(df, "value", func)
    _interval(df, func, value)  # checks the CI columns early
    se = numeric(df, "se", func) if "se" in df.columns else None
    orders = [_cards_text(o).split() for o in df["order"]]
    if any(len(o) < 2 for o in orders):
        raise ValueError(f"{func}: column 'order' needs several cards per order")
    if "hidden" in df.columns:
        hidden = [_cards_text(h) for h in df["hidden"]]
    else:
        hidden = [o[-1] for o in orders]
    first = (
        [_cards_text(f) for f in df["first"]] if "first" in df.columns else [o[0] for o in orders]
    )
    best = int(_ranked(df, func, value)[0])
    best_cell = hidden[best], first[best]
    members = attrs.get("members") or {}
    if "count" in df.columns and members:
        # a folded row fills the cell of every order it stands for
        hidden, first, value, se = _unfold_cells(df, members, value, se)
    cards = sorted(dict.fromkeys(hidden + first), key=_card_sort_key)
    index = {card: i for i, card in enumerate(cards)}
    k = len(cards)
    sums, counts, se_sums = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k))
    for h, f, v, s in zip(
        hidden, first, value, se if se is not None else value * np.nan, strict=True
    ):
        if np.isfinite(v):
            sums[index[h], index[f]] += v
            counts[index[h], index[f]] += 1
            se_sums[index[h], index[f]] += s if np.isfinite(s) else 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        grid = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
        se_grid = np.where(counts > 0, se_sums / np.maximum(counts, 1), np.nan)

    value_label = _value_unit(attrs)
    percent = _is_share(value_label, value)
    finite = grid[np.isfinite(grid)]
    vmin, vmax = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    norm: Normalize
    if vmin < 0 < vmax:
        cmap_name, norm = "RdBu", TwoSlopeNorm(vcenter=0.0, vmin=vmin, vmax=vmax)
    else:
        cmap_name, norm = "viridis", Normalize(vmin=vmin, vmax=vmax if vmax > vmin else vmin + 1)
    from matplotlib import colormaps

    cmap = colormaps[cmap_name].with_extremes(bad="#f2f2f2")

    rows_shown = min(top, len(df))
    if fig is None:
        fig = new_figure(14.5, max(6.2, 2.3 + 0.3 * rows_shown))
    grid_spec = fig.add_gridspec(1, 2, width_ratios=[1.0, 1.15])
    heat = fig.add_subplot(grid_spec[0, 0])
    image = heat.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, aspect="equal")
    digits = _decimals((100 if percent else 1) * (vmax - vmin) / 10 if vmax > vmin else vmax)
    se_finite = se_grid[np.isfinite(se_grid)]
    se_digits = _decimals((100 if percent else 1) * float(np.median(se_finite)) / 10)
    se_digits = max(digits, se_digits) if se_finite.size else digits
    for i in range(k):
        for j in range(k):
            if not np.isfinite(grid[i, j]):
                heat.text(j, i, "—", ha="center", va="center", color="#999999", fontsize=11)
                continue
            r, g, b, _ = cmap(norm(grid[i, j]))
            ink = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"
            text = _fmt(grid[i, j], digits, percent)
            if np.isfinite(se_grid[i, j]) and se_grid[i, j] > 0:
                text += f"\n±{_fmt(se_grid[i, j], se_digits, percent)}"
            heat.text(j, i, text, ha="center", va="center", color=ink, fontsize=9, linespacing=1.3)
    heat.set_xticks(range(k), labels=cards, fontsize=11)
    heat.set_yticks(range(k), labels=cards, fontsize=11)
    heat.set_xlabel("first card revealed", fontsize=10)
    heat.set_ylabel("hidden card (never revealed)", fontsize=10)
    heat.xaxis.set_label_position("bottom")
    heat.tick_params(length=0)
    for spine in heat.spines.values():
        spine.set_visible(False)
    bi, bj = index[best_cell[0]], index[best_cell[1]]
    heat.add_patch(
        Rectangle((bj - 0.5, bi - 0.5), 1, 1, fill=False, edgecolor=BEST_COLOR, linewidth=3)
    )
    heat.set_title(
        "Mean value of the orders in each cell\n(± mean SE; outline: cell of the best order)",
        fontsize=10.5,
    )
    bar = fig.colorbar(image, ax=heat, shrink=0.75, pad=0.03)
    bar.set_label(f"{value_label} (mean over orders)", fontsize=9.5)
    if percent:
        _percent_axis(bar.ax.yaxis)

    def order_label(text: Any) -> str:
        cards_ = _cards_text(text).split()
        return " ".join(cards_[:-1]) + f"  [{cards_[-1]}]"

    panel = fig.add_subplot(grid_spec[0, 1])
    _choices_axes(
        df, func, "order", "reveal order", "Best reveal orders", top, panel,
        labeler=order_label,
    )  # fmt: skip
    of = f"{len(df)} orders"
    if "count" in df.columns and len(df) < int(numeric(df, "count", func).sum()):
        of = (f"{len(df)} rows ({int(numeric(df, 'count', func).sum())} orders; ×n: n orders "
              "alike up to the suits)")  # fmt: skip
    panel.set_title(f"Best {rows_shown} of {of}\n(last card in brackets stays hidden)",
                    fontsize=10.5)  # fmt: skip
    fig.suptitle(_title("Which order to reveal", attrs), fontsize=12.5)
    return fig


# --------------------------------------------------------------------------
# equity and categories
# --------------------------------------------------------------------------


def _unfold_cells(
    df: pd.DataFrame, members: dict, value: np.ndarray, se: np.ndarray | None
) -> tuple[list[str], list[str], np.ndarray, np.ndarray | None]:
    """The hidden card, first card, value and SE of every order a folded
    reveal table stands for (``attrs["members"]``: the orders of each row)."""
    rows = [(i, _cards_text(m).split()) for i, text in enumerate(df["order"])
            for m in members.get(str(text), [text])]  # fmt: skip
    index = np.array([i for i, _ in rows], dtype=np.int64)
    return ([o[-1] for _, o in rows], [o[0] for _, o in rows], value[index],
            None if se is None else se[index])  # fmt: skip


def _positive_int(value: Any) -> bool:
    try:
        return int(value) > 0 and int(value) == float(value)
    except (TypeError, ValueError):
        return False


def _label_column(df: pd.DataFrame, candidates: Sequence[str]) -> str | None:
    return next((c for c in candidates if c in df.columns), None)


def _group_values(series: pd.Series) -> list:
    values = list(dict.fromkeys(series.tolist()))
    try:
        return sorted(values)
    except TypeError:
        return values


def plot_equity(df: pd.DataFrame, ax: Axes | None = None, *, label: str | None = None) -> Figure:
    """Equity against the number of players, one line per hand, with CIs.

    Parameters
    ----------
    df
        ``players``, ``value`` (the equity; a sweep's ``equity`` column is
        read too) and ``ci_low``/``ci_high`` (or ``se``); a
        ``label`` or ``hand`` column draws one line per value. Equity in
        [0, 1] is drawn as a percentage, with the even share 1/players.
    ax
        Axes to draw in; a new figure by default.
    label
        The column naming the lines (default ``label``, then ``hand``).
    """
    func = "plot_equity"
    column = "value" if "value" in df.columns else "equity"
    check_frame(df, func, ["players", column])
    if label is not None and label not in df.columns:
        raise ValueError(f"{func} needs column {label!r}; the frame has columns {list(df.columns)}")
    attrs = _model(df)
    players = numeric(df, "players", func)
    equity = numeric(df, column, func)
    low, high, z = _interval(df, func, equity)
    label = label or _label_column(df, ("label", "hand"))
    keys = _group_values(df[label]) if label else [None]
    finite = equity[np.isfinite(equity)]
    percent = bool(((finite >= 0) & (finite <= 1)).all())
    if ax is None:
        fig = new_figure(7.8, 4.8)
        ax = fig.add_subplot()
    else:
        fig = _root(ax)
    spread = 0.08 if len(keys) > 1 else 0.0
    for n, key in enumerate(keys):
        rows = np.ones(len(df), dtype=bool) if key is None else (df[label] == key).to_numpy()
        order = np.argsort(players[rows], kind="stable")
        x, v = players[rows][order], equity[rows][order]
        err = errorbar_half(v, low[rows][order], high[rows][order])
        shift = spread * (n - (len(keys) - 1) / 2)
        color = BEST_COLOR if len(keys) == 1 else PALETTE[n % len(PALETTE)]
        ax.errorbar(
            x + shift, v, yerr=err, fmt="-o", color=color, markersize=5, capsize=3,
            elinewidth=1.4, linewidth=1.6, label=None if key is None else _cards_text(key),
        )  # fmt: skip
    xs = np.unique(players[np.isfinite(players)])
    if percent and xs.size and (xs > 0).all():
        ax.plot(xs, 1 / xs, linestyle=":", color="#555555", linewidth=1.3,
                label="even share (1 / players)")  # fmt: skip
        _percent_axis(ax.yaxis)
    ax.set_xticks(xs.astype(int) if np.allclose(xs, np.round(xs)) else xs)
    ax.set_xlabel("players at the table", fontsize=10)
    unit = _value_unit(attrs, "pot share")
    ax.set_ylabel(f"equity: {unit} ({_ci_name(attrs, z)})", fontsize=10)
    title = "Equity by number of players"
    if len(keys) == 1 and keys[0] is not None and not attrs.get("hand"):
        title += f": {_cards_text(keys[0])}"
    ax.set_title(_title(title, {k: v for k, v in attrs.items() if k != "players"}), fontsize=11.5)
    tidy(ax, "y")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8.5, framealpha=0.9)
    return fig


def plot_calibration(
    df: pd.DataFrame | Sequence[pd.DataFrame], ax: Axes | None = None
) -> Figure:
    """A reliability diagram: an equity estimate's observed rate of winning
    against its prediction, bin by bin, with CIs, against the diagonal.

    Parameters
    ----------
    df
        A table of :func:`~anaconda_sim.calibration` (``predicted``,
        ``observed``, ``ci_low``/``ci_high`` or ``se``, ``fraction``), or
        several, one line each, labelled by their estimate and field (e.g.
        the board-reading estimate beside the win table). A point's size is
        its share of the decisions.
    ax
        Axes to draw in; a new figure by default.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"predicted": [0.1, 0.5, 0.9], "observed": [0.12, 0.48, 0.9],
    ...                    "se": [0.01, 0.02, 0.01], "fraction": [0.5, 0.3, 0.2]})
    >>> df.attrs = {"players": 6, "estimate": "reads", "strategy": "learned"}
    >>> plot_calibration(df).axes[0].get_xlabel()
    'predicted probability of winning the pot'
    """
    func = "plot_calibration"
    frames: list[pd.DataFrame] = [df] if hasattr(df, "columns") else list(df)
    if not frames:
        raise ValueError(f"{func} needs at least one table")
    for frame in frames:
        check_frame(frame, func, ["predicted", "observed", "fraction"])
    if ax is None:
        fig = new_figure(6.4, 6.0)
        ax = fig.add_subplot()
    else:
        fig = _root(ax)
    ax.plot([0, 1], [0, 1], linestyle=":", color="#555555", linewidth=1.3,
            label="calibrated (observed = predicted)")  # fmt: skip
    z = None
    for n, frame in enumerate(frames):
        predicted = numeric(frame, "predicted", func)
        observed = numeric(frame, "observed", func)
        low, high, z = _interval(frame, func, observed)
        size = 20 + 400 * numeric(frame, "fraction", func)
        attrs = frame.attrs
        field = short_spec(str(attrs.get("strategy", "?")))
        label = f"{attrs.get('estimate', 'estimate')} · field {field}"
        color = PALETTE[n % len(PALETTE)]
        ax.errorbar(predicted, observed, yerr=errorbar_half(observed, low, high), fmt="-",
                    color=color, linewidth=1.4, capsize=3, label=label)  # fmt: skip
        ax.scatter(predicted, observed, s=size, color=color, alpha=0.6, zorder=3)
    attrs = dict(frames[0].attrs)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    _percent_axis(ax.xaxis)
    _percent_axis(ax.yaxis)
    ax.set_xlabel("predicted probability of winning the pot", fontsize=10)
    ax.set_ylabel(f"observed share of the pot ({_ci_name(attrs, z)})", fontsize=10)
    keep = {k: attrs[k] for k in ("players", "deals", "seed") if k in attrs}
    ax.set_title(_title("Calibration of the equity estimate", keep), fontsize=11.5)
    tidy(ax, "y")
    ax.legend(fontsize=8.5, framealpha=0.9, loc="upper left")
    return fig


def _category_index(name: Any, func: str) -> int:
    if isinstance(name, (int, np.integer)) and not isinstance(name, bool) and 0 <= name <= 8:
        return int(name)
    key = str(name).strip().lower().removeprefix("cat_")
    if key in _CATEGORY_ALIASES:
        return _CATEGORY_ALIASES[key]
    if key.replace("_", " ") in _CATEGORY_ALIASES:
        return _CATEGORY_ALIASES[key.replace("_", " ")]
    raise ValueError(
        f"{func}: unknown category {name!r}; categories are {', '.join(CATEGORY_LABELS)}"
    )


def plot_categories(
    df: pd.DataFrame,
    ax: Axes | None = None,
    *,
    group: str | None = None,
    log: bool = False,
) -> Figure:
    """The distribution of final hand categories, as bars with error bars.

    Parameters
    ----------
    df
        Long form: ``category`` (a name such as ``"Full house"`` or 0..8) and
        ``probability``; optional ``ci_low``/``ci_high`` or ``se`` (error
        bars) and a group column (one bar colour per group). Wide form: the
        ``cat_high_card`` ... ``cat_straight_flush`` columns of a pass table,
        one group per row (select a few rows first).
    ax
        Axes to draw in; a new figure by default.
    group
        The column that splits the bars (default: the first of ``group``,
        ``label``, ``hand``, ``players``, ``pass``, ``discard`` present).
    log
        Log probability axis (to see quads and straight flushes).
    """
    import pandas as pd

    func = "plot_categories"
    if isinstance(df, pd.DataFrame) and "category" not in df.columns:
        wide = [c for c in CATEGORY_COLUMNS if c in df.columns]
        if wide:
            check_frame(df, func, [])
            label = group or _label_column(df, ("label", "hand", "pass", "discard", "players"))
            keys = df[label].tolist() if label else [f"row {i}" for i in range(len(df))]
            long = pd.DataFrame(
                {
                    "category": [c for _ in keys for c in wide],
                    "probability": df[wide].to_numpy(dtype=float).ravel(),
                    (label or "row"): [k for k in keys for _ in wide],
                }
            )
            long.attrs = dict(df.attrs)
            df, group = long, label or "row"
    check_frame(df, func, ["category", "probability"])
    if group is not None and group not in df.columns:
        raise ValueError(f"{func} needs column {group!r}; the frame has columns {list(df.columns)}")
    attrs = _model(df)
    group = group or _label_column(df, ("group", "label", "hand", "players", "pass", "discard"))
    probability = numeric(df, "probability", func)
    has_error = "se" in df.columns or ("ci_low" in df.columns and "ci_high" in df.columns)
    ci_note = ""
    if has_error:
        low, high, z = _interval(df, func, probability)
    elif _positive_int(attrs.get("deals")):
        # frequencies over independent deals: binomial standard errors
        deals = int(attrs["deals"])
        se = np.sqrt(np.clip(probability * (1 - probability), 0, None) / deals)
        low, high, z = probability - Z95 * se, probability + Z95 * se, Z95
        has_error, ci_note = True, f", binomial over {deals:,} deals"
    else:
        low, high, z = probability, probability, None
    index = np.array([_category_index(c, func) for c in df["category"]])
    keys = _group_values(df[group]) if group else [None]
    if len(keys) > 12:
        raise ValueError(
            f"{func}: {len(keys)} groups in column {group!r} are too many bars; select at most 12"
        )
    if ax is None:
        fig = new_figure(max(8.0, 4 + 0.45 * 9 * min(len(keys), 4) ** 0.5), 5.0)
        ax = fig.add_subplot()
    else:
        fig = _root(ax)
    width = 0.8 / len(keys)
    present = sorted(set(index.tolist()))
    slot = {c: i for i, c in enumerate(present)}
    annotate = len(keys) <= 2
    top = np.nanmax(np.where(np.isfinite(high), high, probability))
    for n, key in enumerate(keys):
        rows = np.ones(len(df), dtype=bool) if key is None else (df[group] == key).to_numpy()
        if np.unique(index[rows]).size != rows.sum():
            raise ValueError(f"{func}: a category appears twice in group {key!r}")
        x = np.array([slot[c] for c in index[rows]]) + width * (n - (len(keys) - 1) / 2)
        p = probability[rows]
        color = PALETTE[n % len(PALETTE)]
        kwargs: dict = {}
        if has_error:
            kwargs = {
                "yerr": errorbar_half(p, low[rows], high[rows]),
                "error_kw": {"elinewidth": 1.2, "capsize": 3, "ecolor": "#333333"},
            }
        label = None if key is None else f"{group} = {_cards_text(key)}"
        ax.bar(x, p, width=width * 0.92, color=color, label=label, **kwargs)
        if annotate:
            for xi, pi, hi in zip(x, p, high[rows], strict=True):
                if np.isfinite(pi):
                    y = hi if has_error and np.isfinite(hi) else pi
                    text = f"{100 * pi:.3g}%" if pi < 0.9995 else "100%"
                    ax.annotate(
                        text, (xi, y * 1.15 if log else y), xytext=(0, 3),
                        textcoords="offset points", ha="center", va="bottom", fontsize=8,
                    )  # fmt: skip
    ax.set_xticks(range(len(present)), labels=[CATEGORY_LABELS[c] for c in present])
    ax.tick_params(axis="x", labelrotation=25, labelsize=9.5)
    for tick in ax.get_xticklabels():
        tick.set_horizontalalignment("right")
        tick.set_rotation_mode("anchor")
    if log:
        ax.set_yscale("log")
        positive = probability[probability > 0]
        if positive.size:
            ax.set_ylim(positive.min() / 3, top * 3)
    else:
        ax.set_ylim(0, top * 1.12)
    _percent_axis(ax.yaxis, log=log)
    ci = f" ({_ci_name(attrs, z)}{ci_note})" if has_error else ""
    ax.set_ylabel(f"probability{ci}{', log scale' if log else ''}", fontsize=10)
    ax.set_xlabel("final category of the best five cards", fontsize=10)
    shown = {k: v for k, v in attrs.items() if not (group and k == group)}
    ax.set_title(_title("Final hand category", shown), fontsize=11.5)
    tidy(ax, "y")
    if group:
        ax.legend(fontsize=8.5, framealpha=0.9)
    return fig


# --------------------------------------------------------------------------
# saving
# --------------------------------------------------------------------------


def save_figure(
    fig: Figure, path: str | Path, *, dpi: int = 150, model: dict | None = None
) -> Path:
    """Write a figure as PNG, SVG or PDF (by the file's extension), making folders.

    ``model``: the ``attrs`` of the table drawn; its provenance record
    (:mod:`~anaconda_sim.provenance`) goes into the file's metadata
    (PNG and SVG ``Description``, PDF ``Subject``). SVG and PDF files carry
    no creation date (files differ only when the figure does).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> save_figure(Figure(), "chart.jpg")
    Traceback (most recent call last):
    ...
    ValueError: cannot save a figure as '.jpg' ('chart.jpg'); use .png, .svg or .pdf
    """
    from matplotlib import rc_context
    from matplotlib.figure import Figure as _Figure

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FIGURE_FORMATS:
        shown = f"{path.suffix!r}" if path.suffix else "a file without an extension"
        raise ValueError(f"cannot save a figure as {shown} ({str(path)!r}); use .png, .svg or .pdf")
    if not isinstance(fig, _Figure):
        raise TypeError(f"save_figure needs a matplotlib Figure, got {type(fig).__name__}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fmt = FIGURE_FORMATS[suffix]
    metadata: dict[str, Any] = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(
        fmt, {}
    )
    if model is not None:

        record = encode(provenance(model))
        metadata["Subject" if fmt == "pdf" else "Description"] = record
    with rc_context({"svg.hashsalt": "anaconda-sim"}):
        fig.savefig(path, format=fmt, dpi=dpi, metadata=metadata, facecolor="white")
    return path
