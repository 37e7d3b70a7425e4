"""The package as a whole: cheap import, lazy public API, README commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anaconda_sim

ROOT = Path(__file__).resolve().parents[1]


def test_import_is_cheap_and_compiles_nothing():
    code = (
        "import time, sys; t = time.perf_counter(); import anaconda_sim; "
        "dt = time.perf_counter() - t; "
        "heavy = [m for m in ('anaconda_sim.hands.evaluator', 'anaconda_sim.sim.simulator', 'numba') "
        "if m in sys.modules]; print(dt, heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, heavy = out.stdout.split(" ", 1)
    assert float(seconds) < 1.0
    assert heavy.strip() == "[]"


def test_every_public_name_resolves():
    for name in anaconda_sim.__all__:
        assert getattr(anaconda_sim, name) is not None, name


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in text.split("```bash\n")[1:3]]
    assert blocks[0].endswith("anaconda-sim run")
    assert blocks[1].endswith("python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # CI runs exactly the README's test command (quiet pip is the only flag it adds)
    assert blocks[1] in ci
