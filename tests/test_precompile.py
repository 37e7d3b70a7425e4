"""``compile_kernels`` and ``anaconda-sim compile``: every entry point's kernels
compiled ahead, into the cache the first calls then read."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from anaconda_sim.cli.app import main
from anaconda_sim.precompile import ENTRY_POINTS, compile_kernels

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_cold_start.py"


def _environ() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}


def test_unknown_entry_point_is_named_with_the_choices() -> None:
    with pytest.raises(ValueError, match=r"unknown entry point 'simulat'.*simulate"):
        compile_kernels(["evaluate", "simulat"])


@pytest.mark.parametrize("players", [1, 8])
def test_table_size_outside_two_to_seven_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match=rf"players={players} is too .*2 <= players <= 7"):
        compile_kernels(["evaluate"], players=players)


@pytest.mark.parametrize("players", [2.5, True, "6"])
def test_table_size_that_is_not_an_int_is_refused(players: object) -> None:
    with pytest.raises(TypeError, match=r"must be an int.*2 <= players <= 7"):
        compile_kernels(["evaluate"], players=players)  # type: ignore[arg-type]


def test_a_second_pass_finds_every_kernel_cached() -> None:
    first = compile_kernels(["evaluate"])
    assert list(first.columns) == ["entry_point", "seconds", "compiled"]
    assert first["entry_point"].tolist() == ["evaluate"]
    assert first["seconds"].iloc[0] > 0
    # whatever the first pass compiled is now loaded: nothing is compiled again
    assert compile_kernels("evaluate")["compiled"].tolist() == [False]  # one name, as a str


def test_an_empty_cache_is_filled_and_then_read(tmp_path: Path) -> None:
    # in a fresh process on an empty cache folder the small calls compile
    # kernels into it; a second process finds them all there
    code = ("from anaconda_sim.precompile import compile_kernels\n"
            "print(compile_kernels(['evaluate'])['compiled'].iloc[0])")  # fmt: skip
    env = {"ANACONDA_SIM_CACHE_DIR": str(tmp_path), "ANACONDA_SIM_WARMUP": "0"}

    def compiled() -> str:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env={**_environ(), **env})  # fmt: skip
        return done.stdout.strip().splitlines()[-1]

    assert compiled() == "True"
    assert compiled() == "False"


def test_the_command_prints_a_line_per_entry_point() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["compile", "--only", "evaluate", "--players", "4"], stdout=out, stderr=err) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("kernel cache: ")
    assert any(line.startswith("evaluate: ") and line.endswith((" s (compiled)", " s (all cached)"))
               for line in lines)  # fmt: skip
    assert lines[-1].startswith("done in ")
    assert err.getvalue() == ""


def test_the_command_refuses_an_unknown_name_and_a_bad_table_size() -> None:
    err = io.StringIO()
    assert main(["compile", "--only", "evaluat"], stderr=err) == 2
    assert "evaluat" in err.getvalue() and "evaluate" in err.getvalue()
    err = io.StringIO()
    assert main(["compile", "--only", "evaluate", "--players", "9"], stderr=err) == 2
    assert "players=9 is too large" in err.getvalue()


def test_every_timed_first_call_is_compiled_ahead() -> None:
    # the entry points whose first calls bench_cold_start.py times; a sweep
    # unit runs the analyses' kernels
    spec = importlib.util.spec_from_file_location("bench_cold_start", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module.CALLS) - {"sweep unit"} <= set(ENTRY_POINTS)


@pytest.mark.slow
def test_every_entry_point_compiles_at_another_table_size() -> None:
    # each small call runs with its entry point's own options, at a table
    # size other than the default (the kernels serve every size)
    table = compile_kernels(players=3)
    assert table["entry_point"].tolist() == list(ENTRY_POINTS)
    assert (table["seconds"] > 0).all()
