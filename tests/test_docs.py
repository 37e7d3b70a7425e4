"""The documentation site builds with warnings as errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
