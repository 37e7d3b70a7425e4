"""The models of the questions (anaconda_sim.sim.models): the analyses and
exploitability score through them, and their numbers do not depend on how
the deals are cut into batches."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from anaconda_sim.analysis import discard_values, pass_values
from anaconda_sim.analysis.driver import own_view
from anaconda_sim.cards import format_cards, parse_cards
from anaconda_sim.rng import STREAM_SEAT, new_state, root_key
from anaconda_sim.sim.kernels import showdown
from anaconda_sim.sim.models import (
    RevealModel,
    compile_pass_model,
    fixed_batches,
    pub_at_pass,
    score_keeps,
    score_passes,
    showdown_kernel_strategies,
)
from anaconda_sim.strategies import Strategy, get_strategy
from anaconda_sim.strategies.dispatch import builtin_pass
from anaconda_sim.table.rules import Rules

HAND = parse_cards("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣")
SENSIBLE = get_strategy("sensible")


def test_pass_model_is_the_table_of_pass_values():
    table = pass_values(HAND, 3, opponents="sensible", deals=300, seed=4, progress=False)
    choices = np.array(list(itertools.combinations(HAND, 3)), dtype=np.int64)
    scores = score_passes(fixed_batches(300, 64), root_key(4), 3, [SENSIBLE] * 2, HAND, choices)
    by_pass = dict(zip(table["pass"], table["value"], strict=True))
    mean = scores.acc.mean()
    for k, row in enumerate(choices):
        assert by_pass[format_cards(row, unicode=True)] == pytest.approx(mean[k], abs=1e-15)


def _versions() -> dict[str, set[tuple]]:
    """The compiled versions (argument types) of the pass model's kernels and
    of the built-in pass, in this process."""
    kernels = (showdown._pass_choices_batch_chunks, showdown.opponents_after_pass,
               showdown._fixed_opponents_best, builtin_pass)  # fmt: skip
    return {k.py_func.__name__: set(k.overloads) for k in kernels}


@pytest.mark.parametrize("field", ["learned", "sensible"])
def test_compiling_the_pass_model_ahead_compiles_what_scoring_and_a_pass_run(field):
    # equity at the deal compiles the model first, then decides the hero's
    # pass from Python and scores it: neither may need a version of its own
    opponents = [get_strategy(field)] * 4
    dead = parse_cards("A♠ K♦")
    compile_pass_model(5, opponents, HAND, known=dead)
    ahead = _versions()
    assert all(ahead.values())
    get_strategy(field).decide_pass(pub_at_pass(5), own_view(0, HAND),
                                    new_state(root_key(1), 0, STREAM_SEAT))  # fmt: skip
    choices = np.array(list(itertools.combinations(HAND, 3))[:4], dtype=np.int64)
    score_passes(fixed_batches(40, 16), root_key(1), 5, opponents, HAND, choices, known=dead)
    assert _versions() == ahead


def test_keep_model_does_not_depend_on_the_batches():
    fives = [list(f) for f in itertools.combinations(HAND, 5)][::4]  # pairs and no pair
    a = score_keeps(fixed_batches(200, 200), np.uint64(9), 4, [SENSIBLE] * 3, HAND, fives)
    b = score_keeps(fixed_batches(200, 3), np.uint64(9), 4, [SENSIBLE] * 3, HAND, fives)
    assert np.array_equal(a.acc.total, b.acc.total) and np.array_equal(a.acc.cross, b.acc.cross)
    assert np.array_equal(a.cat_counts, b.cat_counts) and a.acc.deals == 200
    assert len(set(a.acc.total.tolist())) > 1  # the fives differ: the test can see a slip


def test_reveal_model_does_not_depend_on_the_batches():
    five, dead = parse_cards("Q♠ Q♥ Q♦ 9♣ 9♦"), parse_cards("3♠ 2♣")
    model = RevealModel.of(five, dead, Rules.pagat(3), [SENSIBLE] * 3, betting=True, dealer=2)
    orders = np.array(list(itertools.permutations(five))[::20], dtype=np.int64)
    a = model.score(orders, np.uint64(3), fixed_batches(60, 60))
    b = model.score(orders, np.uint64(3), fixed_batches(60, 7))
    assert np.array_equal(a.net.total, b.net.total) and np.array_equal(a.net.cross, b.net.cross)
    assert a.value(True) is a.net and a.value(False) is a.share


def test_the_showdown_model_refuses_custom_strategies():
    custom = Strategy.custom("mine")
    with pytest.raises(ValueError, match="needs the betting model"):
        showdown_kernel_strategies([custom])


def test_discard_values_scores_through_the_keep_model():
    table = discard_values(HAND, 3, passed="K♠ K♥ K♦", opponents="sensible", deals=200, seed=2,
                           progress=False)  # fmt: skip
    assert len(table) == 21 and table["value"].between(0, 1).all()
