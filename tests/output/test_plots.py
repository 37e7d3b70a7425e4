"""Charts: titles, labels, error bars, highlighting, input checks, saving (synthetic frames)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.image import AxesImage

from anaconda_sim.cards import format_cards, parse_cards
from anaconda_sim.output import plots

HAND = "Qs Qh 9c 8d 3s 4h 2c"
FIVE = "9c Qs 9d Qh Qd"
Z = 1.959963984540054


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _with_ci(df: pd.DataFrame, se: float, rng: np.random.Generator) -> pd.DataFrame:
    df = df.copy()
    df["se"] = se * (1 + 0.2 * rng.random(len(df)))
    df["ci_low"] = df["value"] - Z * df["se"]
    df["ci_high"] = df["value"] + Z * df["se"]
    df["rank"] = df["value"].rank(ascending=False, method="first").astype(int)
    df["diff_vs_best"] = df["value"] - df["value"].max()
    df["diff_se"] = 0.25 * df["se"]
    return df.sample(frac=1, random_state=1).reset_index(drop=True)  # any row order


def pass_frame(unicode: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    cards = parse_cards(HAND)
    rows = []
    for passed in itertools.combinations(cards, 3):
        keep = [c for c in cards if c not in passed]
        rows.append(
            {
                "pass": format_cards(passed, unicode=unicode),
                "keep": format_cards(keep, unicode=unicode),
                "value": 0.2 + 0.001 * sum(keep) / 10 + 0.01 * rng.random(),
            }
        )
    df = _with_ci(pd.DataFrame(rows), 0.004, rng)
    df["left_gain"] = 0.0
    df["left_gain_se"] = 0.001
    probabilities = rng.dirichlet(np.ones(9), len(df))
    for i, column in enumerate(plots.CATEGORY_COLUMNS):
        df[column] = probabilities[:, i]
    df.attrs = {
        "players": 5, "deals": 20_000, "seed": 3, "hand": HAND, "betting": False,
        "value_unit": "pot share",
    }  # fmt: skip
    return df


def discard_frame() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    rows = [
        {"discard": format_cards(d), "keep": "", "value": rng.normal(0, 0.5)}
        for d in itertools.combinations(parse_cards(HAND), 2)
    ]
    df = _with_ci(pd.DataFrame(rows), 0.05, rng)
    df.attrs = {"players": 4, "deals": 10_000, "betting": True, "value_unit": "chips per deal"}
    return df


def reveal_frame() -> pd.DataFrame:
    rng = np.random.default_rng(2)
    rows = []
    for order in itertools.permutations(parse_cards(FIVE)):
        rows.append(
            {
                "order": format_cards(order, unicode=True),
                "hidden": format_cards(order[-1:], unicode=True),
                "first": format_cards(order[:1], unicode=True),
                "value": 0.3 + 0.001 * order[-1] - 0.0005 * order[0] + 0.001 * rng.random(),
            }
        )
    df = _with_ci(pd.DataFrame(rows), 0.002, rng)
    df.attrs = {"players": 5, "deals": 10_000, "hand": FIVE, "value_unit": "pot share"}
    return df


def hidden_frame() -> pd.DataFrame:
    df = reveal_frame().groupby("hidden", as_index=False).agg(value=("value", "max"))
    df["se"] = 0.002
    df["ci_low"] = df["value"] - Z * df["se"]
    df["ci_high"] = df["value"] + Z * df["se"]
    df.attrs = {"hand": FIVE, "players": 5, "value_unit": "pot share"}
    return df


def equity_frame(labels=("Qs Qh 9c 8d 3s 4h 2c", "As Ah Kd Kc 2s 3d 7h")) -> pd.DataFrame:
    rows = []
    for k, label in enumerate(labels):
        for players in range(2, 8):
            equity = (1.3 + 0.3 * k) / players
            rows.append(
                {"label": label, "players": players, "equity": equity, "se": 0.004,
                 "ci_low": equity - Z * 0.004, "ci_high": equity + Z * 0.004}
            )  # fmt: skip
    return pd.DataFrame(rows)


def category_frame() -> pd.DataFrame:
    p = np.array([0.02, 0.2, 0.35, 0.08, 0.12, 0.1, 0.12, 0.0096, 0.0004])
    df = pd.DataFrame(
        {
            "category": list(plots.CATEGORY_LABELS),
            "probability": p,
            "se": np.sqrt(p * (1 - p) / 1e4),
        }
    )
    df.attrs = {"deals": 10_000, "players": 5}
    return df


def errorbars(ax) -> list[ErrorbarContainer]:
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)]


def points(container: ErrorbarContainer) -> int:
    return len(container.lines[0].get_xdata())


def color(container: ErrorbarContainer) -> str:
    return to_hex(container.lines[0].get_color())


def ticks(labels) -> list[str]:
    return [t.get_text() for t in labels]


# --------------------------------------------------------------------------


def test_import_does_not_load_matplotlib():
    code = "import sys, anaconda_sim.output.plots; print('matplotlib' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "False"


def test_pass_values_chart():
    df = pass_frame()
    fig = plots.plot_pass_values(df)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    title = ax.get_title()
    assert "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣" in title and "5 players" in title and "20,000 deals" in title
    assert "expected pot share" in ax.get_xlabel() and "95% CI" in ax.get_xlabel()
    assert ax.get_ylabel()
    bars = errorbars(ax)
    assert sum(points(c) for c in bars) == 35
    # every point has a horizontal error bar (CI)
    assert all(c.has_xerr for c in bars)
    best = [c for c in bars if color(c) == to_hex(plots.BEST_COLOR)]
    assert len(best) == 1 and points(best[0]) == 1
    assert {color(c) for c in bars} - {to_hex(plots.BEST_COLOR)}, "others drawn in other colours"
    best_row = df.loc[df["rank"] == 1].iloc[0]
    assert best[0].lines[0].get_xdata()[0] == pytest.approx(best_row["value"])
    labels = ticks(ax.get_yticklabels())
    assert labels[0] == format_cards(parse_cards(best_row["pass"]), unicode=True)
    assert all("♠" in t or "♥" in t or "♦" in t or "♣" in t for t in labels)
    assert not any(t.endswith(("s", "h", "d", "c")) for t in labels), "ASCII suits converted"
    # reference band for the best's CI
    spans = [p for p in ax.patches if to_hex(p.get_facecolor()) == to_hex(plots.BEST_COLOR)]
    assert spans
    assert ax.get_legend() is not None


def test_pass_values_top_and_unicode_input():
    fig = plots.plot_pass_values(pass_frame(unicode=True), top=10)
    ax = fig.axes[0]
    assert len(ax.get_yticks()) == 10
    assert "top 10 of 35" in ax.get_ylabel()
    assert sum(points(c) for c in errorbars(ax)) == 10


def test_pass_values_difference_axis_marks_ties():
    df = pass_frame()
    fig = plots.plot_pass_values(df)
    texts = [t.get_text() for side in fig.axes[0].child_axes for t in side.get_yticklabels()]
    assert "best" in texts
    # differences of shares are in percentage points, not percent
    assert any("±" in t and " pp" in t for t in texts)
    assert not any("±" in t and "%" in t for t in texts)
    # a pass whose difference to the best is within noise is drawn in the tied colour
    df2 = df.copy()
    second = df2["rank"] == 2
    df2.loc[second, "diff_se"] = abs(df2.loc[second, "diff_vs_best"]).max() + 1
    colours = {color(c) for c in errorbars(plots.plot_pass_values(df2).axes[0])}
    assert to_hex(plots.TIED_COLOR) in colours


def test_draws_into_given_axes_and_not_into_pyplot():
    plots.plot_pass_values(pass_frame())
    assert plt.get_fignums() == [], "figures are not registered with pyplot"
    fig, ax = plt.subplots()
    assert plots.plot_discard_values(discard_frame(), ax=ax) is fig
    assert errorbars(ax)


def test_discard_values_chart():
    fig = plots.plot_discard_values(discard_frame())
    ax = fig.axes[0]
    assert "discard" in ax.get_title() and "4 players" in ax.get_title()
    assert "with betting" in ax.get_title()
    assert "net chips per deal" in ax.get_xlabel()
    assert sum(points(c) for c in errorbars(ax)) == 21
    assert to_hex(plots.BEST_COLOR) in {color(c) for c in errorbars(ax)}


def test_ci_from_se_only():
    df = discard_frame().drop(columns=["ci_low", "ci_high"])
    ax = plots.plot_discard_values(df).axes[0]
    assert "95% CI" in ax.get_xlabel()
    assert errorbars(ax)


def test_reveal_values_heatmap_and_top_orders():
    df = reveal_frame()
    fig = plots.plot_reveal_values(df, top=12)
    assert "Which order to reveal" in fig.get_suptitle()
    heat = next(a for a in fig.axes if a.images)
    image = heat.images[0]
    assert isinstance(image, AxesImage)
    grid = image.get_array()
    assert grid.shape == (5, 5)
    assert np.ma.getmaskarray(grid).sum() == 5, "a card cannot be hidden and revealed first"
    rows, cols = ticks(heat.get_yticklabels()), ticks(heat.get_xticklabels())
    assert rows == cols and rows[0] == "Q♠"
    # a cell is the mean of the 6 orders with that hidden and first card
    i, j = rows.index("9♦"), cols.index("Q♥")
    cell = df[(df["hidden"] == "9♦") & (df["first"] == "Q♥")]
    assert len(cell) == 6
    assert grid[i, j] == pytest.approx(cell["value"].mean())
    assert heat.get_xlabel() and heat.get_ylabel() and heat.get_title()
    annotations = [t.get_text() for t in heat.texts]
    assert sum("±" in t for t in annotations) == 20
    colorbar = next(a for a in fig.axes if "mean over orders" in a.get_ylabel())
    assert "expected pot share" in colorbar.get_ylabel()
    panel = next(a for a in fig.axes if errorbars(a))
    assert sum(points(c) for c in errorbars(panel)) == 12
    first_label = ticks(panel.get_yticklabels())[0]
    best = df.loc[df["rank"] == 1].iloc[0]
    assert first_label.endswith(f"[{best['hidden']}]")


def test_reveal_values_reads_hidden_and_first_from_order():
    df = reveal_frame().drop(columns=["hidden", "first"])
    fig = plots.plot_reveal_values(df)
    heat = next(a for a in fig.axes if a.images)
    assert heat.images[0].get_array().shape == (5, 5)


def test_reveal_by_hidden():
    fig = plots.plot_reveal_by_hidden(hidden_frame())
    ax = fig.axes[0]
    assert "hidden" in ax.get_title() and ax.get_xlabel()
    assert sum(points(c) for c in errorbars(ax)) == 5
    with pytest.raises(ValueError, match="one row per hidden card"):
        plots.plot_reveal_by_hidden(reveal_frame())


def test_equity_lines_per_hand():
    fig = plots.plot_equity(equity_frame())
    ax = fig.axes[0]
    assert ax.get_title() == "Equity by number of players"
    assert "players" in ax.get_xlabel() and "95% CI" in ax.get_ylabel()
    bars = errorbars(ax)
    assert len(bars) == 2 and all(c.has_yerr for c in bars)
    assert ax.yaxis.get_major_formatter()(0.25, 0).endswith("%")
    legend = ticks(ax.get_legend().get_texts())
    assert "A♠ A♥ K♦ K♣ 2♠ 3♦ 7♥" in legend and any("even share" in t for t in legend)


def test_equity_single_hand_title():
    df = equity_frame(labels=("Qs Qh 9c 8d 3s 4h 2c",))
    fig = plots.plot_equity(df)
    assert fig.axes[0].get_title().endswith("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣")
    assert len(errorbars(fig.axes[0])) == 1


def test_categories_with_error_bars():
    ax = plots.plot_categories(category_frame()).axes[0]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 1 and len(bars[0]) == 9
    assert errorbars(ax), "se gives error bars"
    assert ticks(ax.get_xticklabels()) == list(plots.CATEGORY_LABELS)
    assert ax.get_title().startswith("Final hand category") and ax.get_xlabel()
    assert "95% CI" in ax.get_ylabel()


def test_categories_grouped_and_log():
    df = pd.concat([category_frame().assign(players=n) for n in (3, 5, 7)], ignore_index=True)
    df.attrs = {"players": 5, "deals": 10_000}
    ax = plots.plot_categories(df, log=True).axes[0]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 3 and all(len(b) == 9 for b in bars)
    assert ax.get_yscale() == "log"
    assert "5 players" not in ax.get_title(), "the grouped-by attribute is not in the title"
    assert ticks(ax.get_legend().get_texts()) == ["players = 3", "players = 5", "players = 7"]


def test_categories_from_pass_table_columns():
    df = pass_frame().sort_values("rank").head(3)
    ax = plots.plot_categories(df).axes[0]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 3
    assert errorbars(ax), "binomial error bars from attrs['deals']"
    assert all(
        "♠" in t or "♥" in t or "♣" in t or "♦" in t for t in ticks(ax.get_legend().get_texts())
    )


def test_categories_bad_name():
    df = category_frame()
    df.loc[0, "category"] = "Royal straight"
    with pytest.raises(ValueError, match="unknown category 'Royal straight'"):
        plots.plot_categories(df)


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_save_figure(tmp_path, suffix):
    fig = plots.plot_pass_values(pass_frame(), top=5)
    path = plots.save_figure(fig, tmp_path / "deep" / "folder" / f"passes{suffix.upper()}")
    data = path.read_bytes()
    magic = {".png": b"\x89PNG", ".svg": b"<?xml", ".pdf": b"%PDF"}[suffix]
    assert data.startswith(magic)
    assert b"dc:date" not in data and b"CreationDate" not in data, "no date inside the file"


def test_save_figure_unknown_extension(tmp_path):
    fig = plots.plot_equity(equity_frame())
    with pytest.raises(ValueError, match=r"cannot save a figure as '\.jpg'.*\.png, \.svg or \.pdf"):
        plots.save_figure(fig, tmp_path / "chart.jpg")
    with pytest.raises(ValueError, match="without an extension"):
        plots.save_figure(fig, tmp_path / "chart")
    with pytest.raises(TypeError, match="matplotlib Figure"):
        plots.save_figure("not a figure", tmp_path / "chart.png")
    assert not list(tmp_path.iterdir())


CALLS = {
    "plot_pass_values": (lambda df: plots.plot_pass_values(df), pass_frame, "pass"),
    "plot_discard_values": (lambda df: plots.plot_discard_values(df), discard_frame, "discard"),
    "plot_reveal_values": (lambda df: plots.plot_reveal_values(df), reveal_frame, "order"),
    "plot_reveal_by_hidden": (lambda df: plots.plot_reveal_by_hidden(df), hidden_frame, "hidden"),
    "plot_equity": (lambda df: plots.plot_equity(df), equity_frame, "players"),
    "plot_categories": (lambda df: plots.plot_categories(df), category_frame, "probability"),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_missing_column_names_column_and_function(name):
    call, make, column = CALLS[name]
    df = make().drop(columns=[column])
    with pytest.raises(ValueError, match=rf"{name} needs column '{column}'"):
        call(df)


@pytest.mark.parametrize("name", ["plot_pass_values", "plot_reveal_values", "plot_equity"])
def test_missing_uncertainty_is_an_error(name):
    call, make, _ = CALLS[name]
    df = make().drop(columns=["ci_high", "se"])
    with pytest.raises(ValueError, match=rf"{name} needs column 'ci_high' \(or 'se'\)"):
        call(df)


def test_other_bad_inputs():
    with pytest.raises(TypeError, match="plot_pass_values needs a pandas DataFrame, got list"):
        plots.plot_pass_values([1, 2, 3])
    with pytest.raises(ValueError, match="plot_discard_values got an empty frame"):
        plots.plot_discard_values(discard_frame().iloc[:0])
    with pytest.raises(ValueError, match="top must be a positive integer"):
        plots.plot_pass_values(pass_frame(), top=0)
    with pytest.raises(ValueError, match="needs numbers in column 'value'"):
        plots.plot_pass_values(pass_frame().assign(value="high"))


def test_draws_into_given_figures():
    fig = plt.figure(figsize=(14, 7))
    assert plots.plot_reveal_values(reveal_frame(), fig=fig) is fig
    assert any(a.images for a in fig.axes)
    ax = plots.plot_discard_values(discard_frame(), top=4).axes[0]
    assert len(ax.get_yticks()) == 4


def test_title_from_attrs():
    df = category_frame()
    df.attrs["title"] = "Final-hand categories at the showdown"
    title = plots.plot_categories(df).axes[0].get_title()
    assert title.startswith("Final-hand categories at the showdown\n")
    assert "10,000 deals" in title
