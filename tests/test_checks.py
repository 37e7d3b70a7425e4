"""One integer checker, one player-count check, one strategy spelling.

Every public function checks its integers with :mod:`anaconda_sim.checks`
(the parameter, the value and the fix in one message style) and reads a
strategy through :func:`~anaconda_sim.strategies.get_strategy`, so
``"sensible:bluff=0.1"`` is accepted wherever a strategy is.
"""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import anaconda_sim as ac
from anaconda_sim import analysis
from anaconda_sim.checks import check_deal_index, check_deals, check_int, check_players
from anaconda_sim.game.play import Bot, play_deal
from anaconda_sim.game.session import Session
from anaconda_sim.learning import betting_exploitability, exploitability, learn
from anaconda_sim.limits import MAX_DEAL_INDEX, MAX_DEALS
from anaconda_sim.strategies import get_strategy, parse_spec, parse_strategies
from anaconda_sim.table.rules import Rules

SPEC = "sensible:bluff=0.1"
BLUFFER = get_strategy("sensible", bluff=0.1)
HAND = "Qs Qh 9c 8d 3s 4h 2c"
FIVE = "Qs Qh Qd 9c 9d"
TINY = {"deals": 20, "seed": 3, "progress": False}


# --------------------------------------------------------------- check_int --
@pytest.mark.parametrize("value", [True, False, 2.0, 2.5, "3", None, np.float64(3.0), [3],
                                   np.array([3]), object()])  # fmt: skip
def test_check_int_refuses_what_is_not_an_integer(value):
    with pytest.raises(TypeError, match=r"^count=.* must be an int, not \w+; give count >= 1$"):
        check_int(value, "count", low=1)


@pytest.mark.parametrize("value", [3, np.int8(3), np.int64(3), np.uint64(3)])
def test_check_int_accepts_python_and_numpy_integers_as_plain_ints(value):
    out = check_int(value, "count", low=1, high=3)
    assert out == 3 and type(out) is int


@pytest.mark.parametrize(
    ("value", "side", "fix"),
    [(0, "small", "give 1 <= seat <= 5"), (6, "large", "give 1 <= seat <= 5"),
     (-(2**70), "small", "give 1 <= seat <= 5"), (2**70, "large", "give 1 <= seat <= 5")],
)  # fmt: skip
def test_check_int_names_the_parameter_the_value_and_the_fix(value, side, fix):
    with pytest.raises(ValueError) as caught:
        check_int(value, "seat", low=1, high=5, why="the reason")
    assert str(caught.value) == f"seat={value} is too {side}: the reason; {fix}"


def test_check_int_with_one_bound_or_none_and_its_own_fix():
    assert check_int(-(2**80), "x") == -(2**80)
    with pytest.raises(ValueError, match=r"^x=11 is too large; give x <= 10$"):
        check_int(11, "x", high=10)
    with pytest.raises(TypeError, match=r"^x=1.5 must be an int, not float; give x as a whole"):
        check_int(1.5, "x")
    with pytest.raises(ValueError, match=r"^x=0 is too small; halve it$"):
        check_int(0, "x", low=1, fix="halve it")


@pytest.mark.parametrize("players", [2, 7, np.int64(4)])
def test_check_players_accepts_2_to_7(players):
    assert check_players(players) == int(players)


@pytest.mark.parametrize(("players", "error"), [(1, ValueError), (8, ValueError),
                                                (True, TypeError), (6.0, TypeError)])
def test_check_players_cites_r2(players, error):
    with pytest.raises(error, match=r"^players=.*2 <= players <= 7"):
        check_players(players)
    if error is ValueError:
        with pytest.raises(error, match=re.escape("played by 2 to 7 players (R2)")):
            check_players(players)


def test_sample_sizes_beyond_the_kernels_counters_are_refused_with_the_limit():
    assert check_deals(MAX_DEALS) == MAX_DEALS
    with pytest.raises(ValueError) as caught:
        check_deals(2**63)
    assert str(caught.value) == (
        f"deals=9223372036854775808 is too large: the kernels count at most {MAX_DEALS} deals "
        f"per call; give deals <= {MAX_DEALS} or split the run"
    )
    # the limit keeps the accumulators' int64 sums of squares exact: the largest
    # square of one deal's value, (840 * 35) ** 2 units, times MAX_DEALS
    assert (840 * 35) ** 2 * MAX_DEALS < 2**63


def test_deal_indices_are_the_random_streams_range():
    assert check_deal_index(MAX_DEAL_INDEX) == MAX_DEAL_INDEX
    for bad in (-1, MAX_DEAL_INDEX + 1, 2**64):
        with pytest.raises(ValueError, match=r"^deal_index=-?\d+ is too (small|large)"):
            check_deal_index(bad)


# ---------------------------------------------------- refused before work --
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: analysis.pass_values(HAND, 6, deals=2**63), "deals=9223372036854775808 is too large"),  # noqa: E501
        (lambda: analysis.equity(HAND, 6, precision=0.01, max_deals=2**40), "max_deals=1099511627776 is too large"),  # noqa: E501
        (lambda: analysis.pass_values(HAND, 6, deals=1), "deals=1 is too small; give deals >= 2"),
        (lambda: analysis.pass_values(HAND, 6, deals=20, batch_size=True), "batch_size=True must be an int"),  # noqa: E501
        (lambda: ac.simulate(3, "sensible", deals=2**40), "deals=1099511627776 is too large"),
        (lambda: exploitability("sensible", 3, deals=2**40), "deals=1099511627776 is too large"),
        (lambda: learn(2, deals=2**40), "deals=1099511627776 is too large"),
    ],
)  # fmt: skip
def test_huge_or_bad_sample_sizes_are_refused_at_once(call, message):
    started = time.perf_counter()
    with pytest.raises((TypeError, ValueError), match=re.escape(message)):
        call()
    assert time.perf_counter() - started < 5


RULES = Rules(players=3)
SEATS = ["sensible", "call-down", "random"]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rules": 6}, TypeError, "rules=6 must be a Rules object, not int"),
        ({"strategies": None}, TypeError, "strategies=None must be a list of 3 strategies"),
        ({"strategies": "sensible"}, TypeError, "strategies='sensible' must be a list of 3"),
        ({"stacks": True}, TypeError, "stacks=True must be an int, not bool; give stacks >= 0"),
        ({"stacks": "x"}, TypeError, "stacks='x' must be an int (chips of every seat) or a list"),
        ({"stacks": 2.5}, TypeError, "stacks=2.5 must be an int (chips of every seat) or a list"),
        ({"stacks": [10, 2.5, 10]}, TypeError, "stacks[1]=2.5 must be an int, not float"),
        ({"stacks": [10, -1, 10]}, ValueError, "stacks[1]=-1 is too small; give stacks[1] >= 0"),
        ({"stacks": [10, 10]}, ValueError, "2 stacks for 3 seats"),
        ({"dealer": True}, TypeError, "dealer=True must be an int, not bool; give 0 <= dealer <= 2"),  # noqa: E501
        ({"dealer": 1.5}, TypeError, "dealer=1.5 must be an int, not float"),
        ({"dealer": 3}, ValueError, "dealer=3 is too large: seats are 0..2; give 0 <= dealer <= 2"),
    ],
)  # fmt: skip
def test_session_arguments_are_refused_naming_the_parameter(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        Session(**{"rules": RULES, "strategies": SEATS, **kwargs})


@pytest.mark.parametrize(
    ("deals", "error", "message"),
    [("x", TypeError, "deals='x' must be an int, not str; give deals >= 0"),
     (2.5, TypeError, "deals=2.5 must be an int, not float"),
     (True, TypeError, "deals=True must be an int, not bool"),
     (-1, ValueError, "deals=-1 is too small; give deals >= 0")],
)  # fmt: skip
def test_session_run_refuses_a_bad_count_before_any_deal(deals, error, message):
    session = Session(RULES, SEATS, seed=1)
    with pytest.raises(error, match=re.escape(message)):
        session.run(deals)
    assert session.deals == [] and session.run(0) == []


def test_session_stacks_as_an_array_still_work():
    assert Session(RULES, SEATS, stacks=np.array([30, 40, 50])).stacks == (30, 40, 50)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [({"deal_index": -1}, ValueError, "deal_index=-1 is too small"),
     ({"deal_index": 2**64}, ValueError, "deal_index=18446744073709551616 is too large"),
     ({"deal_index": 1.0}, TypeError, "deal_index=1.0 must be an int"),
     ({"dealer": -1}, ValueError, "dealer=-1 is too small: seats are 0..2"),
     ({"dealer": True}, TypeError, "dealer=True must be an int")],
)  # fmt: skip
def test_play_deal_refuses_bad_indices_naming_them(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        play_deal(RULES, SEATS, seed=1, **kwargs)


def test_play_deal_refuses_a_number_for_rules():
    with pytest.raises(TypeError, match=r"^rules=3 must be a Rules object"):
        play_deal(3, SEATS, seed=1)


# ------------------------------------------------------------ strategies --
def test_the_spec_text_is_the_strategy_with_its_parameters():
    assert get_strategy(SPEC) == BLUFFER == get_strategy(" sensible : bluff = 0.1 ")
    assert get_strategy("sensible:bluff=0.1", continue_late=2) == get_strategy(
        "sensible", bluff=0.1, continue_late=2)
    assert get_strategy(BLUFFER.spec()) == BLUFFER  # what tables record reads back
    assert parse_strategies(f"{SPEC},continue_late=2, random-pass") == [
        get_strategy("sensible", bluff=0.1, continue_late=2), get_strategy("random-pass")]
    assert parse_spec("learned:bluff_weak=0.2") == ("learned", {"bluff_weak": 0.2})
    assert get_strategy("learned:bluff_weak=0.2") == get_strategy("learned", bluff_weak=0.2)
    assert parse_spec("learned-v1:bluff=0.2") == ("learned-v1", {"bluff": 0.2})
    assert get_strategy("learned-v1:bluff=0.2") == get_strategy("learned-v1", bluff=0.2)


@pytest.mark.parametrize(
    ("spec", "message"),
    [("bluffer", "unknown strategy 'bluffer'; built-ins are 'random', 'call-down', "
                 "'random-pass', 'sensible', 'learned', 'learned-v2', 'learned-v1' (parameters "
                 "of sensible: aggressive_at, continue_early, continue_late, respect_exposed, "
                 "bluff; learned and learned-v2: 32, named in "
                 "strategies.learned.params.READ_PARAM_NAMES; "
                 "learned-v1: 35, named in "
                 "strategies.learned.params.LEARNED_DEFAULTS)"),
     ("bluffer:bluff=0.1", "unknown strategy 'bluffer'; built-ins are"),
     ("sensible:bluf=0.1", "strategy 'sensible' has no parameter 'bluf'; its parameters: "
                           "aggressive_at, continue_early, continue_late, respect_exposed, bluff"),
     ("random:bluff=0.1", "strategy 'random' has no parameter 'bluff'; its parameters: none"),
     ("sensible:bluff", "strategy parameter 'bluff' has no value; write it as bluff=VALUE"),
     ("sensible:bluff=x", "strategy parameter bluff='x' is not a number"),
     ("sensible:bluff=0.1,bluff=0.2", "strategy parameter 'bluff' is given twice")],
)  # fmt: skip
def test_one_error_names_the_unknown_name_or_parameter_and_lists_the_valid_ones(spec, message):
    for read in (get_strategy, parse_strategies, lambda s: Bot(s),
                 lambda s: ac.simulate(3, s, deals=20)):  # fmt: skip
        with pytest.raises(ValueError, match="^" + re.escape(message)):
            read(spec)


@pytest.mark.parametrize(
    ("spec", "message"),
    [("sensible:bluff=7", "strategy 'sensible': bluff=7 is outside its range (a probability, "
                          "from 0 to 1); choose a value in that range"),
     ("sensible:bluff=-1", "strategy 'sensible': bluff=-1 is outside its range"),
     ("sensible:bluff=nan", "strategy 'sensible': bluff=nan is not a number in its range"),
     ("sensible:continue_late=-3", "strategy 'sensible': continue_late=-3 is outside its range "
                                   "(a hand category, 0 high card .. 8 straight flush, 9 none, "
                                   "a whole number, from 0 to 9)"),
     ("sensible:aggressive_at=5.5", "strategy 'sensible': aggressive_at=5.5 is outside"),
     ("sensible:respect_exposed=2", "strategy 'sensible': respect_exposed=2 is outside"),
     ("learned-v1:bet_r1=inf", "strategy 'learned-v1': bet_r1=inf is outside its range (a win "
                               "probability, above 1 never, from 0 to 2)"),
     ("learned:w_pairs=-1e9", "strategy 'learned': w_pairs=-1e+09 is outside its range"),
     ("learned-v1:bluff=1.5", "strategy 'learned-v1': bluff=1.5 is outside its range"),
     ("learned:bluff_draw=1.5", "strategy 'learned': bluff_draw=1.5 is outside its range"),
     ("learned:bet_margin_r12=7", "strategy 'learned': bet_margin_r12=7 is outside its range "
                                  "(an edge over the fair share of the pot, from -1 to 6)")],
)  # fmt: skip
def test_a_parameter_outside_its_range_is_refused_before_any_deal(spec, message):
    """Every parameter of every built-in family has a range; a value outside it
    (NaN included) is one line naming the strategy, the parameter, the value
    and the range, however the strategy is given."""
    key, _, value = spec.partition(":")[2].partition("=")
    for read in (get_strategy, parse_strategies, lambda s: Bot(s),
                 lambda s: ac.simulate(3, s, deals=20),
                 lambda s: get_strategy(s.partition(":")[0], **{key: float(value)})):  # fmt: skip
        with pytest.raises(ValueError, match="^" + re.escape(message)):
            read(spec)


def _ranges():
    from anaconda_sim.strategies.learned.params import LEARNED_RANGES, READ_RANGES
    from anaconda_sim.strategies.sensible import SENSIBLE_RANGES

    return [("sensible", k, r) for k, r in SENSIBLE_RANGES.items()] + [
        ("learned", k, r) for k, r in READ_RANGES.items()] + [
        ("learned-v2", k, r) for k, r in READ_RANGES.items()] + [
        ("learned-v1", k, r) for k, r in LEARNED_RANGES.items()]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_value_in_range_reads_back_and_one_outside_is_refused(data):
    """The parser, as a property: any admitted value of any parameter of a
    built-in family reads back exactly from the spec text a table records;
    any other finite value, infinity or NaN is refused naming the parameter."""
    strategy, key, allowed = data.draw(st.sampled_from(_ranges()))
    if allowed.whole:
        inside = float(data.draw(st.integers(int(allowed.low), int(allowed.high))))
    else:
        inside = data.draw(st.floats(allowed.low, allowed.high, allow_nan=False))
    read = get_strategy(f"{strategy}:{key}={inside!r}")
    assert read.param_dict()[key] == inside
    assert get_strategy(read.spec()).param_dict()[key] == pytest.approx(inside, rel=1e-5)
    wrong = [
        st.floats(max_value=allowed.low, exclude_max=True),
        st.floats(min_value=allowed.high, exclude_min=True),
        st.just(float("nan")), st.just(float("inf")), st.just(float("-inf")),
    ]  # fmt: skip
    if allowed.whole:  # a fraction between two admitted whole numbers
        wrong.append(st.integers(int(allowed.low), int(allowed.high) - 1).map(lambda v: v + 0.5))
    outside = data.draw(st.one_of(wrong))
    with pytest.raises(ValueError, match=rf"^strategy '{strategy}': {key}="):
        get_strategy(strategy, **{key: outside})


def test_a_parameter_given_twice_or_to_a_strategy_object_is_refused():
    with pytest.raises(ValueError, match=r"'bluff' is given twice, in 'sensible:bluff=0\.1' and"):
        get_strategy(SPEC, bluff=0.2)
    with pytest.raises(ValueError, match=r"parameters \['bluff'\] can only be given"):
        get_strategy(BLUFFER, bluff=0.2)
    with pytest.raises(TypeError, match="strategy 3 must be a built-in name"):
        get_strategy(3)  # type: ignore[arg-type]


def test_the_spec_text_at_the_game_entry_points():
    assert Bot(SPEC).strategy == BLUFFER
    text = play_deal(RULES, [SPEC, "call-down", "random"], seed=4)
    objects = play_deal(RULES, [BLUFFER, "call-down", "random"], seed=4)
    assert text.history.events == objects.history.events
    a = Session(RULES, [SPEC, "call-down", "random"], seed=2).run(3)
    b = Session(RULES, [BLUFFER, "call-down", "random"], seed=2).run(3)
    assert [r.net for r in a] == [r.net for r in b]


def test_the_spec_text_in_simulate_alone_and_in_a_list():
    a = ac.simulate(3, SPEC, **TINY)
    b = ac.simulate(3, BLUFFER, **TINY)
    assert a.mean_net.tolist() == b.mean_net.tolist()
    c = ac.simulate(3, [SPEC, "call-down", SPEC], **TINY)
    d = ac.simulate(3, [BLUFFER, "call-down", BLUFFER], **TINY)
    assert c.mean_net.tolist() == d.mean_net.tolist()


@pytest.mark.parametrize(
    "run",
    [
        lambda opp, hero: analysis.pass_values(HAND, 3, opponents=opp, hero=hero, **TINY),
        lambda opp, hero: analysis.discard_values(HAND, 3, opponents=opp, hero=hero, **TINY),
        lambda opp, hero: analysis.equity(HAND, 3, opponents=opp, hero=hero, **TINY),
        lambda opp, hero: analysis.reveal_values(FIVE, 3, opponents=opp, hero=hero, **TINY),
        lambda opp, hero: analysis.declare_values(FIVE, 3, opponents=opp, hero=hero, **TINY),
    ],
    ids=["pass_values", "discard_values", "equity", "reveal_values", "declare_values"],
)  # fmt: skip
def test_the_spec_text_in_every_analysis(run):
    text = run(SPEC, SPEC)
    objects = run(BLUFFER, BLUFFER)
    assert text["value"].tolist() == objects["value"].tolist()
    assert text.attrs["opponents"] == [BLUFFER.spec()] * 2 == objects.attrs["opponents"]
    mixed = run([SPEC, "random-pass"], SPEC)  # opponents as a list of specs
    assert mixed.attrs["opponents"] == [BLUFFER.spec(), "random-pass"]


def test_the_spec_text_in_the_learning_entry_points():
    text = exploitability(SPEC, 2, "pass", hands=2, deals=20, seed=5)
    objects = exploitability(BLUFFER, 2, "pass", hands=2, deals=20, seed=5)
    assert text.equals(objects)
    a = betting_exploitability(SPEC, 2, deals=20, passes=1, seed=5)
    b = betting_exploitability(BLUFFER, 2, deals=20, passes=1, seed=5)
    assert a.equals(b)
    with pytest.raises(ValueError, match="strategy 'sensible' has no parameter 'bluf'"):
        learn(2, strangers=("sensible:bluf=0.1",), progress=False)
