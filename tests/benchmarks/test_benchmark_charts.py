"""The benchmark chart of ``benchmarks/charts.py``: panels, labels, ratios, input checks."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer

ROOT = Path(__file__).resolve().parents[2]
CHARTS = ROOT / "benchmarks" / "charts.py"


def _load():
    """benchmarks/charts.py as a module (benchmarks/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("benchmark_charts", CHARTS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


charts = _load()


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def bench_frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    rates = {"anaconda-sim": 4e7, "eval7": 3e6, "phevaluator": 1e6, "treys": 1.5e5}
    rows = [(lib, task, "1 core", rate * (2 if task == "5-card" else 1))
            for lib, rate in rates.items() for task in ("7-card", "5-card")]  # fmt: skip
    rows += [("anaconda-sim", task, "all cores", 3e8) for task in ("7-card", "5-card")]
    df_eval = pd.DataFrame(rows, columns=["library", "task", "threads", "rate"])
    df_deals = pd.DataFrame(
        [(n, s, t, 1e6 / n * (8 if t == "all cores" else 1) * (1 if s == "a" else 0.7))
         for n in range(2, 8) for s in ("a", "b") for t in ("1 core", "all cores")],
        columns=["players", "strategy", "threads", "deals_per_s"],
    )  # fmt: skip
    return df_eval, df_deals


def errorbars(ax) -> list[ErrorbarContainer]:
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)]


# --------------------------------------------------------------------------


def test_benchmarks():
    df_eval, df_deals = bench_frames()
    fig = charts.plot_benchmarks(df_eval, df_deals)
    assert "anaconda-sim" in fig.get_suptitle()
    evals = [a for a in fig.axes if a.get_xscale() == "log"]
    assert len(evals) == 2
    texts = [t.get_text() for a in evals for t in a.texts]
    assert "40 M/s" in texts and "150 k/s" in texts
    notes = [t.get_text() for a in evals for side in a.child_axes for t in side.get_yticklabels()]
    assert any("13× faster than eval7 (fastest peer)" in t for t in notes)
    assert any("267× faster than treys (slowest peer)" in t for t in notes)
    for ax in evals:
        assert ax.get_title(loc="left")
    assert evals[-1].get_xlabel().startswith("evaluations per second")
    deals = next(a for a in fig.axes if a.get_yscale() == "log")
    assert "deals per second" in deals.get_ylabel() and deals.get_xlabel()
    assert len(errorbars(deals)) == 4


def test_benchmarks_repeats_become_error_bars():
    df_eval, _ = bench_frames()
    repeated = pd.concat([df_eval, df_eval.assign(rate=df_eval["rate"] * 1.1)])
    fig = charts.plot_benchmarks(repeated)
    assert len(fig.axes) >= 2
    assert all(errorbars(a) for a in fig.axes if a.get_xscale() == "log")
    assert "range of repeated runs" in fig.axes[1].get_xlabel()
    with pytest.raises(ValueError, match="positive numbers in column 'rate'"):
        charts.plot_benchmarks(df_eval.assign(rate=0.0))


def test_missing_column_names_column_and_function():
    df = bench_frames()[0].drop(columns=["rate"])
    with pytest.raises(ValueError, match=r"plot_benchmarks needs column 'rate'"):
        charts.plot_benchmarks(df)


def test_bad_deals_frame():
    df_eval, df_deals = bench_frames()
    with pytest.raises(ValueError, match="plot_benchmarks needs column 'deals_per_s'"):
        charts.plot_benchmarks(df_eval, df_deals.drop(columns="deals_per_s"))


def test_draws_into_given_figure():
    fig2 = plt.figure(figsize=(10, 6))
    assert charts.plot_benchmarks(bench_frames()[0], fig=fig2) is fig2


def test_docstring_examples(monkeypatch):
    # the examples run from the repository root with benchmarks/ on sys.path, as they say
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = sys.modules.pop("charts", None)
    try:
        result = doctest.testmod(charts, optionflags=doctest.NORMALIZE_WHITESPACE)
    finally:
        sys.modules.pop("charts", None)
        if before is not None:
            sys.modules["charts"] = before
    assert result.attempted > 0 and result.failed == 0
