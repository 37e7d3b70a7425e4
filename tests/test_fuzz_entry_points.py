"""The other public entry points driven with generated bad arguments: a valid
result or one of the library's documented errors, quickly, never a crash."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import anaconda_sim as ac
from anaconda_sim.cards import CardError
from anaconda_sim.errors import GameError

DOCUMENTED = (TypeError, ValueError, CardError, GameError)

weird = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.integers(-3, 60),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["Qs Qh Qd 9c 9d 8d 5s", "Qs Qs Qd 9c 9d 8d 5s", "Qs Qh", "Zz", "sensible",
                     "pass", "order", "random-pass,sensible"]),
    st.lists(st.integers(-2, 60), max_size=8), st.just(np.array([0, 1, 2.5])),
    st.just(object()), st.dictionaries(st.integers(-1, 8), st.integers(0, 51), max_size=2),
)  # fmt: skip

CALLS = {
    "evaluate": lambda v: ac.evaluate(v),
    "describe": lambda v: ac.describe(v),
    "best_five": lambda v: ac.best_five(v),
    "exposed_value": lambda v: ac.exposed_value(v),
    "category": lambda v: ac.category(v),
    "classify": lambda v: ac.classify(v),
    "parse_cards": lambda v: ac.parse_cards(v),
    "get_strategy": lambda v: ac.get_strategy(v),
    "parse_strategies": lambda v: ac.parse_strategies(v),
    "Rules(players)": lambda v: ac.Rules(players=v),
    "simulate(players)": lambda v: ac.simulate(v, "sensible", deals=20, seed=1, progress=False),
    "simulate(strategies)": lambda v: ac.simulate(3, v, deals=20, seed=1, progress=False),
    "simulate(deals)": lambda v: ac.simulate(3, "call-down", deals=v if not isinstance(v, int)
                                             or v < 5000 else 20, seed=1, progress=False),
    "simulate(seed)": lambda v: ac.simulate(3, "call-down", deals=20, seed=v, progress=False),
    "simulate(dealer)": lambda v: ac.simulate(3, "call-down", deals=20, dealer=v, progress=False),
    "simulate(batch_size)": lambda v: ac.simulate(3, "call-down", deals=20, batch_size=v,
                                                  progress=False),
    "simulate(fixed)": lambda v: ac.simulate(3, "call-down", deals=20, fixed=v, progress=False),
    "simulate(known)": lambda v: ac.simulate(3, "call-down", deals=20, known=v, progress=False),
    "score_choices(choices)": lambda v: ac.score_choices(
        3, "sensible", hero=0, kind="pass", choices=v, deals=20, seed=1, progress=False,
        fixed={0: list(range(7))}),
    "score_choices(kind)": lambda v: ac.score_choices(
        3, "sensible", hero=0, kind=v, choices=[[0, 1, 2]], deals=20, seed=1, progress=False,
        fixed={0: list(range(7))}),
    "score_choices(hero)": lambda v: ac.score_choices(
        3, "sensible", hero=v, kind="pass", choices=[[0, 1, 2]], deals=20, seed=1,
        progress=False, fixed={0: list(range(7))}),
    "score_choices(first_deal)": lambda v: ac.score_choices(
        3, "sensible", hero=0, kind="pass", choices=[[0, 1, 2]], deals=20, seed=1,
        progress=False, fixed={0: list(range(7))}, first_deal=v),
}  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    ac.simulate(3, "sensible", deals=20, seed=1, progress=False)
    ac.score_choices(3, "sensible", hero=0, kind="pass", choices=[[0, 1, 2]], deals=20, seed=1,
                     progress=False, fixed={0: list(range(7))})  # fmt: skip
    ac.evaluate("Qs Qh Qd 9c 9d 8d 5s")
    ac.exposed_value("Qs Qh")


@pytest.mark.parametrize("entry", list(CALLS))
@settings(max_examples=60)
@given(value=weird)
def test_bad_arguments_give_a_result_or_a_documented_error(entry, value):
    started = time.perf_counter()
    try:
        CALLS[entry](value)
    except DOCUMENTED as error:
        assert str(error), f"{entry}({value!r}) raised an empty {type(error).__name__}"
    assert time.perf_counter() - started < 60
