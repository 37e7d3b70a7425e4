"""The documentation: the site builds with warnings as errors, and every
Python example of the README runs."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from anaconda_sim.cli.app import main
from anaconda_sim.game.history import History
from anaconda_sim.strategies import get_strategy

ROOT = Path(__file__).resolve().parents[1]

#: the README's sample sizes are the ones users run; here each ``deals=N``
#: literal above this is run at this many deals (the code is the same)
README_DEALS = 2_000


def _readme_python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [part.split("```", 1)[0] for part in text.split("```python\n")[1:]]


def _small(block: str) -> str:
    def cap(match: re.Match[str]) -> str:
        return f"deals={min(int(match.group(1)), README_DEALS)}"

    return re.sub(r"\bdeals=(\d[\d_]*)", cap, block)


def test_small_caps_only_the_deal_counts():
    block = 'f(x, deals=100_000, hands=200)\ng(deals=1000, max_deals=5_000_000)'
    assert _small(block) == 'f(x, deals=2000, hands=200)\ng(deals=1000, max_deals=5_000_000)'


@pytest.mark.slow
def test_every_readme_python_block_runs_in_order(tmp_path):
    """Every ```python block of the README, top to bottom, each in a fresh
    interpreter, in order, all in one temporary folder.

    The rule for the README: a block creates what it reads (the files it
    loads), itself or in an earlier block; nothing else is in the folder.
    """
    blocks = _readme_python_blocks()
    assert len(blocks) >= 2
    assert "ac.simulate(" in blocks[0] and "ac.reveal_values(" in blocks[0]
    assert any("load_results(" in block for block in blocks)
    for number, block in enumerate(blocks, 1):
        code = _small(block) + "\nprint('README block ok')"
        done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                              text=True, timeout=900)  # fmt: skip
        assert done.returncode == 0, f"README Python block {number}:\n{done.stderr[-3000:]}"
        assert done.stdout.strip().endswith("README block ok"), number


@pytest.mark.slow
def test_docs_site_builds_without_warnings(tmp_path):
    out = tmp_path / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(ROOT / "docs"), str(out)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Warning" not in done.stderr, done.stderr[-4000:]  # numpydoc's Python warnings too
    pages = {p.relative_to(out).as_posix() for p in out.rglob("*.html")}
    for page in ("index.html", "quickstart.html", "rules.html", "statistics.html",
                 "strategies.html", "architecture.html", "api.html", "_generated/cli.html",
                 "_generated/notebooks/04_reveal_orders.html",
                 "_generated/api/anaconda_sim.pass_values.html"):  # fmt: skip
        assert page in pages, page
    cli = (out / "_generated" / "cli.html").read_text(encoding="utf-8")
    assert "--confirm" in cli and "--opponents" in cli
    api = (out / "_generated" / "api" / "anaconda_sim.pass_values.html").read_text("utf-8")
    assert "p_best" in api or "confirm" in api


def _readme_shell_lines(command: str) -> list[list[str]]:
    """The README's ``anaconda-sim COMMAND ...`` lines of its bash blocks, as
    argument lists (comments dropped)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [part.split("```", 1)[0] for part in text.split("```bash\n")[1:]]
    lines = [line.split("  #", 1)[0].strip() for block in blocks for line in block.splitlines()]
    return [shlex.split(line)[1:] for line in lines if line.startswith(f"anaconda-sim {command} ")]


def test_the_readme_play_then_spot_example_runs_under_one_model(tmp_path, monkeypatch):
    """``play --save deal.json`` then ``spot deal.json --move N`` as the README
    writes them: the spot is valued under the strategies that played the
    deal (the history records them), and its header says so."""
    monkeypatch.chdir(tmp_path)
    plays = [argv for argv in _readme_shell_lines("play") if "--save" in argv]
    spots = [argv for argv in _readme_shell_lines("spot") if "--move" in argv]
    assert plays and spots, "the README shows play --save and spot --move"

    def run(argv: list[str]) -> str:
        out, err = io.StringIO(), io.StringIO()
        code = main(argv, stdin=io.StringIO(), stdout=out, stderr=err)
        assert code == 0 and err.getvalue() == "", err.getvalue()
        return out.getvalue()

    run(plays[0])
    saved = plays[0][plays[0].index("--save") + 1]
    played = History.load(saved).strategies
    assert played is not None and len(set(played)) == 1
    for argv in spots:
        assert argv[:2] == ["spot", saved]
        # fewer draws than a user's 10,000: the model is checked, not the values
        out = run([*argv, "--deals", "500", "--seed", "1"])
        name = played[0].partition(":")[0]
        assert get_strategy(played[0]) == get_strategy(name)  # the defaults: printed bare
        assert f"opponents: {name} (recorded in the history)" in out.splitlines()
        assert f"hero: {name} (seat " in out
