"""``anaconda-sim spot`` (the values of every choice at a decision of a saved
deal) and ``anaconda-sim play --spots`` (the same values shown to the person
before each decision)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from anaconda_sim.cards import format_cards
from anaconda_sim.cli.app import main
from anaconda_sim.game import Game
from anaconda_sim.game.engine import Observation
from anaconda_sim.game.history import History
from anaconda_sim.game.play import Bot, play_deal
from anaconda_sim.output.tables import read_table
from anaconda_sim.spots import spot_of
from anaconda_sim.table.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
#: small samples: the tests check the plumbing, not the values
DEALS = "300"
#: a table row of the values: its rank first; a heading line starts with "rank"
ROW = re.compile(r"^\s*\d+  ")


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def table_rows(text: str, heading: str) -> list[list[str]]:
    """The rows of the values table under the line starting ``rank  HEADING``,
    split on runs of two spaces or more (cards are one space apart)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"rank  {heading}"))
    rows = []
    for line in lines[start + 1 :]:
        if not ROW.match(line):
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows


@pytest.fixture(scope="module")
def bet_call(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-player deal saved after seat 1 bets and seat 2 calls."""
    game = Game(Rules(players=3), seed=4)
    game.bet()
    game.call()
    path = tmp_path_factory.mktemp("spot") / "bet-call.json"
    game.history.save(path)
    return path


@pytest.fixture(scope="module")
def full_deal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole three-player deal of call-down bots: checks, the pass, the discard."""
    game = play_deal(Rules(players=3), ["call-down"] * 3, seed=2)
    path = tmp_path_factory.mktemp("spot") / "full.json"
    game.history.save(path)
    return path


# --------------------------------------------------------------- --list --


def test_list_numbers_the_moves(bet_call: Path) -> None:
    code, out, err = run(["spot", bet_call, "--list"])
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "move  seat  when             what",
        "   1     1  betting round 1  bet",
        "   2     2  betting round 1  call",
    ]


def test_list_names_the_pass_and_discard_with_their_rounds(full_deal: Path) -> None:
    code, out, _ = run(["spot", full_deal, "--list", "--ascii"])
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1 + 24
    assert re.fullmatch(r"\s+4\s+1  pass after round 1\s+passes \w\w \w\w \w\w", lines[4])
    assert re.search(r"discard after round 2\s+discards \w\w \w\w, shows( \w\w){5} in order",
                     lines[10])  # fmt: skip
    assert lines[-1].split() == ["24", "0", "betting", "round", "6", "check"]


# ----------------------------------------------------------- the values --


def test_spot_values_every_legal_action(bet_call: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "values.csv"
    argv = ["spot", bet_call, "--move", "2", "--opponents", "sensible", "--deals", DEALS,
            "--seed", "1"]  # fmt: skip
    code, out, err = run([*argv, "--out", out_file])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("move 2: seat 2 (betting round 1, 1 to call, pot 4) holds ")
    assert lines[1].startswith("bet values in chips") and "seed 1" in lines[1]
    assert lines[2] == "hero: sensible (seat 2, after this decision)"
    # the fixture's moves were made by hand: the history cannot say who played
    assert lines[3] == ("opponents: sensible (given by --opponents; the history does not "
                        "record who played)")
    assert re.fullmatch(r"posterior: 300 draws \(.*\), effective sample size \d+", lines[4])
    # the legal actions of seat 2 facing seat 1's bet, each once, best first
    before = Game(Rules(players=3), seed=4)
    before.bet()
    legal = {a.label for a in before.legal_actions(2)}
    rows = table_rows(out, "action")
    assert {r[1] for r in rows} == legal and len(rows) == len(legal)
    assert rows[0][4] == "best"
    assert all(np.isfinite(float(r[2])) and float(r[3]) >= 0 for r in rows)
    table = read_table(out_file)
    assert set(table["choice"]) == legal
    assert np.isfinite(table[["value", "se", "diff_vs_best", "diff_se", "p_best"]]).all().all()
    assert table.attrs["move"] == 2 and table.attrs["seat"] == 2 and table.attrs["draws"] == 300
    assert f"table written to {out_file}" in out
    assert run(argv)[1] == out.replace(f"table written to {out_file}\n", "")  # same seed


def test_a_discard_spot_values_the_discards_or_the_orders(full_deal: Path) -> None:
    argv = ["spot", full_deal, "--move", "12", "--opponents", "random", "--deals", DEALS,
            "--seed", "3", "--ascii"]  # fmt: skip
    code, out, err = run(argv)
    assert code == 0 and err == "", err
    assert out.startswith("move 12: seat 0 (discard) holds ")
    rows = table_rows(out, "discard")
    assert len(rows) == 21 and len({r[1] for r in rows}) == 21  # every pair of the seven
    assert len(table_rows(run([*argv, "--top", "5"])[1], "discard")) == 5
    held = spot_of(History.load(full_deal), move=12).game.hand(0)
    keep = format_cards(held[:5], unicode=False)
    code, out, err = run([*argv, "--decision", "order", "--keep", keep, "--top", "3"])
    assert code == 0 and err == "", err
    assert out.splitlines()[1].startswith("order values in chips")
    rows = table_rows(out, "order")
    assert len(rows) == 3 and all(sorted(r[1].split()) == sorted(keep.split()) for r in rows)


def test_a_spot_where_every_choice_is_equal_says_so_in_one_line(full_deal: Path) -> None:
    # call-down rivals keep their best five and call every bet down (R13-R15):
    # at this discard the seat loses its ante whatever it discards, on every
    # drawn deal, so there is no ranking to show, only that one line
    argv = ["spot", full_deal, "--move", "12", "--opponents", "call-down", "--deals", DEALS,
            "--seed", "3", "--ascii"]  # fmt: skip
    code, out, err = run(argv)
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[-1] == ("every one of the 21 choices is worth -1.000 chips on every drawn "
                         "deal: the choice changes nothing here")  # fmt: skip
    assert not any(line.startswith("rank  ") for line in lines)
    # a small sample is said to be one, with the number and what to do
    warning = next(line for line in lines if line.startswith("warning: "))
    ess = float(re.search(r"effective sample size (\d+)", out).group(1))
    assert f"warning: effective sample size {ess:.0f} is low (under 200)" in warning
    assert re.search(r"give about [\d,]+ deals \(deals= or --deals\) for 200$", warning)


# ---------------------------------------------------------------- errors --


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--move", "3"], "--move 3 is not a move of '{path}': its moves are 1..2 (--list shows"),
        (["--move", "0"], "--move 0 is not a move of '{path}': its moves are 1..2"),
        ([], "give --move N, a move of '{path}' (1..2); --list shows them"),
        (["--move", "2", "--decision", "discard"], "--decision discard is for a discard; move 2"),
        (["--move", "2", "--keep", "As Ks Qs Js Ts"], "--keep is for --decision order"),
        (["--move", "2", "--opponents", "nope"], "--opponents 'nope': unknown strategy 'nope'"),
        (["--move", "2", "--opponents", "random,random"], "2 strategies for 3 seats"),
        (["--move", "2", "--hero", "random,random"], "--hero takes one strategy"),
        (["--move", "2", "--out", "values.txt"], "--out 'values.txt': unknown extension '.txt'"),
        (["--move", "2", "--seat", "1"], "seat 1 cannot decide now: it is seat 2's turn"),
        (["--move", "x"], "argument --move: 'x' is not a move number"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(bet_call: Path, extra: list[str],
                                             message: str) -> None:  # fmt: skip
    code, out, err = run(["spot", bet_call, *extra])
    assert code == 2 and out == ""
    assert message.format(path=bet_call) in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_bad_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    code, out, err = run(["spot", missing, "--list"])
    assert code == 2 and out == ""
    assert err == (
        f"anaconda-sim: error: cannot read HISTORY '{missing}': No such file or "
        "directory; give a history file written by `anaconda-sim play --save FILE`\n"
    )
    for name, content in [("text.json", "not json"), ("other.json", '{"x": 1}'),
                          ("binary.json", "\udcff")]:  # fmt: skip
        path = tmp_path / name
        path.write_bytes(content.encode("utf-8", "surrogateescape"))
        code, out, err = run(["spot", path, "--move", "1"])
        assert code == 2 and out == "" and err.startswith(f"anaconda-sim: error: {path}: ")
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, _, err = run(["spot", tmp_path, "--list"])
    assert code == 2 and "cannot read HISTORY" in err


def test_an_impossible_spot_is_an_error_naming_the_decision(bet_call: Path) -> None:
    # call-down never bets (R13-R15): seat 1's bet is impossible whatever its cards
    code, out, err = run(["spot", bet_call, "--move", "2", "--opponents", "call-down",
                          "--deals", "20", "--tries", "1", "--seed", "1"])  # fmt: skip
    assert code == 2 and out == ""
    assert err.startswith(f"anaconda-sim: error: {bet_call} move 2: seat 1's bet in betting "
                          "round 1 (move 1) is impossible under its stated strategy "
                          "'call-down'")  # fmt: skip
    assert "--opponents" in err and "--tries" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_parser_answers_without_loading_the_work() -> None:
    probe = ("import sys; from anaconda_sim.cli import main; main(['spot', '--help']); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'pandas') "
             "or m.startswith('anaconda_sim.spots')), file=sys.stderr)")  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "--move N" in done.stdout and "--list" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]"


# ---------------------------------------------------------- play --spots --


def scripted_answers(seed: int) -> str:
    """Answers that play seat 0 of a 3-player call-down table to the showdown:
    check or call, pass and discard the first cards, keep the order shown."""
    lines: list[str] = []

    class Recorder:
        name = "recorder"

        def choose_action(self, obs: Observation) -> str:
            lines.append("c")
            return "check" if obs.to_call == 0 else "call"

        def choose_pass(self, obs: Observation) -> list[int]:
            lines.append(format_cards(obs.hand[: obs.pass_count]))
            return list(obs.hand[: obs.pass_count])

        def choose_discard(self, obs: Observation) -> tuple[list[int], list[int]]:
            lines.append(format_cards(obs.hand[:2]))
            lines.append("")
            return list(obs.hand[:2]), list(obs.hand[2:])

    play_deal(Rules(players=3), [Recorder(), Bot("call-down"), Bot("call-down")], seed=seed)
    return "\n".join(lines) + "\n"


def without_values(text: str) -> str:
    """A ``play --spots`` transcript less the values shown."""
    kept, in_values = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("Values in chips of your "):
            in_values = True
        elif in_values and (line.startswith(("rank  ", "warning: ", "every one of ", "all "))
                            or ROW.match(line)):  # fmt: skip
            pass
        else:
            in_values = False
            kept.append(line)
    return "".join(kept)


def test_play_spots_shows_the_values_before_each_decision(tmp_path: Path) -> None:
    argv = ["play", "--human", "0", "--players", "3", "--seed", "2", "--opponents", "call-down"]
    answers = scripted_answers(seed=2)
    code, plain, err = run([*argv, "--save", tmp_path / "plain.json"], answers)
    assert code == 0 and err == "" and "Values in chips" not in plain
    code, shown, err = run([*argv, "--save", tmp_path / "spots.json", "--spots",
                            "--spot-deals", DEALS], answers)  # fmt: skip
    assert code == 0 and err == "", err
    assert "Showdown:" in shown
    heads = [line for line in shown.splitlines() if line.startswith("Values in chips")]
    assert re.fullmatch(r"Values in chips of your bet choices \(300 deals against call-down as "
                        r"they play, effective sample size \d+\):", heads[0])  # fmt: skip
    assert sum("your bet choices" in h for h in heads) == 6  # one per betting round
    assert sum("your pass choices" in h and "best 5 of 35" in h for h in heads) == 1
    assert sum("your discard choices" in h and "best 5 of 21" in h for h in heads) == 1
    assert len(table_rows(shown[shown.index("your discard choices") :], "discard")) == 5
    # and at the reveal order, once the discards are chosen: the 120 orders of the five kept
    # (R8), shown before the order is asked
    assert sum("your order choices" in h and "best 5 of 120" in h for h in heads) == 1
    orders = shown[shown.index("your order choices") :]
    before_prompt = orders[: orders.index("Reveal order, first card first")]
    assert "\nrank  order" in before_prompt or "every one of the 120 choices" in before_prompt
    assert shown.index("your discard choices") < shown.index("your order choices")
    # the values are shown before the prompt, and nothing else changes: the
    # same transcript and the same deal as without --spots
    assert shown.index("Values in chips") < shown.index("Your action")
    assert without_values(shown) == plain
    saved = [json.loads((tmp_path / n).read_text()) for n in ("plain.json", "spots.json")]
    assert saved[0] == saved[1]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--players", "3"], "--spots shows the values of your choices as you play: give --human"),
        (["--human", "0", "--rules", "bicycle"], "--spots supports --rules pagat only"),
        (["--human", "0", "--spot-deals", "1"], "argument --spot-deals: 1 must be at least 2"),
    ],
)
def test_play_spots_errors(extra: list[str], message: str) -> None:
    code, out, err = run(["play", "--spots", *extra])
    assert code == 2 and out == "" and message in err, err
    assert len(err.strip().splitlines()) == 1
