"""Tables written with their model, read back with it, refused without it."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from anaconda_sim import pass_values
from anaconda_sim.output.tables import read_table, write_table
from anaconda_sim.provenance import META_KEY, sidecar_path


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return pass_values("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", 5, opponents="sensible", deals=400, seed=3,
                       progress=False)  # fmt: skip


@pytest.mark.parametrize("suffix", [".csv", ".json", ".parquet"])
def test_a_written_table_comes_back_with_its_model(tmp_path, table, suffix):
    path = write_table(table, tmp_path / f"pass{suffix}")
    back = read_table(path)
    assert back["value"].tolist() == pytest.approx(table["value"].tolist(), abs=1e-12)
    assert back["pass"].tolist() == table["pass"].tolist()
    for key in ("analysis", "function", "players", "opponents", "hero", "betting", "seed",
                "deals", "value_unit", "rules", "model"):  # fmt: skip
        assert back.attrs[key] == table.attrs[key], key
    assert back.attrs["opponents"][0].startswith("sensible:aggressive_at=")
    assert back.attrs["library_version"] and back.attrs["written"].endswith("+00:00")


def test_csv_and_json_models_live_in_a_sidecar(tmp_path, table):
    path = write_table(table, tmp_path / "pass.csv")
    record = json.loads(sidecar_path(path).read_text(encoding="utf-8"))
    assert record["library"] == "anaconda-sim" and record["model"]["players"] == 5
    assert "anaconda" not in path.read_text(encoding="utf-8").splitlines()[0]  # plain CSV


def test_parquet_keeps_the_model_in_its_schema(tmp_path, table):
    import pyarrow.parquet as pq

    path = write_table(table, tmp_path / "pass.parquet")
    metadata = pq.read_schema(path).metadata
    assert json.loads(metadata[META_KEY])["model"]["seed"] == 3


def test_files_without_a_readable_model_are_refused(tmp_path, table):
    bare = tmp_path / "bare.csv"
    table.to_csv(bare, index=False)
    with pytest.raises(ValueError, match=r"sidecar 'bare\.csv\.meta\.json' is missing"):
        read_table(bare)
    plain = tmp_path / "plain.parquet"
    table.to_parquet(plain)
    with pytest.raises(ValueError, match="carries no model"):
        read_table(plain)
    broken = write_table(table, tmp_path / "broken.json")
    sidecar_path(broken).write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not readable JSON"):
        read_table(broken)
    future = write_table(table, tmp_path / "future.csv")
    record = json.loads(sidecar_path(future).read_text(encoding="utf-8"))
    sidecar_path(future).write_text(json.dumps({**record, "format": 99}), encoding="utf-8")
    with pytest.raises(ValueError, match="provenance format 99"):
        read_table(future)
    with pytest.raises(ValueError, match=r"unknown extension '\.xlsx'"):
        read_table(tmp_path / "pass.xlsx")
