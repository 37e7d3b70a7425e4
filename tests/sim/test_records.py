"""Records at scale: columns, memory per row, streaming to Parquet, outcomes."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from anaconda_sim.hands.evaluator import CATEGORY_KEYS, category
from anaconda_sim.output.tables import read_table
from anaconda_sim.sim.simulator import score_choices, simulate
from anaconda_sim.table.rules import Rules

MIX = ["sensible", "random", "call-down", "sensible", "random", "sensible"]


def test_records_take_less_than_200_bytes_per_deal_and_seat() -> None:
    deals = 5000
    r = simulate(6, MIX, deals, seed=11, records=True, progress=False)
    rec = r.records
    assert len(rec) == deals * 6
    assert {str(dtype) for dtype in rec.dtypes} <= {"int8", "int16", "int32", "int64", "bool",
                                                    "category"}  # fmt: skip
    per_row = rec.memory_usage(deep=True).sum() / (deals * 6)
    assert per_row < 200
    assert per_row < 60  # 34 narrow columns: about 48 bytes
    cards = rec.filter(regex=r"^(dealt|passed|hand|discard)_").to_numpy()
    assert cards.dtype == np.int8 and cards.min() >= -1 and cards.max() <= 51


def test_records_agree_with_the_summary_statistics() -> None:
    rules = Rules(players=4)
    r = simulate(rules, "sensible", 4000, seed=5, records=True, progress=False)
    rec = r.records
    by_seat = rec.groupby("seat")
    np.testing.assert_allclose(by_seat["net"].mean().to_numpy(), r.mean_net)
    # a seat reaches the showdown when it shows a hand there
    np.testing.assert_allclose(rec["category"].notna().groupby(rec["seat"]).mean(),
                               r.showdown_rate)  # fmt: skip
    assert (rec["value"] >= 0).equals(rec["category"].notna())
    assert (rec.loc[rec["category"].notna(), "showdown"]).all()
    pots = rec.groupby("deal")["pot"].first()
    assert pots.mean() == r.mean_pot
    for c, key in enumerate(CATEGORY_KEYS):
        np.testing.assert_allclose((rec["category"] == key).groupby(rec["seat"]).mean(),
                                   r.category_freq[:, c])  # fmt: skip
    for rnd in range(rules.betting_rounds):
        np.testing.assert_allclose((rec["fold_round"] == rnd + 1).groupby(rec["seat"]).mean(),
                                   r.fold_rate[:, rnd])  # fmt: skip


@pytest.mark.slow
def test_records_do_not_depend_on_chunks_batches_or_threads(tmp_path: Path) -> None:
    rules = Rules.bicycle(5)
    base = simulate(rules, MIX[:5], 3000, seed=21, records=True, progress=False)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(rules, MIX[:5], 3000, seed=21, records=True, chunk_size=1000,
                       batch_size=7, progress=False)  # fmt: skip
    finally:
        numba.set_num_threads(before)
    pd.testing.assert_frame_equal(one.records, base.records)
    for chunk, batch in [(1, 1024), (999, 64), (5000, 3)]:
        path = tmp_path / f"c{chunk}.parquet"
        f = simulate(rules, MIX[:5], 3000, seed=21, records=path, chunk_size=chunk,
                     batch_size=batch, progress=False)  # fmt: skip
        assert f.records is None and f.records_file == path
        assert not path.with_name(path.name + ".partial").exists()
        pd.testing.assert_frame_equal(read_table(path), base.records, check_like=False)
        assert pq.ParquetFile(path).num_row_groups == -(-3000 // chunk)
        np.testing.assert_array_equal(f.outcome_counts, base.outcome_counts)
    # the file's rows do not depend on how it was cut: same bytes of data per column
    a = pq.read_table(tmp_path / "c999.parquet")
    b = pq.read_table(tmp_path / "c5000.parquet")
    assert a.equals(b)


@pytest.mark.slow
def test_streaming_many_deals_in_constant_memory(tmp_path: Path) -> None:
    small = simulate(3, "sensible", 2000, seed=8, records=True, progress=False)

    def stream(deals: int) -> tuple[Path, int]:
        path = tmp_path / f"{deals}.parquet"
        tracemalloc.start()
        try:
            simulate(3, "sensible", deals, seed=8, records=path, chunk_size=5000,
                     progress=False)  # fmt: skip
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return path, peak

    short_path, short_peak = stream(20_000)
    long_path, long_peak = stream(200_000)
    stored = pq.ParquetFile(long_path)
    assert stored.metadata.num_rows == 200_000 * 3
    assert stored.num_row_groups == 40
    # memory is held per chunk: ten times the deals, not ten times the memory
    assert long_peak < 1.5 * short_peak
    # in memory, 200,000 deals would be ~29 MB of records; the chunk's are ~1.4 MB
    assert long_peak < 0.5 * 200_000 * 3 * 48
    head = stored.read_row_groups([0]).to_pandas().iloc[: 2000 * 3]
    pd.testing.assert_frame_equal(head, small.records)
    tail = pq.read_table(long_path, filters=[("deal", ">=", 199_990)]).to_pandas()
    assert tail["deal"].tolist() == [d for d in range(199_990, 200_000) for _ in range(3)]
    model = read_table(short_path).attrs
    assert model["deals"] == 20_000 and model["seed"] == 8 and model["table"] == "records"


def test_ctrl_c_keeps_the_finished_deals_with_their_model(tmp_path: Path) -> None:
    path = tmp_path / "stopped.parquet"

    def stop(done: int, total: int) -> None:
        if done >= 3000:
            raise KeyboardInterrupt

    r = simulate(4, "sensible", 50_000, seed=3, records=path, chunk_size=1000, progress=stop)
    assert r.interrupted and r.deals == 3000
    stored = read_table(path)
    assert len(stored) == 3000 * 4
    assert stored.attrs["deals"] == 3000 and stored.attrs["interrupted"] is True
    full = simulate(4, "sensible", 3000, seed=3, records=True, progress=False)
    pd.testing.assert_frame_equal(stored, full.records)
    assert not path.with_name(path.name + ".partial").exists()


def test_a_failed_run_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "failed.parquet"

    def fail(done: int, total: int) -> None:
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError, match="disk on fire"):
        simulate(3, "sensible", 5000, seed=1, records=path, chunk_size=1000, progress=fail)
    assert list(tmp_path.iterdir()) == []


def test_choice_records_stream_like_in_memory(tmp_path: Path) -> None:
    kwargs = dict(hero=0, kind="pass", choices=["7h 3s 2c", "As Ad Kc"], deals=500, seed=4,
                  fixed={0: "As Ad Kc 7h 5d 3s 2c"}, progress=False)  # fmt: skip
    mem = score_choices(3, "sensible", records=True, **kwargs)
    path = tmp_path / "choices.parquet"
    streamed = score_choices(3, "sensible", records=path, chunk_size=64, **kwargs)
    stored = read_table(path)
    pd.testing.assert_frame_equal(stored, mem.records)
    assert stored.attrs["choices"] == ["7h 3s 2c", "As Ad Kc"]
    assert stored.attrs["hero"] == 0 and stored.attrs["fixed"] == {"0": "As Ad Kc 7h 5d 3s 2c"}
    assert streamed.records_file == path
    rec = mem.records
    assert len(rec) == 500 * 2 * 3 and rec["choice"].dtype == np.int16
    hero = rec[rec["seat"] == 0].groupby("choice")["net"].mean()
    np.testing.assert_allclose(hero.to_numpy(), mem.mean_net)


# --------------------------------------------------------------- outcomes --
def test_outcome_distribution_matches_the_records() -> None:
    r = simulate(5, MIX[:5], 6000, seed=17, records=True, progress=False)
    table = r.outcome_distribution(quantiles=(0.0, 0.1, 0.5, 0.9, 1.0))
    assert table["outcome"].tolist() == ["no_showdown", *CATEGORY_KEYS, "all"]
    deals = r.records.groupby("deal").first()
    outcome = deals["win_category"].astype(object).fillna("no_showdown")
    counts = outcome.value_counts()
    for row in table.itertuples():
        mine = deals["pot"] if row.outcome == "all" else deals.loc[outcome == row.outcome, "pot"]
        assert row.deals == len(mine) == (6000 if row.outcome == "all" else counts.get(
            row.outcome, 0))  # fmt: skip
        if len(mine) == 0:
            assert np.isnan(row.mean_pot) and np.isnan(row.pot_q50)
            continue
        p = len(mine) / 6000
        assert row.share == pytest.approx(p)
        assert row.ci_low <= row.share <= row.ci_high
        assert row.mean_pot == pytest.approx(mine.mean())
        if len(mine) > 1:
            assert row.pot_sd == pytest.approx(mine.std())
            assert row.pot_se == pytest.approx(mine.std() / np.sqrt(len(mine)))
        for q, column in [(0.0, "pot_q0"), (0.1, "pot_q10"), (0.5, "pot_q50"),
                          (0.9, "pot_q90"), (1.0, "pot_q100")]:  # fmt: skip
            assert getattr(row, column) == np.quantile(mine, q, method="inverted_cdf")
        assert row.pot_max == mine.max()
        if row.outcome != "all":
            assert row.se == pytest.approx(np.sqrt(p * (1 - p) / 6000))
    all_row = table.iloc[-1]
    assert all_row["share"] == 1.0 and all_row["se"] == 0.0
    assert all_row["mean_pot"] == r.mean_pot and all_row["pot_se"] == pytest.approx(r.pot_se)
    assert table["deals"].iloc[:-1].sum() == 6000
    assert table.attrs["table"] == "outcomes" and table.attrs["deals"] == 6000


def test_outcome_counts_without_records_equal_those_with() -> None:
    a = simulate(4, "sensible", 3000, seed=2, outcomes=True, progress=False)
    b = simulate(4, "sensible", 3000, seed=2, records=True, progress=False)
    assert a.records is None
    pd.testing.assert_frame_equal(a.outcome_distribution(), b.outcome_distribution())
    c = simulate(4, "sensible", 3000, seed=2, progress=False)
    np.testing.assert_array_equal(a.mean_net, c.mean_net)


def test_the_winning_category_is_that_of_the_best_value_shown() -> None:
    # nobody bets: every deal is a showdown and the pot is the two antes
    deals = 20_000
    r = simulate(Rules(players=2), "call-down", deals, seed=31, betting=False, records=True,
                 progress=False)  # fmt: skip
    table = r.outcome_distribution().set_index("outcome")
    assert table.loc["no_showdown", "deals"] == 0
    assert (table.loc["all", ["mean_pot", "pot_q10", "pot_q90", "pot_max"]] == 2.0).all()
    # an independent count: the evaluator's category of each deal's best value
    best = r.records.groupby("deal")["value"].max().to_numpy()
    expected = np.bincount(category(best), minlength=9)
    np.testing.assert_array_equal(table.loc[list(CATEGORY_KEYS), "deals"].to_numpy(), expected)


def test_outcome_distribution_refuses_bad_quantiles_and_uncounted_runs() -> None:
    r = simulate(3, "sensible", 100, seed=1, outcomes=True, progress=False)
    with pytest.raises(ValueError, match=r"1\.5 is not between 0 and 1"):
        r.outcome_distribution(quantiles=(0.5, 1.5))
    with pytest.raises(TypeError, match="must be numbers"):
        r.outcome_distribution(quantiles=("median",))
    with pytest.raises(ValueError, match="did not count outcomes"):
        simulate(3, "sensible", 100, seed=1, progress=False).outcome_distribution()
