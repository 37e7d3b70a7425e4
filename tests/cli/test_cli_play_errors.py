"""``anaconda-sim play``: one-letter actions at the terminal, 1-based round numbers, and
one-line errors (exit 2, no traceback) for bad indices and bad history files."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from anaconda_sim.cli.app import main
from anaconda_sim.cli.terminal import SHORTHANDS, play_terminal
from anaconda_sim.game.engine import Action, Observation
from anaconda_sim.game.play import Bot, play_deal
from anaconda_sim.rng import MAX_DEAL_INDEX
from anaconda_sim.table.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def one_line_error(argv: list[str], message: str) -> None:
    code, out, err = run(argv)
    assert code == 2, (argv, out, err)
    assert err.startswith("anaconda-sim: error: ") and len(err.strip().splitlines()) == 1
    assert message in err, err
    assert "Traceback" not in err


# ------------------------------------------------- one-letter actions --
class LetterRecorder:
    """Plays seat 0 and writes the one-letter answers a person would type.

    No bet pending: ``b`` once from the second round on, else ``k``, ``x`` and ``c`` in turn.
    Facing a bet: ``r`` the first time it may, then ``c``; with ``fold_first`` it
    types ``f`` the first time it faces a bet.
    """

    name = "letters"

    def __init__(self, fold_first: bool = False) -> None:
        self.lines: list[str] = []
        self.fold_first = fold_first
        self.checks = 0
        self.raised = False
        self.bet = False

    def choose_action(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if obs.to_call == 0:
            if not self.bet and obs.betting_round >= 1 and Action.BET in legal:
                letter, self.bet = "b", True
            else:
                letter = "kxc"[self.checks % 3]
                self.checks += 1
        elif self.fold_first:
            letter = "f"
        elif not self.raised and Action.RAISE in legal:
            letter, self.raised = "r", True
        else:
            letter = "c"
        (action,) = [a for a in legal if a.label in SHORTHANDS[letter]]
        self.lines.append(letter)
        return action

    def choose_pass(self, obs: Observation) -> list[int]:
        from anaconda_sim.cards import format_cards

        self.lines.append(format_cards(obs.hand[: obs.pass_count]))
        return list(obs.hand[: obs.pass_count])

    def choose_discard(self, obs: Observation) -> tuple[list[int], list[int]]:
        from anaconda_sim.cards import format_cards

        self.lines += [format_cards(obs.hand[:2]), ""]
        return list(obs.hand[:2]), list(obs.hand[2:])


def letters_for(seed: int, opponents: str, fold_first: bool = False) -> tuple[str, Any]:
    recorder = LetterRecorder(fold_first)
    bots = [recorder, Bot(opponents), Bot(opponents)]
    expected = play_deal(Rules(players=3), bots, seed=seed)
    return "\n".join(recorder.lines) + "\n", expected


def seat0_actions(game: Any) -> list[str]:
    return [e["action"] for e in game.history.events if e["type"] == "action" and e["seat"] == 0]


def test_one_letter_actions_through_stdin() -> None:
    answers, expected = letters_for(seed=1, opponents="random")
    used = set(answers.split())
    assert {"b", "k", "x", "c", "r"} <= used  # every shorthand but f is typed
    out = io.StringIO()
    game = play_terminal(Rules(players=3), human=0, opponents="random", seed=1,
                         input=io.StringIO(answers), output=out)  # fmt: skip
    assert game is not None and game.is_over
    assert seat0_actions(game) == seat0_actions(expected)
    assert {"check", "bet", "call", "raise"} <= set(seat0_actions(game))
    text = out.getvalue()
    assert "is not legal now" not in text  # every letter was understood
    assert "check (k, x or c), bet (b)" in text  # the prompt lists the shorthands
    assert "Actions: f fold, k or x check, c check or call, b bet, r raise" in text


def test_one_letter_fold_through_the_command_line() -> None:
    answers, expected = letters_for(seed=2, opponents="random", fold_first=True)
    assert answers.split()[-1] == "f"
    code, out, err = run(["play", "--human", "0", "--players", "3", "--seed", "2",
                          "--opponents", "random"], stdin=answers)  # fmt: skip
    assert code == 0 and err == ""
    assert "fold (f), call (c), raise (r)" in out
    assert "you fold" in out and "Chips: you" in out
    assert seat0_actions(expected)[-1] == "fold"


def test_a_letter_that_is_not_legal_now_is_explained() -> None:
    # seat 1 opens with nothing to call: r (raise) and f (fold) are not legal (R13)
    out = io.StringIO()
    play_terminal(Rules(players=2), human=1, opponents="call-down", seed=1,
                  input=io.StringIO("r\nf\n"), output=out)  # fmt: skip
    text = out.getvalue()
    assert "'r' (raise) is not legal now: type one of check (k, x or c), bet (b)" in text
    assert "'f' (fold) is not legal now" in text


# ----------------------------------------------- round numbers (text) --
def test_terminal_counts_rounds_and_passes_from_1() -> None:
    answers, _ = letters_for(seed=2, opponents="call-down")
    out = io.StringIO()
    game = play_terminal(Rules(players=3), human=0, opponents="call-down", seed=2,
                         input=io.StringIO(answers), output=out)  # fmt: skip
    assert game is not None and not game.result.ended_early
    text = out.getvalue()
    headers = [int(n) for n in re.findall(r"== Betting round (\d+) of 6", text)]
    assert sorted(set(headers)) == [1, 2, 3, 4, 5, 6]
    logged = {int(n) for n in re.findall(r"  round (\d+): ", text)}
    assert logged == {1, 2, 3, 4, 5, 6}
    assert "== Pass 1 of 1: 3 card(s) to the left" in text
    assert "Betting round 3 of 6, after reveal 1" in text
    assert not re.search(r"(round|Pass|reveal) 0\b", text)


def test_bicycle_terminal_numbers_its_passes() -> None:
    code, out, _ = run(["play", "--human", "0", "--players", "3", "--seed", "2",
                        "--rules", "bicycle", "--opponents", "call-down"],
                       stdin="k\n2c 3c 4c\n")  # fmt: skip
    assert code == 0
    assert "== Pass 1 of 3: 3 card(s) to the left" in out
    assert "Betting round 1 of 4, before the passes" in out


# -------------------------------------------------------- bad indices --
def test_the_deal_index_bound_is_the_signed_64_bit_range() -> None:
    assert MAX_DEAL_INDEX == 2**63 - 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--deal-index", "-1"], "--deal-index -1 is out of range; deal indices are 0..9223"),
        (["--deal-index", str(2**63)], f"--deal-index {2**63} is out of range"),
        (["--deal-index", str(2**64)], f"--deal-index {2**64} is out of range"),
        (["--deal-index", str(10**40)], "is out of range"),
        (["--deal-index", "-1", "--human", "0"], "--deal-index -1 is out of range"),
        (["--dealer", "-1"], "--dealer -1 is not a seat; seats are 0..2"),
        (["--dealer", str(10**30)], f"--dealer {10**30} is not a seat"),
        (["--human", "3"], "--human 3 is not a seat; seats are 0..2"),
        (["--human", "-1"], "--human -1 is not a seat"),
        (["--human", str(2**70)], "is not a seat"),
    ],
)
def test_bad_indices_are_one_line_errors(argv: list[str], message: str) -> None:
    one_line_error(["play", "--players", "3", "--seed", "1", *argv], message)


def test_the_largest_deal_index_plays() -> None:
    code, out, err = run(["play", "--players", "2", "--seed", "1",
                          "--deal-index", str(MAX_DEAL_INDEX)])  # fmt: skip
    assert code == 0 and err == "" and f"deal {MAX_DEAL_INDEX}" in out


def test_human_uses_the_deal_index() -> None:
    def cards(index: int) -> str:
        code, out, _ = run(["play", "--human", "0", "--players", "3", "--seed", "1",
                            "--deal-index", str(index)])  # fmt: skip
        assert code == 0
        return next(line for line in out.splitlines() if line.startswith("Your cards:"))

    assert cards(0) != cards(1)


def test_huge_deal_index_in_a_real_process_has_no_traceback() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "anaconda_sim", "play", "--players", "2", "--deal-index",
         str(2**64)],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env=env, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("anaconda-sim: error: --deal-index 18446744073709551616")


# ------------------------------------------------------- history files --
@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "deal.json"
    code, _, err = run(["play", "--players", "3", "--seed", "4", "--opponents", "call-down",
                          "--save", str(path)])  # fmt: skip
    assert code == 0 and err == "" and path.exists()
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == 2
    return path


def test_save_then_replay_prints_the_same_history(saved: Path) -> None:
    _, printed, _ = run(["play", "--players", "3", "--seed", "4", "--opponents", "call-down"])
    code, out, err = run(["play", "--replay", str(saved)])
    assert code == 0 and err == "" and out == printed
    code, out, _ = run(["play", "--replay", str(saved), "--json"])
    assert code == 0 and json.loads(out) == json.loads(saved.read_text(encoding="utf-8"))


def edit(path: Path, change: Any) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _tamper_card(d: dict[str, Any]) -> None:
    d["deck"][0], d["deck"][40] = d["deck"][40], d["deck"][0]


def _illegal_move(d: dict[str, Any]) -> None:
    next(e for e in d["events"] if e["type"] == "action")["action"] = "raise"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=3), "history format 3 is not supported"),
        (lambda d: d.pop("deck"), "history has no key 'deck'"),
        (lambda d: d.update(dealer="0"), "history key 'dealer' must be an integer"),
        (lambda d: d["deck"].__setitem__(3, d["deck"][0]), "has the card"),
        (_tamper_card, "(the cards dealt differ)"),
        (_illegal_move, "move 1 of the history"),
        (lambda d: d["events"][-1].update(net=[0, 0, 0]), "(the final result differs)"),
    ],
)
def test_bad_history_files_are_one_line_errors(saved: Path, change: Any, message: str) -> None:
    edit(saved, change)
    one_line_error(["play", "--replay", str(saved)], message)
    one_line_error(["play", "--replay", str(saved)], str(saved))


def test_file_problems_are_one_line_errors(tmp_path: Path, saved: Path) -> None:
    missing = tmp_path / "missing.json"
    one_line_error(["play", "--replay", str(missing)], "No such file or directory")
    one_line_error(["play", "--replay", str(tmp_path)], "cannot read --replay")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\x80\x81")
    one_line_error(["play", "--replay", str(binary)], "not UTF-8 text")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    one_line_error(["play", "--replay", str(broken)], "is not valid JSON")
    one_line_error(["play", "--players", "2", "--save", str(tmp_path / "no" / "x.json")],
                   "does not exist; create it first")  # fmt: skip
    one_line_error(["play", "--players", "2", "--save", str(tmp_path)], "is a folder")
    one_line_error(["play", "--replay", str(saved), "--human", "0"], "give only one")


def test_a_broken_pipe_is_not_a_usage_error() -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    err = io.StringIO()
    code = main(["play", "--players", "2", "--seed", "1"], stdout=Closed(), stderr=err)
    assert code == 1 and err.getvalue() == ""
