"""Sweeps under the hi-lo rules (R21-R26): the spec's ``rules`` key."""

from __future__ import annotations

from pathlib import Path

import pytest

from anaconda_sim.sweep import SweepSpec, compute_unit, load_spec, summarize_classes


def test_a_hilo_equity_sweep_records_its_rules_and_both_halves():
    spec = SweepSpec(kind="equity", rules="hi-lo", players=3, hand_classes=["AA/K"],
                     samples_per_class=2, deals=300, hero="call-down")  # fmt: skip
    table = compute_unit(spec, spec.units()[0])
    assert set(table["rules"]) == {"hi-lo"}
    assert {"high_share", "low_share"} <= set(table.columns)
    assert (table["high_share"] + table["low_share"] <= table["equity"] + 1e-12).all()
    summary = summarize_classes(table)
    assert summary["rules"].tolist() == ["hi-lo"]
    assert summary["high_share"].item() == pytest.approx(table["high_share"].mean())
    # the same hands under the default rules: other seeds, other numbers, no halves
    pagat = SweepSpec(kind="equity", players=3, hand_classes=["AA/K"], samples_per_class=2,
                      deals=300, hero="call-down")  # fmt: skip
    plain = compute_unit(pagat, pagat.units()[0])
    assert set(plain["rules"]) == {"pagat"} and "high_share" not in plain
    assert plain["hand"].tolist() == table["hand"].tolist()
    assert spec.spec_hash != pagat.spec_hash


def test_the_default_rules_keep_the_shipped_spec_hash():
    # data/README.md names this hash: specs written before rules were a key
    examples = Path(__file__).resolve().parents[2] / "examples"
    assert load_spec(examples / "sweep_class_equity.toml").spec_hash == "badd2fcd4cbb66a4"
    hilo = load_spec(examples / "sweep_class_equity_hilo.toml")
    assert hilo.rules == "hi-lo" and hilo.spec_hash == "4773716a3b24569f"
    # the shipped specs name their opponents: the analyses' default changes nothing
    assert hilo.opponents == ("random-pass",)


def test_an_unknown_rule_set_is_refused():
    with pytest.raises(ValueError, match="sweep spec: rules='bicycle' is not a rule set the "
                       "analyses model; use one of 'pagat', 'hi-lo'"):  # fmt: skip
        SweepSpec(kind="equity", rules="bicycle", hands=["Qs Qh 9c 8d 3s 4h 2c"])
