"""Sweeps with parametrised strategies: ``"sensible:bluff=0.1"`` wherever a
strategy name is accepted (opponents, hero), as parse_strategies reads it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anaconda_sim import analysis
from anaconda_sim.strategies import get_strategy
from anaconda_sim.sweep import SweepSpec, compute_sweep, load_spec

HAND = "Qs Qh 9c 8d 3s 4h 2c"
FIVE = "Qs Qh Qd 9c 9d"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def spec(**overrides):
    base = {"kind": "equity", "players": [3], "hands": [HAND], "deals": 300}
    return SweepSpec.from_dict({**base, **overrides})


def test_parametrised_strategies_are_kept_as_their_short_text():
    s = spec(opponents=["sensible:bluff=0.1", "sensible:bluff=0.1,continue_late=2, random-pass"],
             hero="sensible:aggressive_at=5")  # fmt: skip
    assert s.opponents == ("sensible:bluff=0.1", "sensible:continue_late=2,bluff=0.1,random-pass")
    assert s.hero == "sensible:aggressive_at=5"
    # default values are the plain name: same model, same text, same hash and seeds
    plain = spec(opponents="sensible", hero="call-down")
    spelled = spec(opponents="sensible:bluff=0,continue_late=4", hero="call-down")
    assert spelled.opponents == ("sensible",)
    assert spelled.spec_hash == plain.spec_hash
    assert [u.seed for u in spelled.units()] == [u.seed for u in plain.units()]


def test_plain_names_keep_the_shipped_hash():
    assert load_spec(EXAMPLES / "sweep_class_equity.toml").spec_hash == "badd2fcd4cbb66a4"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"opponents": "sensible:bluf=0.1"},
         "opponents[0]='sensible:bluf=0.1': strategy 'sensible' has no parameter 'bluf'; "
         "its parameters: aggressive_at"),
        ({"opponents": ["random-pass", "sensible:bluff=0.1,colour=2, call-down"]},
         "opponents[1]='sensible:bluff=0.1,colour=2, call-down': strategy 'sensible' has no "
         "parameter 'colour'"),
        ({"hero": "random-pass:bluff=0.1"},
         "hero='random-pass:bluff=0.1': strategy 'random-pass' has no parameter 'bluff'; "
         "its parameters: none"),
        ({"hero": "sensible:bluff"}, "hero='sensible:bluff': strategy parameter 'bluff' has no "
                                     "value; write it as bluff=VALUE"),
        ({"hero": "sensible:bluff=lots"}, "hero='sensible:bluff=lots': strategy parameter "
                                          "bluff='lots' is not a number"),
        ({"hero": "sensible, call-down"}, "hero='sensible, call-down' names 2 strategies"),
        ({"opponents": "sensible:bluff=0.1,random-pass,call-down"},
         "lists 3 strategies, but players=3 has 2 opponents"),
        ({"opponents": " , "}, "opponents[0]=' , ' names no strategy"),
    ],
)  # fmt: skip
def test_errors_name_the_bad_strategy(overrides, message):
    with pytest.raises(ValueError, match="^sweep spec: .*" + re.escape(message)):
        spec(**overrides)


def test_equity_sweep_with_parametrised_opponents_equals_direct_calls():
    opponents = "sensible:continue_late=2,bluff=0.1, random-pass"
    table = compute_sweep(spec(opponents=opponents, hero="sensible:aggressive_at=5"))
    assert table["opponents"].tolist() == ["sensible:continue_late=2,bluff=0.1,random-pass"]
    seats = [get_strategy("sensible", continue_late=2, bluff=0.1), "random-pass"]
    direct = analysis.equity(HAND, 3, opponents=seats, hero=get_strategy("sensible",
                             aggressive_at=5), deals=300, seed=int(table["hand_seed"].iat[0]),
                             progress=False)  # fmt: skip
    assert table["equity"].tolist() == direct["value"].tolist()


def test_reveal_sweep_with_parametrised_strategies_equals_direct_calls():
    table = compute_sweep({"kind": "reveal", "players": 3, "hands": [FIVE], "deals": 40,
                           "opponents": "sensible:continue_late=2", "hero": "sensible:bluff=0.2"})
    direct = analysis.reveal_values(FIVE, 3, opponents=get_strategy("sensible", continue_late=2),
                                    hero=get_strategy("sensible", bluff=0.2), deals=40,
                                    seed=int(table["hand_seed"].iat[0]), unicode=False,
                                    progress=False, fold=False)  # fmt: skip
    assert table["order"].tolist() == direct["order"].tolist()
    assert table["value"].tolist() == direct["value"].tolist()
