"""The command line as a new user meets it: the library's own message for a
bad strategy, no abbreviated options, one name for the opponents, shell
words in messages, tables that say what varies, counts that match, warnings
in one line, and a parser that answers without loading the work."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from anaconda_sim.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
SEVEN = "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------ strategies --
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pass", SEVEN, "--opponents", "smart"],
         "--opponents 'smart': unknown strategy 'smart'; built-ins are 'random', 'call-down', "
         "'random-pass', 'sensible', 'learned'"),
        (["pass", SEVEN, "--opponents", "sensible:bluf=0.1"],
         "strategy 'sensible' has no parameter 'bluf'; its parameters: aggressive_at"),
        (["pass", SEVEN, "--hero", "smart"], "--hero 'smart': unknown strategy 'smart'"),
        (["pass", SEVEN, "--hero", "sensible,random"], "--hero takes one strategy, got 2"),
        (["play", "--opponents", "smart"], "--opponents 'smart': unknown strategy 'smart'"),
        (["pass", SEVEN, "--opponents", "sensible:bluff=7"],
         "strategy 'sensible': bluff=7 is outside its range (a probability, from 0 to 1)"),
        (["pass", SEVEN, "--opponents", "sensible:bluff=nan"],
         "strategy 'sensible': bluff=nan is not a number in its range"),
        (["play", "--opponents", "sensible:continue_late=-3"],
         "strategy 'sensible': continue_late=-3 is outside its range"),
        (["pass", SEVEN, "--hero", "learned-v1:call_r2=-1"],
         "strategy 'learned-v1': call_r2=-1 is outside its range"),
    ],
)  # fmt: skip
def test_a_bad_strategy_shows_the_strategy_parsers_message(argv, message):
    code, out, err = run([*argv, "-q"] if argv[0] != "play" else argv)
    assert code == 2 and out == ""
    assert err.startswith("anaconda-sim: error: ") and message in err
    assert "invalid" not in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------- abbreviations --
@pytest.mark.parametrize(
    "argv",
    [["pass", SEVEN, "--player", "6"], ["pass", SEVEN, "--deal", "50"],
     ["play", "--player", "3"], ["play", "--opp", "random"], ["run", "--qu"],
     ["sweep", "x.toml", "--statu", "y"]],
)  # fmt: skip
def test_an_abbreviated_option_is_refused(argv):
    code, out, err = run(argv)
    assert code == 2 and out == ""
    assert "unrecognized arguments" in err


def test_every_parser_refuses_abbreviations():
    parsers = [build_parser()]
    for parser in list(parsers):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += list(action.choices.values())
    assert len(parsers) > 5
    assert all(p.allow_abbrev is False for p in parsers)


# ------------------------------------------------------------- opponents --
def test_play_takes_opponents_and_says_its_default():
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices["play"]
    text = " ".join(sub.format_help().split())
    assert "--opponents" in text and "(default sensible)" in text
    assert "--strategy" not in text
    code, out, _ = run(["play", "--players", "3", "--seed", "4", "--opponents", "call-down"])
    assert code == 0 and "Net: seat 0" in out
    assert run(["play", "--strategy", "call-down"])[0] == 2  # one name for the opponents
    # with --human, one strategy per bot (the person's seat skipped) is enough
    code, out, err = run(["play", "--players", "3", "--seed", "1", "--human", "1",
                          "--opponents", "call-down,random"])  # fmt: skip
    assert code == 0 and "You are seat 1" in out and err == ""
    code, _, err = run(["play", "--players", "3", "--opponents", "random,random"])
    assert code == 2 and "--opponents lists 2 strategies for 3 seats" in err


# ------------------------------------------------------------ shell words --
@pytest.mark.parametrize("value", ["hiden", "rows", "0"])
def test_a_bad_by_is_answered_in_shell_words(value):
    code, out, err = run(["reveal", "Q♠ Q♥ Q♦ 9♣ 9♦", "--by", value, "-q"])
    assert code == 2 and out == ""
    assert f"argument --by: {value!r} is not a grouping; use --by hidden" in err
    assert "omit --by" in err and "use None" not in err


def test_confirm_with_by_hidden_is_answered_in_shell_words():
    code, _, err = run(["reveal", "Q♠ Q♥ Q♦ 9♣ 9♦", "--by-hidden", "--confirm", "2", "-q"])
    assert code == 2 and "omit --by hidden" in err and "None" not in err


def test_by_none_is_the_same_as_no_by():
    args = build_parser().parse_args(["reveal", "Q♠ Q♥ Q♦ 9♣ 9♦", "--by", "none"])
    assert args.by is None


def test_all_players_with_players_is_refused():
    code, _, err = run(["equity", SEVEN, "--all-players", "--players", "4", "-q"])
    assert code == 2 and "--all-players runs every table size 2-7; omit --players" in err


# ------------------------------------------------------ tables say it all --
def test_equity_all_players_has_a_players_column_and_names_the_hero():
    code, out, err = run(["equity", SEVEN, "--all-players", "-n", "200", "--seed", "3", "-q"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == "hero: learned" and lines[2] == "opponents: learned"
    header = lines[3].split()
    assert header[0] == "players" and "rank" not in header
    assert [int(line.split()[0]) for line in lines[4:10]] == [2, 3, 4, 5, 6, 7]


# ---------------------------------------------------------------- counts --
def test_run_counts_the_files_it_wrote(tmp_path):
    folder = tmp_path / "job"
    code, out, err = run(["run", "--quick", "--out", str(folder)])
    assert code == 0, err
    said = int(re.search(r"wrote (\d+) files to", out).group(1))
    on_disk = [p for p in folder.rglob("*") if p.is_file()]
    assert said == len(on_disk) == 13
    # each analysis line names the hero where the model has one, and the opponents
    for name in ("pass", "discard", "reveal"):
        meta = json.loads((folder / f"{name}.csv.meta.json").read_text(encoding="utf-8"))
        line = next(x for x in out.splitlines() if x.startswith(f"{name} values for"))
        hero = meta["model"]["hero"]
        assert ("hero learned vs learned" in line) == (hero is not None), line
        assert "vs learned" in line


# -------------------------------------------------------------- warnings --
def test_a_warning_is_one_line_without_source(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text('kind = "equity"\nplayers = 2\nhand_classes = ["AA/K"]\ndeals = 200\n',
                    encoding="utf-8")  # fmt: skip
    argv = ["sweep", str(spec), "--out", str(tmp_path / "res"), "--quiet"]
    assert run(argv)[0] == 0
    (tmp_path / "res" / "units" / "left-over.tmp").write_text("x", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        code, _, err = run(argv)  # resumed: the stray file is reported
    assert code == 0, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("warning: 1 stray file(s) in ") and "left-over.tmp" in lines[0]
    assert "SweepWarning" not in err and ".py:" not in err
    assert warnings.showwarning.__module__ == "warnings"  # the hook is removed again


# --------------------------------------------------- a light parser ------
PROBE = """
import runpy, sys
sys.argv = ["anaconda-sim", *sys.argv[1:]]
try:
    runpy.run_module("anaconda_sim", run_name="__main__")
except SystemExit:
    pass
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("numba", "pandas", "matplotlib")
               or m.startswith(("anaconda_sim.analysis.", "anaconda_sim.sim",
                                "anaconda_sim.hands.evaluator")))
print("loaded:", heavy, file=sys.stderr)
"""


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["--version"], ["pass", "--help"], ["pass", SEVEN, "--player", "6"],
     ["play", "--players", "x"], ["sweep", "--help"]],
)  # fmt: skip
def test_help_version_and_argument_errors_load_no_heavy_module(argv):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    loaded = done.stderr.strip().splitlines()[-1]
    # the registry and the request shape it reads: light modules, no analysis
    expected = "loaded: ['anaconda_sim.analysis.registry', 'anaconda_sim.analysis.request']"
    assert loaded == expected, done.stderr


def test_run_help_describes_the_job(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "The main research job on built-in defaults" in text
    assert "35 passes and 21 discards" in text and "120 reveal orders" in text
    assert "'learned' opponents" in text
