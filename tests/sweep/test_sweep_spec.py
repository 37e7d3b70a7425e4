"""Sweep specs: validation messages, normalisation, hashing, units and seeds."""

from __future__ import annotations

import re

import pytest

from anaconda_sim.sweep import SweepSpec, derive_seed, load_spec
from anaconda_sim.sweep.spec import DEFAULT_OPPONENTS, DEFAULT_UNIT_SIZE

HAND = "Qs Qh 9c 8d 3s 4h 2c"
FIVE = "Qs Qh Qd 9c 9d"
PINNED = 7062005299342156090


def spec(**overrides):
    base = {"kind": "equity", "players": [2, 6], "hands": [HAND], "deals": 1000}
    return SweepSpec.from_dict({**base, **overrides})


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"player": 6}, "unknown key 'player' (did you mean 'players'?)"),
        ({"colour": "red"}, "unknown key 'colour'; keys are kind, players"),
        ({"kind": "bluff"}, "kind='bluff' is not an analysis; use one of equity, pass, discard"),
        ({"kind": []}, "kind=[] must list each analysis once"),
        ({"players": 9}, "players=9 is outside 2..7 (R2)"),
        ({"players": [2, 1]}, "players=1 is below 2"),
        ({"players": [3, 3]}, "players=[3, 3] must list each table size once"),
        ({"players": "6"}, "players='6' is not a whole number"),
        ({"players": True}, "players=True is not a whole number"),
        ({"hands": ["Qs Qh Xs 8d 3s 4h 2c"]}, "hands[0]='Qs Qh Xs 8d 3s 4h 2c': unknown rank 'X'"),
        ({"hands": [HAND, "Qs Qs 9c 8d 3s 4h 2c"]}, "hands[1]='Qs Qs 9c 8d 3s 4h 2c': duplicate"),
        ({"hands": [HAND, "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"]}, "repeats hands[0]"),
        ({"kind": "pass", "hands": [FIVE]}, "has 5 cards; kind 'pass' needs 7-card hands"),
        ({"kind": "reveal", "hands": [HAND]}, "has 7 cards; kind 'reveal' needs 5-card hands"),
        ({"hands": [], "hand_classes": []}, "no hands; give hands"),
        ({"hand_classes": ["QQ/Z"]}, "hand_classes: unknown hand class 'QQ/Z'"),
        ({"kind": "reveal", "hands": [FIVE], "hand_classes": "all"}, "kind 'reveal' needs five"),
        ({"samples_per_class": 4}, "samples_per_class=4 needs hand_classes"),
        ({"hand_classes": "all", "samples_per_class": 0}, "samples_per_class=0 is below 1"),
        ({"opponents": "bluffer"}, "opponents[0]='bluffer': unknown strategy 'bluffer'"),
        ({"opponents": ["random-pass", 3]}, "opponents[1]=3 is not a strategy name"),
        ({"opponents": "sensible,random"}, "lists 2 strategies, but players=2 has 1 opponents"),
        ({"opponents": ["sensible", "sensible"]}, "must list each opponent set once"),
        ({"hero": "bluffer"}, "hero='bluffer': unknown strategy"),
        ({"kind": "discard", "hero": "sensible"}, "plays no decision of a high-only discard"),
        ({"betting": True}, "betting=True applies to pass and reveal sweeps only"),
        ({"betting": "yes", "kind": "pass"}, "betting='yes' is not true or false"),
        ({"precision": 0.01}, "give deals or precision, not both"),
        ({"deals": None, "precision": -0.01}, "precision=-0.01 must be a positive standard error"),
        ({"deals": None, "precision": "tight"}, "precision='tight' is not a number"),
        ({"deals": 1}, "deals=1 is below 2"),
        ({"deals": 1.5}, "deals=1.5 is not a whole number"),
        ({"seed": -3}, "seed=-3 is below 0"),
        ({"unit_size": 0}, "unit_size=0 is below 1"),
        ({"unicode": "no"}, "unicode='no' is not true or false"),
    ],
)
def test_errors_name_the_bad_key_and_value(overrides, message):
    with pytest.raises(
        ValueError, match=re.escape("sweep spec: " + message) + "|" + re.escape(message)
    ):
        spec(**overrides)


def test_values_are_normalised():
    s = spec(kind="pass", players=4, hands="Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣",
             opponents=" sensible , random,random", seed=[3, 1])  # fmt: skip
    assert s.kind == ("pass",)
    assert s.players == (4,)
    assert s.hands == (HAND,)
    assert s.opponents == ("sensible,random,random",)
    assert s.deals == (1000,) and s.precision is None
    assert s.seed == (3, 1)
    default = SweepSpec(hands=[HAND])
    assert default.deals == (20_000,) and default.players == (6,) and default.kind == ("equity",)
    assert default.opponents is None and default.hero is None
    # no opponents named: the sweeps' own fixed defaults
    both = SweepSpec(kind=["equity", "reveal"], hands=["Qs Qh Qd 9c 9d"])
    assert [u.opponents for u in both.units()] == ["random-pass", "sensible"]


def test_sweeps_keep_their_default_opponents_while_the_analyses_default_to_learned():
    """A spec naming no opponents hashes with ``opponents = None`` and resolves
    the default into its seeds and rows: a new analysis default must not
    change its numbers behind the same hash (DEFAULT_OPPONENTS)."""
    import inspect

    from anaconda_sim import analysis

    for kind, name in (("equity", "equity"), ("pass", "pass_values"),
                       ("discard", "discard_values"), ("reveal", "reveal_values")):  # fmt: skip
        function = getattr(analysis, name)
        assert inspect.signature(function).parameters["opponents"].default == "learned"
        hand = "Qs Qh Qd 9c 9d" if kind == "reveal" else HAND
        unit = SweepSpec(kind=kind, hands=[hand]).units()[0]
        assert unit.opponents == DEFAULT_OPPONENTS[kind] != "learned"
    assert SweepSpec(hands=[HAND]).to_dict()["opponents"] is None


def test_class_selections_are_sorted_ids_or_all():
    from anaconda_sim.hands.classes import N_CLASSES, lookup_classes

    assert spec(hands=[], hand_classes="ALL").hand_classes == "all"
    s = spec(hands=[], hand_classes=["QQ/A", "AAAA", "qq/a"])
    assert s.hand_classes == tuple(sorted(lookup_classes(["QQ/A", "AAAA"])))
    assert spec(hands=[], hand_classes=list(range(N_CLASSES))).hand_classes == "all"
    assert len(spec(hands=[], hand_classes="quads").class_ids()) == 13


def test_hash_ignores_formatting_and_description_but_not_numbers():
    a = spec()
    assert a.spec_hash == spec(hands=["q♠ q♥ 9♣ 8♦ 3♠ 4♥ 2♣"], description="x").spec_hash
    assert a.spec_hash == load_spec(a.to_dict()).spec_hash
    for change in ({"deals": 1001}, {"seed": 2}, {"players": [2, 5]}, {"unit_size": 3},
                   {"opponents": "sensible"}, {"max_deals": 10}):  # fmt: skip
        assert spec(**change).spec_hash != a.spec_hash, change
    assert re.fullmatch(r"[0-9a-f]{16}", a.spec_hash)


def test_units_cover_the_grid_in_fixed_order():
    s = spec(kind=["equity", "pass"], players=[2, 3], hands=[HAND, "As Ks Qs Js 9s 2c 3d"],
             hand_classes=["AA/K"], samples_per_class=3, seed=[1, 2], unit_size=2)  # fmt: skip
    units = s.units()
    # 2 kinds x 1 opponents x 1 stop x 2 seeds x 2 players x ceil(5 hands / 2) units
    assert len(units) == 2 * 2 * 2 * 3
    assert [u.index for u in units] == list(range(len(units)))
    first = units[0]
    assert (first.kind, first.seed, first.players) == ("equity", 1, 2)
    assert [len(u.slots) for u in units[:3]] == [2, 2, 1]
    slots = [slot for u in units[:3] for slot in u.slots]
    assert slots[0].hand == HAND and slots[0].hand_class is None
    assert [(x.hand_class is not None, x.sample) for x in slots[2:]] == [
        (True, 0), (True, 1), (True, 2),
    ]  # fmt: skip
    assert s.units() == units


def test_default_unit_sizes_by_kind():
    s = spec(kind=["equity", "pass"], players=2, hands=[], hand_classes="quads")
    units = s.units()
    assert [len(u.slots) for u in units if u.kind == "equity"] == [13]
    pass_sizes = [len(u.slots) for u in units if u.kind == "pass"]
    assert max(pass_sizes) == DEFAULT_UNIT_SIZE["pass"] and sum(pass_sizes) == 13


def test_derived_seeds_are_pinned():
    # a change here changes every sweep's numbers: bump SPEC_VERSION if it is meant
    assert derive_seed(1, "equity", 6, "random-pass", 1000, None, "hand", HAND) == PINNED
    assert derive_seed(0) == 6028694103627938192
    assert derive_seed(0, "x") != derive_seed(0, "y") != derive_seed(1, "y")
    assert 0 <= derive_seed(2**40, "x") < 2**63


def test_toml_spec(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text(
        '# a comment\nkind = ["equity", "pass"]\nplayers = [3, 4]\n'
        'hands = ["Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"]\ndeals = 500\nseed = 9\n',
        encoding="utf-8",
    )
    s = load_spec(path)
    assert s.kind == ("equity", "pass") and s.hands == (HAND,) and s.seed == (9,)
    table = tmp_path / "table.toml"
    table.write_text('[sweep]\nkind = "pass"\nhands = ["Qs Qh 9c 8d 3s 4h 2c"]\n')
    assert load_spec(table).kind == ("pass",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('kind = "pass"\nplayers = [2, 9]\nhands = []', "spec.toml: sweep spec: players=9"),
        ('kind = "pass"\nplayrs = 6\n', "unknown key 'playrs' (did you mean 'players'?)"),
        ('kind = "pass\n', "spec.toml: not valid TOML"),
    ],
)
def test_toml_errors_name_the_file(tmp_path, text, message):
    path = tmp_path / "spec.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(message)):
        load_spec(path)


def test_missing_spec_file(tmp_path):
    with pytest.raises(ValueError, match=r"cannot read sweep spec .*nope\.toml"):
        load_spec(tmp_path / "nope.toml")
    with pytest.raises(TypeError, match="cannot read a sweep spec from int"):
        load_spec(3)


def test_example_specs_are_valid():
    from pathlib import Path

    examples = sorted((Path(__file__).resolve().parents[2] / "examples").glob("sweep_*.toml"))
    assert examples
    for path in examples:
        spec = load_spec(path)
        assert spec.units() and spec.description
