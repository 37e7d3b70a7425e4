"""Every analysis chart says whom its numbers are against: the opponents (by
default "learned") and the model, read from the table's ``attrs``."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from anaconda_sim.analysis import (
    declare_values,
    discard_values,
    equity,
    pass_values,
    reveal_opponents,
    reveal_values,
)
from anaconda_sim.output import plots

WORKED = "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"
AFTER_PASS = "Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠"
FULL_HOUSE = "Q♠ Q♥ Q♦ 9♣ 9♦"
WHEEL = "5♠ 4♥ 3♦ 2♣ A♠"
SMALL = {"deals": 200, "seed": 3, "progress": False}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _titles(fig) -> str:
    texts = [ax.get_title() for ax in fig.axes]
    if fig._suptitle is not None:
        texts.append(fig._suptitle.get_text())
    return "\n".join(texts)


# (analysis with its default opponents, chart, what the subtitle says of the model)
CASES = {
    "pass": (lambda: pass_values(WORKED, 6, **SMALL), plots.plot_pass_values,
             "showdown only (no betting)"),
    "pass, betting": (lambda: pass_values(WORKED, 6, betting=True, **SMALL),
                      plots.plot_pass_values, "with betting"),
    "discard": (lambda: discard_values(AFTER_PASS, 6, **SMALL), plots.plot_discard_values,
                "showdown only (no betting)"),
    "reveal": (lambda: reveal_values(FULL_HOUSE, 6, **SMALL), plots.plot_reveal_values,
               "with betting"),
    "reveal by hidden": (lambda: reveal_values(FULL_HOUSE, 6, by="hidden", **SMALL),
                         plots.plot_reveal_by_hidden, "with betting"),
    "declare": (lambda: declare_values(WHEEL, 6, **SMALL), plots.plot_declare_values,
                "hi-lo rules · with betting"),
    "equity": (lambda: equity(WORKED, 6, **SMALL), plots.plot_equity,
               "showdown only (no betting)"),
    "hi-lo pass": (lambda: pass_values(WORKED, 6, rules="hi-lo", **SMALL),
                   plots.plot_pass_values, "hi-lo rules · showdown only (no betting)"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_default_opponents_are_learned_in_attrs_and_subtitle(name):
    run, chart, model = CASES[name]
    table = run()
    assert table.attrs["opponents"] == ["learned"] * 5
    assert table.attrs["model"] == ("betting" if table.attrs["betting"] else "showdown")
    title = _titles(chart(table))
    # plot_equity draws table sizes on its axis: it names the strategy without a count
    against = "vs learned" if chart is plots.plot_equity else "vs 5 x learned"
    assert against in title and model in title, title


def test_subtitle_names_other_opponents_and_the_hero():
    table = reveal_values(FULL_HOUSE, 4, by="hidden", opponents=reveal_opponents(), **SMALL)
    assert table.attrs["opponents"] == [reveal_opponents().spec()] * 3
    title = _titles(plots.plot_reveal_by_hidden(table))
    assert "hero learned · vs 3 x sensible:continue_late=2" in title, title
    mixed = pass_values(WORKED, 3, opponents=["learned", "random-pass"], **SMALL)
    assert "vs learned, random-pass" in _titles(plots.plot_pass_values(mixed))


def test_equity_over_table_sizes_names_the_opponents_without_a_count():
    rows = [equity(WORKED, n, **SMALL) for n in (2, 4)]
    table = pd.concat(rows, ignore_index=True)
    table.attrs = {**rows[0].attrs, "players": "2-7"}  # as `anaconda-sim equity --all-players`
    title = _titles(plots.plot_equity(table))
    assert "vs learned" in title and "x learned" not in title, title


def test_a_sweeps_opponents_and_rules_columns_reach_the_subtitle():
    frame = pd.DataFrame({"players": [2, 3], "equity": [0.6, 0.45], "se": [0.01, 0.01],
                          "opponents": ["sensible:bluff=0.1,random-pass"] * 2,
                          "rules": ["hi-lo"] * 2})  # fmt: skip
    title = _titles(plots.plot_equity(frame))
    assert "hi-lo rules" in title and "vs sensible:bluff=0.1, random-pass" in title, title
    # several opponent sets in one frame: none is claimed
    frame["opponents"] = ["learned", "random-pass"]
    assert "vs " not in _titles(plots.plot_equity(frame))
