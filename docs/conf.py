"""Sphinx configuration of the anaconda-sim documentation.

Sphinx with numpydoc, because every docstring of the package is written in
numpydoc style and runs as a doctest; myst-nb renders the notebooks with
their committed outputs (nothing is executed while building). The CLI
reference is generated from the argument parser at build time, so it cannot
drift from the command.

Build locally: ``.venv/bin/sphinx-build -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

import anaconda_sim  # noqa: E402

project = "anaconda-sim"
author = "anaconda-sim developers"
release = anaconda_sim.__version__
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_nb",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "rule-texts", "gallery", "**.ipynb_checkpoints"]
nb_execution_mode = "off"
myst_heading_anchors = 3
autosummary_generate = True
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
autodoc_typehints = "none"
html_theme = "alabaster"
html_title = f"anaconda-sim {release}"
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type"]


def _generated() -> None:
    """The notebooks (copied, outputs included) and the CLI reference page."""
    out = DOCS / "_generated"
    out.mkdir(exist_ok=True)
    notebooks = out / "notebooks"
    notebooks.mkdir(exist_ok=True)
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        shutil.copyfile(path, notebooks / path.name)
    from anaconda_sim.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    lines = ["# Command-line reference", "",
             "Generated from the parser of `anaconda-sim` when the docs are built.", "",
             "```text", parser.format_help().rstrip(), "```", ""]  # fmt: skip
    for name, sub in action.choices.items():
        lines += [f"## `anaconda-sim {name}`", "", "```text", sub.format_help().rstrip(),
                  "```", ""]  # fmt: skip
    (out / "cli.md").write_text("\n".join(lines), encoding="utf-8")


_generated()
