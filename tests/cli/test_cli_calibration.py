"""``anaconda-sim calibration``: the reliability table at the shell, its
files and its errors."""

from __future__ import annotations

import io

import pandas as pd

from anaconda_sim.cli.app import main
from anaconda_sim.learning import calibration
from anaconda_sim.output.tables import read_table


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_prints_and_writes_the_function_s_table(tmp_path) -> None:
    csv, png = tmp_path / "cal.csv", tmp_path / "cal.png"
    code, out, err = run(["calibration", "-p", "3", "-n", "400", "--seed", "5", "--out",
                          str(csv), "--plot", str(png)])  # fmt: skip
    assert code == 0, err
    assert out.startswith("calibration of the reads estimate - field 3 x learned, 400 deals")
    assert "largest gap in a bin holding at least 1% of the decisions" in out
    assert png.stat().st_size > 0
    written = read_table(csv)
    expected = calibration("learned", 3, deals=400, seed=5)
    pd.testing.assert_series_equal(written["observed"], expected["observed"],
                                   check_names=False)  # fmt: skip
    assert len(out.splitlines()) == 3 + len(expected) + 3


def test_the_win_table_estimate_and_its_errors() -> None:
    code, out, _ = run(["calibration", "-p", "2", "-n", "200", "--estimate", "win-table"])
    assert code == 0 and "win-table estimate" in out
    code, _, err = run(["calibration", "--strategy", "sensible", "--estimate", "win-table",
                        "-n", "50"])  # fmt: skip
    assert code == 2 and "give a 'learned' strategy or estimate='reads'" in err
    code, _, err = run(["calibration", "-p", "9"])
    assert code == 2 and "players=9 is too large" in err
