"""The analysis commands take the options of their Python functions, with the
same defaults (stated once, in the registry of analysis kinds)."""

from __future__ import annotations

import io

import pytest

from anaconda_sim import analysis
from anaconda_sim.analysis.registry import NAMES, kind
from anaconda_sim.cli import build_parser, main
from anaconda_sim.cli.parser import OPTIONS


def _subparser(command: str):
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return action.choices[command]


@pytest.mark.parametrize("command", NAMES)
def test_every_keyword_is_an_option_with_the_function_default(command):
    sub = _subparser(command)
    by_flag = {flag: a for a in sub._actions for flag in a.option_strings}
    keywords = kind(command).options
    for name, default in keywords.items():
        flag = OPTIONS[name].flags[0]
        assert flag in by_flag, f"{command}: no option for {name}=..."
        action = by_flag[flag]
        assert action.dest == name and set(OPTIONS[name].flags) <= set(action.option_strings)
        assert action.default == default, f"{command} {action.option_strings}: default differs"
    # and the help text lists every one of them
    text = sub.format_help()
    for name in keywords:
        assert OPTIONS[name].flags[0] in text


@pytest.mark.parametrize("command", NAMES)
def test_an_option_of_another_command_is_an_error(command):
    foreign = {"pass": "--discards", "discard": "--betting", "reveal": "--all-players",
               "equity": "--discards", "declare": "--discards"}[command]  # fmt: skip
    err = io.StringIO()
    code = main([command, "Q♠ Q♥ Q♦ 9♣ 9♦", foreign, "x"], stderr=err, stdout=io.StringIO())
    assert code == 2
    assert "unrecognized arguments" in err.getvalue()


@pytest.mark.parametrize("command", NAMES)
def test_the_default_opponents_are_learned_and_printed(command):
    assert "(default learned)" in " ".join(_subparser(command).format_help().split())
    hand = {"pass": "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "discard": "Q♠ Q♥ 9♣ 8♦ Q♦ 9♦ 5♠",
            "equity": "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"}.get(command, "5♠ 4♥ 3♦ 2♣ A♠")  # fmt: skip
    extra = ["--rules", "hi-lo"] if command == "declare" else []
    out = io.StringIO()
    code = main([command, hand, "-p", "3", "-n", "200", "--seed", "4", "-q", "--top", "1",
                 *extra], stdout=out)  # fmt: skip
    assert code == 0
    assert "opponents: learned\n" in out.getvalue()


def test_parametrised_opponents_reach_the_table():
    out = io.StringIO()
    code = main(["pass", "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "-p", "3", "-n", "300", "--seed", "4", "-q",
                 "--opponents", "sensible:bluff=0.25,continue_late=2", "--top", "2"],
                stdout=out)  # fmt: skip
    assert code == 0
    assert "continue_late=2" in out.getvalue() and "bluff=0.25" in out.getvalue()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--top", "0"], "argument --top: 0 must be at least 1"),
        (["--top", "-3"], "argument --top: -3 must be at least 1"),
        (["--out", "table.xlsx"], "unknown extension '.xlsx'"),
        (["--plot", "chart.jpg"], "unknown extension '.jpg'"),
        (["--out", "{tmp}/folder.csv"], "is a directory"),
        (["--out", "{tmp}/file.txt/table.csv"], "is a file, not a folder"),
        (["--threads", "0"], "threads=0 is too small; give threads >= 1"),
        (["--confirm", "99"], "confirm=99 is too large: it counts the best rows to re-estimate, of 35"),  # noqa: E501
        (["--out", "/proc/no-such-dir/table.csv"], "cannot use"),
    ],
)
def test_bad_outputs_and_options_fail_fast_in_one_line(tmp_path, extra, message):
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "folder.csv").mkdir()
    argv = ["pass", "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "-n", "50", "--seed", "1", "-q"]
    argv += [a.replace("{tmp}", str(tmp_path)) for a in extra]
    err = io.StringIO()
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert message in err.getvalue()
    assert "Traceback" not in err.getvalue()


@pytest.mark.parametrize("option", ["--out", "--plot"])
def test_an_existing_output_is_kept_unless_forced(tmp_path, option):
    path = tmp_path / ("table.csv" if option == "--out" else "chart.png")
    path.write_text("kept")
    argv = ["pass", "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", "-n", "50", "--seed", "1", "-q", option, str(path)]
    err = io.StringIO()
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert f"{option} {str(path)!r} exists; add --force to overwrite it" in err.getvalue()
    assert path.read_text() == "kept"  # refused before any work
    assert main([*argv, "--force"], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert path.read_bytes() != b"kept"


def test_run_out_on_a_file_says_it_is_a_file(tmp_path):
    file = tmp_path / "file"
    file.write_text("x")
    for out, said in ((file, "is a file, not a folder"),
                      (file / "job", f"lies under {str(file)!r}, a file")):  # fmt: skip
        err = io.StringIO()
        assert main(["run", "--quick", "--out", str(out)], stdout=io.StringIO(), stderr=err) == 2
        assert said in err.getvalue() and err.getvalue().count("\n") == 1  # fmt: skip


def test_threads_change_nothing_but_speed():
    import numba

    before = numba.get_num_threads()
    one = analysis.pass_values("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", 4, deals=3000, seed=5, threads=1,
                               progress=False)  # fmt: skip
    assert numba.get_num_threads() == before  # restored
    two = analysis.pass_values("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", 4, deals=3000, seed=5, threads=2,
                               progress=False)  # fmt: skip
    assert one["value"].tolist() == two["value"].tolist()
    assert one["p_best"].tolist() == two["p_best"].tolist()


def test_declare_prints_one_row_per_declaration():
    out = io.StringIO()
    code = main(["declare", "5♠ 4♥ 3♦ 2♣ A♠", "-p", "3", "-n", "200", "--seed", "2", "-q",
                 "--order", "A♠ 2♣ 3♦ 4♥ 5♠"], stdout=out)  # fmt: skip
    text = out.getvalue()
    assert code == 0
    assert "declare values for" in text and "chips per deal" in text
    assert all(word in text for word in ("high", "low", "both"))
    err = io.StringIO()
    assert main(["declare", "5♠ 4♥ 3♦ 2♣ A♠", "--rules", "pagat", "-q"], stderr=err) == 2
    assert "models the hi-lo declaration" in err.getvalue()
