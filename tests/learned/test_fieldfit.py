"""The default field learned whole (learning/fieldfit.py): the significance
gate keeps what gains and refuses noise, the discard's choice is the
kernel's, the loop is seeded, resumes to the same field, and refuses a
checkpoint of other settings; the command writes size by size."""

from __future__ import annotations

import dataclasses
import itertools
import json
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from naive_learned import naive_show_discard
from numba import njit

from anaconda_sim.hands.classes import class_ids, hand_classes
from anaconda_sim.hands.evaluator import eval_cards
from anaconda_sim.learning.exploit import situation_seeds, stratified_situations
from anaconda_sim.learning.fieldfit import (
    DECISIONS,
    confirmed_gain,
    discard_candidate,
    keep_threshold,
    learn_field,
    main,
    order_candidate,
    stopping_rule,
)
from anaconda_sim.learning.showfit import (
    DiscardData,
    OrderData,
    best_show_scores,
    fit_keep,
    keep_choices,
    keep_policy_values,
)
from anaconda_sim.rng import new_state
from anaconda_sim.sim.simulator import simulate
from anaconda_sim.strategies.learned.params import (
    LEARNED_SLOTS,
    OWN_BUCKETS,
    SHOW_ARRAY_SIZE,
    SHOW_MODE,
    SHOW_SIZE,
    SHOW_TAU,
)
from anaconda_sim.strategies.learned.show import (
    discard_shown,
    fill_discard_tables,
    keep_prior,
    show_prior,
)
from anaconda_sim.strategies.learned.winprob import OWN_BUCKET
from anaconda_sim.table import views as V

TINY = dict(situations=8, deals=40, pass_bet_situations=4, order_situations=4,
            discard_situations=4, card_deals=20, bet_deals=200, table_deals=400,
            eval_situations=2, eval_deals=20)  # fmt: skip


def test_the_threshold_is_bonferroni_over_the_candidates() -> None:
    assert keep_threshold(0.05, 4) == pytest.approx(NormalDist().inv_cdf(1 - 0.05 / 4))
    assert keep_threshold(0.05, 4) > keep_threshold(0.05, 1)
    with pytest.raises(ValueError, match=r"alpha=1\.5"):
        keep_threshold(1.5, 4)
    gain, se = confirmed_gain(np.array([0.1, 0.3, 0.2, 0.4]))
    assert gain == pytest.approx(0.25) and se == pytest.approx(np.std([1, 3, 2, 4], ddof=1) / 20)


def _order_data(rng: np.random.Generator, n: int, signal: float) -> OrderData:
    """Order situations of 16 candidates each whose values are noise plus
    ``signal`` times a feature the prior table does not reward (showing a
    pair after the second card)."""
    own = rng.integers(0, 3, n)  # three own buckets: three fits per table
    features = np.zeros((n, 120, 24))
    cells = rng.integers(0, 8, (n, 120, 3)) + np.array([0, 8, 16])
    for r in range(3):
        np.put_along_axis(features, cells[:, :, r : r + 1], 1.0, axis=2)
    candidates = np.zeros((n, 120), dtype=bool)
    candidates[:, :16] = True
    values = rng.normal(0.0, 1.0, (n, 120)) + signal * features[:, :, 1]
    return OrderData(own, features, values, candidates)


def test_the_gate_keeps_an_order_that_gains_and_refuses_noise() -> None:
    """On noise the half fits confirm nothing (in 20 draws at the gate's
    threshold, at most two kept: the chance of a false keep is 1.25% each);
    on values that pay for showing a pair early, the gain is confirmed."""
    rng = np.random.default_rng(5)
    z = keep_threshold(0.05, len(DECISIONS))
    kept = 0
    for _ in range(20):
        _, gains = order_candidate(_order_data(rng, 120, 0.0), show_prior(), 0.3)
        gain, se = confirmed_gain(gains)
        kept += gain > z * se
    assert kept <= 2
    fitted, gains = order_candidate(_order_data(rng, 240, 3.0), show_prior(), 0.3)
    gain, se = confirmed_gain(gains)
    assert gain > z * se and gains.shape == (240,)
    assert fitted.shape == (SHOW_SIZE,)


def _sevens(seed: int, n: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [sorted(rng.choice(52, 7, replace=False).tolist()) for _ in range(n)]


def _discard_features(seven: list[int], show: np.ndarray) -> tuple[list[list[int]], np.ndarray,
                                                                     np.ndarray]:  # fmt: skip
    """The 21 fives of ``seven`` in the twin's order, their keep features and hand values."""
    fives = [[c for t, c in enumerate(seven) if t not in pair]
             for pair in itertools.combinations(range(7), 2)]  # fmt: skip
    strength = np.array([eval_cards(np.array(f, dtype=np.int64), 5) for f in fives])
    features = np.zeros((21, OWN_BUCKETS + 1))
    features[np.arange(21), OWN_BUCKET[strength]] = 1.0
    features[:, OWN_BUCKETS] = best_show_scores(np.array(fives), show)
    return fives, features, strength


@pytest.mark.parametrize("kind", ["random", "whole", "prior"])
def test_the_discard_choice_is_the_kernel_s(kind: str) -> None:
    """keep_choices keeps the five the plain twin of the kernel keeps
    (ties to the higher hand value), on 150 random sevens."""
    rng = np.random.default_rng(11)
    show = rng.normal(0.0, 1.0, SHOW_SIZE)
    keep = {"random": np.append(rng.normal(0.0, 1.0, 12), rng.uniform(0.0, 2.0)),
            "whole": rng.integers(-2, 3, 13).astype(np.float64) ** 2,
            "prior": keep_prior()}[kind]  # fmt: skip
    array = np.concatenate([[0.0], show, keep])
    for seven in _sevens(12, 150):
        fives, features, strength = _discard_features(seven, show)
        data = DiscardData(features[None], np.zeros((1, 21)), strength[None])
        chosen = fives[int(keep_choices(keep, data)[0])]
        twin = naive_show_discard(array, seven, new_state(np.uint64(1), 0, 0))
        assert sorted(chosen) == sorted(twin[2:]), (kind, seven)


@njit(cache=False)
def _kept_fives(seven, params, n, seed):
    """The five the discard kernel keeps from ``seven`` in ``n`` draws from
    one stream, each as a bit mask of the seven's positions."""
    own = np.zeros(V.OWN_SIZE, dtype=np.int32)
    out = np.zeros(8, dtype=np.int64)
    rng = new_state(np.uint64(seed), 0, 0)
    kept = np.empty(n, dtype=np.int64)
    for i in range(n):
        own[V.O_NCARDS] = 7
        for j in range(7):
            own[V.O_CARDS + j] = seven[j]
        discard_shown(own, params, rng, out)
        mask = 0
        for j in range(7):
            if seven[j] != out[0] and seven[j] != out[1]:
                mask |= 1 << j
        kept[i] = mask
    return kept


def test_the_drawn_discard_s_value_is_the_kernel_s_draw() -> None:
    """At a keep temperature (R8: the discard drawn among the fives), the
    expected value the fit scores a keep table by is that of the kernel's
    draw: each five's share of 20,000 of the kernel's draws is its softmax
    weight within 4.5 binomial standard errors, and the values weighted by
    those shares are keep_policy_values'. (The kernel's draw is the plain
    twin's, tests/learned/test_show.py.)"""
    rng = np.random.default_rng(13)
    show = rng.normal(0.0, 1.0, SHOW_SIZE)
    keep, tau = np.append(rng.normal(0.0, 1.0, 12), 0.8), 0.7
    seven = _sevens(14, 1)[0]
    _, features, strength = _discard_features(seven, show)
    values = rng.normal(0.0, 1.0, (1, 21))
    data = DiscardData(features[None], values, strength[None])
    scores = features @ keep
    weights = np.exp((scores - scores.max()) / tau)
    weights /= weights.sum()
    assert keep_policy_values(keep, tau, data)[0] == pytest.approx(float(weights @ values[0]))
    params = np.zeros(LEARNED_SLOTS)
    params[SHOW_MODE] = 1.0
    params[SHOW_TAU : SHOW_TAU + SHOW_ARRAY_SIZE] = np.concatenate([[0.0], show, keep, [tau]])
    fill_discard_tables(params)
    n = 20_000
    kept = _kept_fives(np.array(seven, dtype=np.int64), params, n, 5)
    masks = [sum(1 << t for t in range(7) if t not in pair)
             for pair in itertools.combinations(range(7), 2)]  # the twin's order of fives
    counts = np.array([(kept == m).sum() for m in masks])
    assert counts.sum() == n
    se = np.sqrt(weights * (1 - weights) / n)
    assert (np.abs(counts / n - weights) <= 4.5 * se + 1e-12).all()
    assert (weights > 0.01).sum() >= 3  # the draw is spread, not a near argmax


def test_the_discard_gate_and_the_rare_buckets() -> None:
    """A keep table paid for keeping a lower bucket is confirmed; a bucket
    offered in too few situations keeps its entry."""
    rng = np.random.default_rng(6)
    n = 200
    features = np.zeros((n, 21, OWN_BUCKETS + 1))
    own = rng.integers(2, 6, (n, 21))
    own[:5, 0] = 11  # bucket 11: offered in 5 situations only
    features[np.arange(n)[:, None], np.arange(21)[None, :], own] = 1.0
    values = rng.normal(0.0, 0.2, (n, 21)) + (own == 3)  # keeping bucket 3 pays
    data = DiscardData(features, values, np.zeros((n, 21), dtype=np.int64))
    fitted, gains = discard_candidate(data, keep_prior())
    gain, se = confirmed_gain(gains)
    assert gain > keep_threshold(0.05, 4) * se
    assert fitted[11] == keep_prior()[11]
    assert fit_keep(keep_prior(), data, min_situations=1)[11] != keep_prior()[11]


def test_the_situations_are_stratified_over_the_families() -> None:
    """Each starting-hand family is drawn within one of its share of n (the
    seat's dealt seven being the first seven of the situation's shuffled
    deck), the numbers are distinct and ascending, and a seed draws the
    same ones."""
    n = 400
    picked = stratified_situations(n, 7)
    assert np.array_equal(picked, stratified_situations(n, 7))
    assert len(set(picked.tolist())) == n and (np.diff(picked) > 0).all()
    sevens = np.array([np.random.default_rng(situation_seeds(7, int(i))[0]).permutation(52)[:7]
                       for i in picked])  # fmt: skip
    table = hand_classes()
    families = pd.Series(table["family"].to_numpy()[class_ids(sevens)]).value_counts()
    share = table.groupby("family")["probability"].sum() * n
    for family, expected in share.items():
        assert abs(families.get(family, 0) - expected) <= 1.0 + 1e-9, family


def test_the_stopping_rule() -> None:
    quiet = {"h2h_chips": -0.02, "h2h_se": 0.015}
    loud = {"h2h_chips": 0.05, "h2h_se": 0.01}
    assert stopping_rule([loud, quiet, quiet, quiet])
    assert not stopping_rule([quiet, loud, quiet])
    assert not stopping_rule([quiet, quiet])


@pytest.fixture(scope="module")
def two_iterations() -> pd.DataFrame:
    fit = learn_field(2, iterations=2, seed=4, **TINY)
    return fit


def test_the_loop_measures_every_decision_and_plays(two_iterations) -> None:
    history = two_iterations.history
    assert history["iteration"].tolist() == [0, 1]
    for decision in DECISIONS:
        for column in ("exploitability", "se", "gain", "gain_se", "kept"):
            assert f"{decision}_{column}" in history
    assert {"h2h_chips", "h2h_se", "seconds", "cpu_seconds", "bet_changes"} <= set(history)
    assert np.isfinite(history[["pass_exploitability", "order_se", "h2h_se"]].to_numpy()).all()
    result = simulate(2, [two_iterations.strategy(), "sensible"], 300, seed=1, progress=False)
    assert np.isfinite(result.mean_net).all() and abs(float(np.sum(result.mean_net))) < 1e-9


def test_the_loop_is_seeded_and_resumes_to_the_same_field(two_iterations, tmp_path) -> None:
    """One iteration, stopped, then resumed to two: the same field and the
    same history (but the times) as two in one go, and as a second run."""
    path = tmp_path / "field.npz"
    learn_field(2, iterations=1, seed=4, checkpoint=path, **TINY)
    resumed = learn_field(2, iterations=2, seed=4, checkpoint=path, **TINY)
    again = learn_field(2, iterations=2, seed=4, **TINY)
    for other in (resumed, again):
        assert other.strategy() == two_iterations.strategy()
        times = ["seconds", "cpu_seconds"]
        pd.testing.assert_frame_equal(other.history.drop(columns=times),
                                      two_iterations.history.drop(columns=times))  # fmt: skip
    with pytest.raises(ValueError, match="bet_deals"):
        learn_field(2, iterations=2, seed=4, checkpoint=path, **{**TINY, "bet_deals": 300})


def test_a_loop_fitting_some_decisions_leaves_the_others(two_iterations) -> None:
    """Fitting the reveal order alone: the pass, the keep table and the
    betting stay the starting field's (the first iteration of a full run
    starts from the same field), the others' gains are not screened."""
    fit = learn_field(2, iterations=1, seed=4, fitted=("order",), **TINY)
    row = fit.history.iloc[0]
    assert np.isnan(row["pass_gain"]) and np.isnan(row["bet_gain"]) and not row["discard_kept"]
    assert np.isfinite(row["order_gain"]) and np.isfinite(row["discard_exploitability"])
    assert row["z"] == pytest.approx(keep_threshold(0.05, 1))
    start = learn_field(2, iterations=1, seed=4, fitted=("pass",), **TINY).state
    assert fit.state.betting == start.betting
    assert np.array_equal(fit.state.keep, keep_prior())
    with pytest.raises(ValueError, match="fitted"):
        learn_field(2, fitted=("bluff",), **TINY)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="order_situations"):
        learn_field(2, **{**TINY, "order_situations": 3})
    with pytest.raises(ValueError, match="temperature"):
        learn_field(2, temperature=-1.0, **TINY)
    with pytest.raises(TypeError, match="strangers"):
        learn_field(2, strangers="sensible", **TINY)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="keep_temperature"):
        learn_field(2, keep_temperature=-0.1, **TINY)


def test_a_loop_with_a_drawn_discard_plays_and_resumes_only_with_it(tmp_path) -> None:
    """keep_temperature: the field's show array ends with it, the discard is
    drawn in play, and a checkpoint written with it refuses other settings."""
    path = tmp_path / "drawn.npz"
    fit = learn_field(2, iterations=1, seed=4, keep_temperature=0.5, checkpoint=path, **TINY)
    assert fit.state.keep_temperature == 0.5 and fit.strategy().show[-1] == 0.5
    assert fit.settings["keep_temperature"] == 0.5
    resumed = learn_field(2, iterations=1, seed=4, keep_temperature=0.5, checkpoint=path, **TINY)
    assert resumed.strategy() == fit.strategy()
    with pytest.raises(ValueError, match="keep_temperature"):
        learn_field(2, iterations=2, seed=4, checkpoint=path, **TINY)
    result = simulate(2, [fit.strategy(), "sensible"], 300, seed=1, progress=False)
    assert np.isfinite(result.mean_net).all()


def test_the_command_writes_each_size(tmp_path, monkeypatch) -> None:
    import anaconda_sim.learning.fieldfit as fieldfit

    real = fieldfit.learn_field
    monkeypatch.setattr(fieldfit, "learn_field",
                        lambda players, **kw: real(players, **{**kw, **TINY}))  # fmt: skip
    for players in ("2", "3"):
        assert main(["--players", players, "--iterations", "1", "--out", str(tmp_path)]) == 0
    with np.load(tmp_path / "field.npz") as data:
        assert {"show_2", "keep_3", "card_2", "betting_3", "factor_2"} <= set(data.files)
        model = json.loads(str(data["model_3"]))
    assert model["command"].startswith("python -m anaconda_sim.learning.fieldfit")
    history = pd.read_csv(tmp_path / "field_history.csv")
    assert sorted(history["players"].unique()) == [2, 3]
    assert (tmp_path / "checkpoints" / "field_2.npz").exists()


def test_the_command_screens_the_order_situations_it_is_given(tmp_path, monkeypatch) -> None:
    """``--order-situations`` reaches the loop and its command in the model
    (the seven-player field is learned on 900); the default is not written."""
    import anaconda_sim.learning.fieldfit as fieldfit

    seen = []
    real = fieldfit.learn_field

    def tiny(players, **kw):
        seen.append(kw["order_situations"])
        return real(players, **{**kw, **TINY})

    monkeypatch.setattr(fieldfit, "learn_field", tiny)
    assert main(["--players", "2", "--iterations", "1", "--order-situations", "900",
                 "--out", str(tmp_path / "a")]) == 0  # fmt: skip
    assert main(["--players", "2", "--iterations", "1", "--out", str(tmp_path / "b")]) == 0
    assert seen == [900, fieldfit.ORDER_SITUATIONS]
    commands = []
    for folder in ("a", "b"):
        with np.load(tmp_path / folder / "field.npz") as data:
            commands.append(json.loads(str(data["model_2"]))["command"])
    assert commands[0].endswith("--order-situations 900")
    assert "--order-situations" not in commands[1]


def test_a_learned_field_ships_and_is_what_learned_plays(tmp_path, monkeypatch) -> None:
    """``--ship`` copies sizes of a field.npz into the package's field; then
    ``"learned"`` at that size plays that field's card weights, betting,
    equity tables and show array (the same array as ``"learned-v2"`` given
    them all), and at a size not shipped plays ``"learned-v2"``."""
    import anaconda_sim.learning.fieldfit as fieldfit
    import anaconda_sim.strategies.learned.fielddata as fielddata
    from anaconda_sim.strategies import get_strategy
    from anaconda_sim.strategies.spec import _param_array

    real = fieldfit.learn_field
    monkeypatch.setattr(fieldfit, "learn_field",
                        lambda players, **kw: real(players, **{**kw, **TINY}))  # fmt: skip
    work, package = tmp_path / "work", tmp_path / "package" / "field.npz"
    assert main(["--players", "3", "--iterations", "1", "--out", str(work)]) == 0
    monkeypatch.setattr(fieldfit, "shipped_field_path", lambda: package)
    with pytest.raises(ValueError, match="players=4"):
        main(["--ship", str(work / "field.npz"), "--players", "3,4"])
    assert not package.exists()  # nothing half-shipped
    assert main(["--ship", str(work / "field.npz"), "--players", "3"]) == 0
    with np.load(package) as data:
        shipped = {name: data[name] for name in data.files}
    with np.load(work / "field.npz") as data:
        assert all(np.array_equal(data[name], shipped[name]) for name in shipped)
    monkeypatch.setattr(fielddata, "_shipped", lambda: shipped)
    _param_array.cache_clear()
    try:
        field = fielddata.shipped_field(3)
        assert field is not None and fielddata.shipped_field(4) is None
        assert field.card == dict(zip(fielddata.CARD_NAMES, shipped["card_3"], strict=True))
        same = get_strategy("learned-v2", **field.card, **field.betting)
        same = dataclasses.replace(same, equity=tuple(field.equity), show=tuple(field.show))
        assert np.array_equal(get_strategy("learned").param_array(3), same.param_array(3))
        assert not np.array_equal(get_strategy("learned").param_array(3),
                                  get_strategy("learned-v2").param_array(3))  # fmt: skip
        assert np.array_equal(get_strategy("learned").param_array(4),
                              get_strategy("learned-v2").param_array(4))  # fmt: skip
        model = fielddata.shipped_field_model(3)
        assert model is not None and model["players"] == 3 and len(model["history"]) == 1
    finally:
        _param_array.cache_clear()


def test_a_field_of_other_shapes_is_refused(tmp_path) -> None:
    from anaconda_sim.learning.fieldfit import ship_field

    source = tmp_path / "field.npz"
    names = ("card", "betting", "show", "keep", "temperature", "factor", "curve", "pairs",
             "decisions", "tables_model", "model")  # fmt: skip
    np.savez(source, **{f"{name}_2": np.zeros(3) for name in names})
    with pytest.raises(ValueError, match="3 card weights"):
        ship_field(source, [2], target=tmp_path / "package.npz")
    assert not (tmp_path / "package.npz").exists()


def test_the_default_field_is_shipped_for_every_table_size() -> None:
    """``"learned"`` plays a learned field at 2-7 players (not
    ``"learned-v2"``'s vectors), each with the command that regenerates it
    and a history of at least one iteration."""
    from anaconda_sim.strategies import get_strategy
    from anaconda_sim.strategies.learned.fielddata import shipped_field, shipped_field_model

    for players in range(2, 8):
        field, model = shipped_field(players), shipped_field_model(players)
        assert field is not None and model is not None, players
        assert model["players"] == players and len(model["history"]) >= 1
        assert model["command"].startswith("python -m anaconda_sim.learning.fieldfit")
        assert field.show is not None and field.equity_model
        assert not np.array_equal(get_strategy("learned").param_array(players),
                                  get_strategy("learned-v2").param_array(players))  # fmt: skip
