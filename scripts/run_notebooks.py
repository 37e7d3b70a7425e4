"""Execute the notebooks in ``notebooks/`` top to bottom and save them with their outputs.

This is how the committed outputs are made (at full size, scale 1)::

    .venv/bin/python scripts/run_notebooks.py                 # all notebooks, in place
    .venv/bin/python scripts/run_notebooks.py 02 04           # only names containing 02 or 04
    .venv/bin/python scripts/run_notebooks.py --scale 0.05    # a quick small run
    .venv/bin/python scripts/run_notebooks.py --out /tmp/nb   # write elsewhere, keep the originals

A notebook executed at full size records the library it ran on in its metadata
(``metadata["anaconda_sim"]``: :func:`sources_hash` of the package's files, the version and
the scale); ``tests/test_notebooks.py`` fails for a committed notebook whose outputs came from
other sources, so outputs never silently describe another version of the library.

Each notebook's sample sizes are set in its first code cell (tagged ``parameters``) and
multiplied by ``ANACONDA_NB_SCALE``, which ``--scale`` sets for the kernel. The notebooks run in
the ``python3`` kernel of the interpreter running this script (the project's virtual
environment), with ``notebooks/`` as the working directory. Widget state is stored so that the
interactive parts show their last state without a live kernel; execution timings are not
recorded, so that rerunning changes only what the computations change.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
PACKAGE = ROOT / "anaconda_sim"
#: the key of the notebook metadata that names the library its outputs came from
METADATA_KEY = "anaconda_sim"


def sources_hash(package: Path = PACKAGE) -> str:
    """Hash of every file of the package (sources and shipped data; compiled
    files and caches left out), by path and content: 16 hex digits."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
            continue
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def notebook_paths(selection: list[str] | None = None) -> list[Path]:
    """The notebooks, in name order; ``selection`` keeps those whose name contains any item."""
    paths = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if selection:
        paths = [p for p in paths if any(item in p.name for item in selection)]
    return paths


def stable_widget_ids(notebook) -> None:
    """Replace the random ids of stored widget models by ids that depend only on the widgets.

    Models are numbered in the order they are reached from the widget views in the outputs
    (cells in order, references in attribute order), so rerunning a notebook with the same
    widgets gives the same file.
    """
    import json
    import re

    key = "application/vnd.jupyter.widget-state+json"
    state = notebook.metadata.get("widgets", {}).get(key, {}).get("state", {})
    if not state:
        return
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in state and model_id not in order:
            order.append(model_id)
            text = json.dumps(state[model_id]["state"], sort_keys=True)
            for ref in re.findall(r"IPY_MODEL_([0-9a-f]{32})", text):
                visit(ref)

    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view:
                visit(view["model_id"])
    rest = sorted(
        (m for m in state if m not in order),
        key=lambda m: (state[m]["model_name"], json.dumps(state[m]["state"], sort_keys=True)),
    )
    mapping = {old: f"{i + 1:032x}" for i, old in enumerate(order + rest)}
    text = json.dumps(notebook)
    text = re.sub(r"[0-9a-f]{32}", lambda m: mapping.get(m.group(0), m.group(0)), text)
    stable = json.loads(text)
    states = stable["metadata"]["widgets"][key]["state"]
    stable["metadata"]["widgets"][key]["state"] = {k: states[k] for k in sorted(states)}
    notebook.clear()
    notebook.update(stable)


def execute(
    path: Path,
    *,
    scale: float | None = None,
    timeout: int = 900,
    out: Path | None = None,
    store_widget_state: bool = True,
    env: dict[str, str] | None = None,
):
    """Run one notebook in a fresh kernel and return it (written to ``out`` if given).

    ``scale`` sets ``ANACONDA_NB_SCALE`` for the kernel; ``env`` adds other variables. Raises
    ``nbclient.exceptions.CellExecutionError`` (naming the cell) when a cell fails.
    """
    import tempfile

    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    saved = dict(os.environ)
    try:
        if scale is not None:
            os.environ["ANACONDA_NB_SCALE"] = repr(float(scale))
        os.environ.update(env or {})
        with tempfile.TemporaryDirectory(prefix="anaconda-nb-") as sockets:
            # the kernel's channels are Unix sockets in a folder of its own: TCP
            # ports picked free and bound later can be taken by another kernel
            # or server started meanwhile (kernels of tests run in parallel),
            # and a client on a taken port waits for replies that never come
            manager = KernelManager(kernel_name="python3", transport="ipc",
                                    ip=os.path.join(sockets, "kernel"))  # fmt: skip
            client = NotebookClient(
                notebook,
                km=manager,
                timeout=timeout,
                record_timing=False,
                store_widget_state=store_widget_state,
                resources={"metadata": {"path": str(path.parent)}},
            )
            client.execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    if store_widget_state:
        stable_widget_ids(notebook)
        notebook = nbformat.from_dict(notebook)
    if scale is None or float(scale) == 1.0:
        # full size: the outputs are the committed ones; name the library they came from
        from anaconda_sim import __version__

        notebook.metadata[METADATA_KEY] = {"sources": sources_hash(), "version": __version__,
                                           "scale": 1.0}  # fmt: skip
    else:
        notebook.metadata.pop(METADATA_KEY, None)
    if out is not None:
        nbformat.write(notebook, out)
    return notebook


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="run only notebooks whose name contains these")
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiplier of every sample size (ANACONDA_NB_SCALE; default 1)",
    )
    parser.add_argument("--timeout", type=int, default=900, help="seconds per cell (default 900)")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder for the executed notebooks (default: overwrite in place)",
    )
    args = parser.parse_args(argv)
    paths = notebook_paths(args.names)
    if not paths:
        print(f"no notebook matches {args.names} in {NOTEBOOKS}", file=sys.stderr)
        return 1
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    total = time.perf_counter()
    for path in paths:
        start = time.perf_counter()
        target = path if args.out is None else args.out / path.name
        execute(path, scale=args.scale, timeout=args.timeout, out=target)
        size = target.stat().st_size / 1024
        print(f"{path.name}: {time.perf_counter() - start:6.1f} s, {size:6.0f} KiB -> {target}",
              flush=True)  # fmt: skip
    print(f"all done in {time.perf_counter() - total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
