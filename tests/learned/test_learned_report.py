"""The reports of scripts/ (learned_report.py, full_deal_report.py) in their quick modes."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest

from anaconda_sim import read_table

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str) -> ModuleType:
    """A script of ``scripts/`` imported as a module."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "scripts"))


@pytest.mark.slow
def test_learned_report_quick_mode(tmp_path, capsys):
    learned_report = _script("learned_report")
    exploit, h2h = learned_report.main(["--quick", "--out", str(tmp_path)])
    capsys.readouterr()
    assert set(exploit["strategy"]) == {"random-pass", "sensible", "learned-v1", "learned-v2",
                                        "learned"}  # fmt: skip
    assert sorted(set(exploit["players"])) == [2, 3, 4, 5, 6, 7]
    assert set(exploit["model"]) == {"showdown", "betting"}
    assert set(exploit["decision"]) == {"pass", "order", "betting"}
    betting = exploit[exploit["decision"] == "betting"]
    assert set(betting["strategy"]) == {"sensible", "learned-v1", "learned-v2", "learned"}
    assert len(betting) == 24
    assert (exploit["se"] >= 0).all()
    assert len(h2h) == 14 and (h2h["ci_low"] <= h2h["value"]).all()
    back = read_table(tmp_path / "exploitability.csv")
    assert back.attrs["analysis"] == "exploitability" and len(back) == len(exploit)


@pytest.mark.slow
def test_full_deal_report_quick_mode_resumes(tmp_path, capsys):
    full_deal_report = _script("full_deal_report")
    full_deal_report.main(["--quick", "--out", str(tmp_path)])
    capsys.readouterr()
    table = read_table(tmp_path / "full_deal_exploitability.csv")
    assert set(table["strategy"]) == set(full_deal_report.STRATEGIES)
    assert set(table["players"]) == {2}
    whole = table[table["decision"] == "all"]
    assert sorted(whole["kind"].unique()) == ["advantage", "realised"]
    assert len(whole) == 2 * len(full_deal_report.STRATEGIES)
    assert table.attrs["command"] == "python scripts/full_deal_report.py"
    assert not (tmp_path / "full_deal_exploitability.partial.csv").exists()
    # an interrupted run keeps its finished row sets: given them, nothing is recomputed
    kept = table[table["strategy"] != "learned"].drop(
        columns=["one_decision", "one_decision_max", "one_decision_se"])
    again = full_deal_report.full_deal_table({"learned": 2}, 40, 2026, (2,), done=kept)
    capsys.readouterr()
    assert set(again["strategy"]) == set(full_deal_report.STRATEGIES)
    learned = again[again["strategy"] == "learned"].reset_index(drop=True)
    before = table[table["strategy"] == "learned"].reset_index(drop=True)
    assert learned["value"].tolist() == before["value"].tolist()
    # --merge measures some rows again and keeps the others, with both commands
    full_deal_report.main(["--quick", "--strategies", "learned", "--merge", "--out", str(tmp_path)])
    capsys.readouterr()
    merged = read_table(tmp_path / "full_deal_exploitability.csv")
    assert merged["strategy"].tolist() == table["strategy"].tolist()
    pd.testing.assert_frame_equal(merged.drop(columns="seconds"), table.drop(columns="seconds"))
    assert merged.attrs["commands"] == ["python scripts/full_deal_report.py --quick",
                                       "python scripts/full_deal_report.py --quick "
                                       "--strategies learned --merge"]  # fmt: skip


def test_full_deal_report_pools_later_situations(tmp_path, capsys):
    """--first N --merge measures situations N .. N + hands - 1 and pools them
    with the rows of situations 0 .. N - 1; another count is refused."""
    full_deal_report = _script("full_deal_report")
    full_deal_report.main(["--quick", "--strategies", "sensible", "--out", str(tmp_path)])
    first = read_table(tmp_path / "full_deal_exploitability.csv")
    full_deal_report.main(["--quick", "--strategies", "sensible", "--merge", "--first", "2",
                           "--out", str(tmp_path)])  # fmt: skip
    capsys.readouterr()
    pooled = read_table(tmp_path / "full_deal_exploitability.csv")
    assert pooled["situations"].tolist() == [4] * len(first)
    assert pooled["decision"].tolist() == first["decision"].tolist()
    assert pooled.attrs["commands"][-1].endswith("--merge --first 2")
    with pytest.raises(SystemExit, match="--first 3"):
        full_deal_report.main(["--quick", "--strategies", "sensible", "--merge", "--first", "3",
                               "--out", str(tmp_path)])  # fmt: skip
    with pytest.raises(SystemExit, match="give --merge"):
        full_deal_report.main(["--quick", "--first", "2", "--out", str(tmp_path)])
