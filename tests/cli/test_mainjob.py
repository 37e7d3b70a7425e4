"""The main job and the analysis commands of the CLI, end to end at small sizes."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pandas as pd
import pytest

from anaconda_sim.cli import mainjob
from anaconda_sim.cli.app import main
from anaconda_sim.cli.mainjob import MainJobConfig, run_main_job, worked_example_report


def test_worked_example_report_follows_the_rules_text():
    text = worked_example_report()
    assert "Full house, queens over nines" in text
    assert "discard 8♦ 5♠" in text
    assert "9♣ Q♠ 9♦ Q♥  -> Two pair" in text  # R11: the four exposed show two pair


def test_main_job_writes_tables_and_charts(tmp_path):
    lines: list[str] = []
    files = run_main_job(tmp_path, MainJobConfig.quick(), echo=lines.append)
    for name in ("categories", "pass", "discard", "reveal"):
        assert files[f"{name}_png"].stat().st_size > 10_000
        table = pd.read_csv(files[f"{name}_csv"])
        assert len(table) == {"categories": 9, "pass": 35, "discard": 21, "reveal": 60}[name]
    # Q♠ Q♥ Q♦ 9♣ 9♦: orders alike up to ♥ <-> ♠ are one row of two (item: equal choices folded)
    assert pd.read_csv(files["reveal_csv"])["count"].tolist() == [2] * 60
    pass_table = pd.read_csv(files["pass_csv"])
    assert {"pass", "keep", "value", "se", "ci_low", "ci_high", "rank"} <= set(pass_table)
    discard = pd.read_csv(files["discard_csv"])
    assert discard["discard"].iloc[0] == "8♦ 5♠"  # keeps the full house
    categories = pd.read_csv(files["categories_csv"])
    assert categories["probability"].sum() == pytest.approx(1.0)
    text = "\n".join(lines)
    assert "Final-hand categories" in text and "reveal values" in text
    # the analyses play the default opponents, "learned", and say so
    for name, model in (("pass", "showdown"), ("discard", "showdown"), ("reveal", "betting")):
        assert f"{name} values for" in text
        line = next(x for x in lines if f"{name} values for" in x)
        assert "vs learned" in line and f"{model} model" in line, line
        meta = json.loads(files[f"{name}_csv"].with_name(f"{name}.csv.meta.json").read_text())
        assert meta["model"]["opponents"] == ["learned"] * 5


def test_first_run_compiles_the_analyses_in_a_second_process(tmp_path, monkeypatch):
    """With an empty kernel cache the main job compiles the analyses' kernels
    in a second process and says so in one line; once they are cached
    (marker written) or with the cache off, it starts nothing."""
    monkeypatch.setattr(mainjob, "cache_folder", lambda: tmp_path)
    monkeypatch.setattr(mainjob.os, "cpu_count", lambda: 2)
    started: list[list[str]] = []

    class FakeProcess:
        def __init__(self, argv, **kwargs):
            started.append(argv)

        def wait(self):
            return 0

    monkeypatch.setattr(mainjob.subprocess, "Popen", FakeProcess)
    lines: list[str] = []
    process = mainjob._start_warm_up(6, lines.append)
    assert len(started) == 1 and "warm_analyses(6)" in started[0][-1]
    assert len(lines) == 1 and lines[0].startswith("first run: compiling")
    mainjob._finish_warm_up(process)
    assert (tmp_path / mainjob.WARM_MARKER).exists()
    assert mainjob._start_warm_up(6, lines.append) is None  # cached: nothing started
    monkeypatch.setattr(mainjob, "cache_folder", lambda: None)
    assert mainjob._start_warm_up(6, lines.append) is None  # no cache: nothing to fill
    assert len(started) == 1 and len(lines) == 1


def test_warm_up_runs_the_main_jobs_analyses():
    mainjob.warm_analyses(4)  # the same calls as the main job, on a few deals


def test_cli_run_quick(tmp_path):
    out = io.StringIO()
    assert main(["run", "--quick", "--out", str(tmp_path / "job")], stdout=out) == 0
    assert (tmp_path / "job" / "reveal.png").exists()
    assert "wrote" in out.getvalue()


def test_cli_pass_table_csv_and_plot(tmp_path):
    out = io.StringIO()
    code = main(["pass", "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "--players", "4", "--deals", "600",
                 "--seed", "3", "--out", str(tmp_path / "p.parquet"), "--plot",
                 str(tmp_path / "p.png"), "--quiet", "--top", "5"], stdout=out)  # fmt: skip
    assert code == 0
    text = out.getvalue()
    assert "95% CI" in text and "vs best" in text
    assert len(pd.read_parquet(tmp_path / "p.parquet")) == 35
    assert (tmp_path / "p.png").stat().st_size > 10_000


@pytest.mark.parametrize(
    "argv",
    [
        ["discard", "Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠", "--passed", "3♠ 4♥ 2♣", "--received", "Q♦ 9♦ 5♠"],
        ["reveal", "Q♠ Q♥ Q♦ 9♣ 9♦", "--by-hidden"],
        ["equity", "Q♠ Q♥ Q♦ 9♣ 9♦", "--all-players"],
    ],
)
def test_cli_other_analyses(argv, tmp_path):
    out = io.StringIO()
    path = tmp_path / "t.json"
    assert main([*argv, "--deals", "300", "--quiet", "--out", str(path)], stdout=out) == 0
    # 21 discards, 6 table sizes, or 4 hidden cards (Q♠ and Q♥ are one row)
    assert len(pd.read_json(path)) in (21, 4, 6)
    assert "95% CI" in out.getvalue()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pass", "Q♠ Q♥ 9♣", "--deals", "10"], "has 3 cards; it needs 7"),
        (["pass", "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ Xx"], "unknown rank 'X'"),
        (["pass", "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "--players", "9"], "players=9 is too large: Anaconda is played by 2 to 7 players"),  # noqa: E501
        (["pass", "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "--out", "x.xlsx", "--deals", "10"],
         "unknown extension '.xlsx'"),
        (["discard", "Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠", "--passed", "Q♠ 4♥ 2♣"], "still in the hand"),
        (["run", "--players", "8"], "--players 8 is outside 2..7 (R2)"),
    ],
)  # fmt: skip
def test_cli_errors_are_one_line_without_traceback(argv, message):
    err = io.StringIO()
    assert main([*argv, *([] if argv[0] == "run" else ["--quiet"])],
                stdout=io.StringIO(), stderr=err) == 2  # fmt: skip
    assert message in err.getvalue()
    assert "Traceback" not in err.getvalue()
    assert err.getvalue().startswith("anaconda-sim: error:")


def test_console_script_errors_in_a_subprocess():
    result = subprocess.run(
        [sys.executable, "-m", "anaconda_sim", "equity", "Q♠ Q♥", "--quiet"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert "needs 5 or 7" in result.stderr and "Traceback" not in result.stderr
