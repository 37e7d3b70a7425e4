"""``anaconda-sim play``: hand histories among bots, and a person at the terminal."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from anaconda_sim.cli.app import main
from anaconda_sim.cli.terminal import play_terminal
from anaconda_sim.game.engine import Phase
from anaconda_sim.table.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_play_prints_a_history() -> None:
    code, out, err = run(["play", "--players", "5", "--seed", "3"])
    assert code == 0 and err == ""
    assert out.startswith("Anaconda (pagat), 5 players, dealer seat 0, deal 0")
    assert "Net: seat 0" in out
    assert run(["play", "--players", "5", "--seed", "3"])[1] == out  # reproducible


def test_play_options() -> None:
    code, out, _ = run(["play", "--players", "3", "--seed", "1", "--rules", "bicycle",
                        "--opponents", "random,call-down,sensible", "--dealer", "2"])  # fmt: skip
    assert code == 0 and "Anaconda (bicycle), 3 players, dealer seat 2" in out
    code, out, _ = run(["play", "--players", "2", "--seed", "1", "--json"])
    assert code == 0 and json.loads(out)["rules"]["players"] == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--players", "8"], "players=8 is not allowed"),
        (["play", "--human", "5", "--players", "3"], "--human 5 is not a seat"),
        (["play", "--dealer", "4", "--players", "3"], "--dealer 4 is not a seat"),
        (["play", "--opponents", "nope"], "unknown strategy 'nope'"),
        (["play", "--opponents", "random,random", "--players", "3"], "2 strategies for 3 seats"),
        (["play", "--players", "x"], "argument --players: 'x' is not a number of players"),
        (["play", "--rules", "texas"], "invalid choice"),
        ([], "required"),
    ],
)
def test_errors_are_one_line_and_exit_2(argv: list[str], message: str) -> None:
    code, out, err = run(argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_human_plays_through_injected_streams() -> None:
    # always the first legal option typed in full or abbreviated, the three
    # first cards to pass, the first two to discard, the kept order as shown
    script = []
    for _ in range(40):
        script += ["zz", "check", "call", "2x", "As Ks"]  # junk is re-asked
    out = io.StringIO()
    game = play_terminal(Rules(players=3), human=1, opponents="call-down", seed=5,
                         input=io.StringIO("\n".join(script)), output=out)  # fmt: skip
    text = out.getvalue()
    assert "You are seat 1" in text and "is not legal now" in text
    assert game is None or game.phase is Phase.COMPLETE


def answers_for_full_deal(seed: int, rules: Rules | None = None) -> str:
    """Answers that play seat 0 to the showdown: check/call, pass and discard the
    first cards, keep the order; computed by replaying with the same seed."""
    from anaconda_sim.game.play import Bot, play_deal

    lines: list[str] = []

    class Recorder:
        name = "recorder"

        def choose_action(self, obs):  # type: ignore[no-untyped-def]
            action = "check" if obs.to_call == 0 else "call"
            lines.append(action[:2] if action == "check" else action)
            return action

        def choose_pass(self, obs):  # type: ignore[no-untyped-def]
            cards = list(obs.hand[: obs.pass_count])
            from anaconda_sim.cards import format_cards

            lines.append("nonsense")  # re-asked
            lines.append(format_cards(cards, unicode=True))
            return cards

        def choose_discard(self, obs):  # type: ignore[no-untyped-def]
            from anaconda_sim.cards import format_cards

            lines.append(format_cards(obs.hand[:2]))
            lines.append("")  # keep the order shown
            return list(obs.hand[:2]), list(obs.hand[2:])

        def choose_declaration(self, obs):  # type: ignore[no-untyped-def]
            lines.append("sideways")  # re-asked
            lines.append("b")
            return "both"

    rules = rules or Rules(players=3)
    play_deal(rules, [Recorder(), Bot("call-down"), Bot("call-down")], seed=seed)
    return "\n".join(lines) + "\n"


def test_human_full_deal_to_showdown() -> None:
    answers = answers_for_full_deal(seed=2)
    out = io.StringIO()
    game = play_terminal(Rules(players=3), human=0, opponents="call-down", seed=2,
                         input=io.StringIO(answers), output=out)  # fmt: skip
    assert game is not None and game.is_over and not game.result.ended_early
    text = out.getvalue()
    assert "Showdown:" in text and "Chips: you" in text
    assert "You discarded" in text and "You passed" in text
    assert "unknown rank" in text  # the nonsense answer was explained and re-asked


def test_human_declares_in_hi_lo() -> None:
    rules = Rules.hilo(3)
    answers = answers_for_full_deal(seed=4, rules=rules)
    out = io.StringIO()
    game = play_terminal(rules, human=0, opponents="call-down", seed=4,
                         input=io.StringIO(answers), output=out)  # fmt: skip
    assert game is not None and game.is_over and not game.result.ended_early
    assert game.result.declarations[0] == 2  # both
    text = out.getvalue()
    assert "Declare high, low or both" in text
    assert "'sideways' is not a declaration" in text
    code, out_text, _ = run(["play", "--players", "4", "--seed", "1", "--rules", "hi-lo"])
    assert code == 0 and "Anaconda (hi-lo), 4 players" in out_text


def test_human_eof_exits_cleanly() -> None:
    code, out, err = run(["play", "--human", "0", "--seed", "1", "--players", "3"], stdin="")
    assert code == 0 and err == ""
    assert "You left the game." in out


def test_subprocess_human_game() -> None:
    answers = "\n".join(["check", "call"] * 4 + ["2c 3c 4c"] + ["quit"]) + "\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "anaconda_sim", "play", "--human", "0", "--seed", "1"],
        input=answers, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "You are seat 0" in proc.stdout and "Your cards:" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_play_takes_parametrised_strategies() -> None:
    strategies = "sensible:bluff=0.5,continue_late=2, random, call-down"
    code, out, _ = run(["play", "--players", "3", "--seed", "4", "--opponents", strategies])
    assert code == 0 and "Net: seat 0" in out
    code, _, err = run(["play", "--players", "3", "--opponents", "sensible:bluf=0.5"])
    assert code != 0 and "strategy 'sensible' has no parameter 'bluf'" in err
