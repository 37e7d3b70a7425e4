"""Every analysis command driven with generated bad options: exit status 0 or 2,
one line of error, never a traceback."""

from __future__ import annotations

import io
import os

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from anaconda_sim.analysis.registry import NAMES
from anaconda_sim.cli import main
from anaconda_sim.cli.parser import OPTIONS

HANDS = {"pass": "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "discard": "Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠",
         "reveal": "Q♠ Q♥ Q♦ 9♣ 9♦", "equity": "Q♠ Q♥ Q♦ 9♣ 9♦",
         "declare": "5♠ 4♥ 3♦ 2♣ A♠"}  # fmt: skip
FLAGS = sorted({o.flags[0] for o in OPTIONS.values()} | {"--players", "--top", "--out", "--plot"})

values = st.one_of(
    st.integers(-(2**66), 2**66).map(str), st.integers(-3, 9).map(str),
    st.sampled_from(["", "x", "nan", "inf", "-inf", "1e400", "2.5", "0", "-1", "Qs", "Qs Qs",
                     "sensible:bluff", "sensible:bluff=x", "nobody", "a.xlsx", "/", "/proc/x.csv",
                     "hidden", "sensible,", ",", "Q♠ Q♥"]),
    st.text(max_size=5),
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _compiled_in_a_scratch_folder(tmp_path_factory):
    """Compile first (the examples are about errors, not compilation), and work in
    a scratch folder: a generated --out or --plot that happens to be valid writes there."""
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cli-fuzz"))
    try:
        for command, hand in HANDS.items():
            main([command, hand, "-p", "3", "-n", "20", "--seed", "1", "-q"],
                 stdout=io.StringIO())  # fmt: skip
        yield
    finally:
        os.chdir(here)


@pytest.mark.parametrize("command", NAMES)
@settings(max_examples=80)
@given(flag=st.sampled_from(FLAGS), value=values)
@example(flag="--ascii", value="\n0")  # an echoed argument holding a newline
def test_bad_options_end_in_one_line(command, flag, value):
    argv = [command, HANDS[command], "-p", "3", "-n", "20", "--seed", "1", "-q"]
    if flag in ("--deals", "--precision", "--max-deals"):
        argv = [command, HANDS[command], "-p", "3", "--seed", "1", "-q", "--max-deals", "300"]
        if flag == "--deals":
            argv += ["--deals", value] if not value.lstrip("-").isdigit() or int(value) < 500 \
                else ["--deals", "400"]
        else:
            argv += [flag, value]
            if flag == "--max-deals":
                argv += ["--precision", "0.5"]
    else:
        argv += [flag, value]
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    assert code in (0, 2), (argv, code, err.getvalue())
    assert "Traceback" not in err.getvalue()
    if code == 2:
        # lines end in "\n" (an echoed argument may hold a bare "\r")
        lines = [line for line in err.getvalue().split("\n") if line.strip()]
        assert lines and lines[-1].startswith("anaconda-sim")
