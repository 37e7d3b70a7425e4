"""The package keeps the shape of docs/architecture.md: its folders are layers.

A part of the package is a top-level module or folder of ``anaconda_sim``.
Every part sits in one layer; a module may import its own part and the parts
of lower layers, nothing else. The rule has no exceptions, so a new import
that runs up a layer (or sideways, between the two engines) fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "anaconda_sim"

#: the layers, lowest first (docs/architecture.md)
LAYERS: list[set[str]] = [
    # sizes, encodings, the progress line, numba's inliner and call typing
    {"_version", "limits", "cards", "errors", "progress", "_inline_copies", "_compile_speed"},
    {"_numba", "_lazy"},  # jit (its first-call compiles shown on the progress line)
    # streams, products, models, checks; tables derived once and kept
    {"rng", "_cross", "provenance", "checks", "_table_cache"},
    {"stats", "warmup"},  # accumulators, Z95, paired differences; compiling on every core
    {"hands"},  # what a hand is worth
    {"table"},  # the rules and the seat views both engines fill
    {"strategies"},  # every decision of every strategy
    {"game", "sim"},  # the oracle and the fast path: neither imports the other
    {"analysis"},  # the questions
    {"spots"},  # any decision of a deal under way: posteriors and action values
    {"learning"},  # exploitability and learning, asked of the questions
    # grids of questions; tables and charts; every entry point's kernels compiled ahead
    {"sweep", "output", "precompile"},
    {"cli"},  # the command line
    {"__init__", "__main__"},  # the public face: lazy names of every layer
]
LAYER_OF = {part: level for level, parts in enumerate(LAYERS) for part in parts}


def _part_of(path: Path) -> str:
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


def _imported_parts(path: Path) -> set[str]:
    """The parts of the package that ``path`` imports, relatively or absolutely."""
    package = list(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            module = base + (node.module.split(".") if node.module else [])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("anaconda_sim"):
            module = node.module.split(".")  # type: ignore[union-attr]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".") for a in node.names if a.name.startswith("anaconda_sim")]
            found.update(n[1] for n in names if len(n) > 1)
            continue
        else:
            continue
        if len(module) > 1:
            found.add(module[1])
        else:  # from the package itself: each name is a part (from .. import rng)
            found.update(alias.name for alias in node.names)  # type: ignore[union-attr]
    return found


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_part_has_a_layer():
    assert sorted({_part_of(p) for p in _modules()} - set(LAYER_OF)) == []


def test_no_import_runs_up_or_across_a_layer():
    offences = []
    for path in _modules():
        part = _part_of(path)
        for target in sorted(_imported_parts(path) - {part}):
            if LAYER_OF[target] >= LAYER_OF[part]:
                offences.append(f"{path.relative_to(PACKAGE)} imports {target}")
    assert offences == []


#: the heavy third-party packages a module may load late, on first use
HEAVY = ("numba", "pandas", "matplotlib", "pyarrow", "dask")


def test_imports_inside_functions_only_defer_heavy_packages():
    """An import inside a function hides a cycle unless it defers a heavy
    third-party package; then it says which (``# late: loads numba``), so
    ``import anaconda_sim``, the rules and histories stay light."""
    offences = []
    for path in _modules():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                ours = isinstance(node, ast.ImportFrom) and node.level
                ours = ours or "anaconda_sim" in ast.unparse(node)
                comment = lines[node.lineno - 1].partition("# late: loads ")[2]
                if ours and not comment.startswith(HEAVY):
                    offences.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offences == []


def test_the_architecture_page_names_every_layer():
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [part for part in LAYER_OF if part not in ("__init__", "__main__")
               and f"`{part}" not in page]  # fmt: skip
    assert missing == []



#: the modules of ``sim/`` that the layers above it may import: the package,
#: the public functions (``simulator``), the models of the questions over the
#: kernels (``models``), the records of deals (``records``), deals with their
#: betting logs (``logged``) and their betting decisions as rows
#: (``decisions``), and the names of the arrays' slots (``layout``); never a
#: kernel (``kernels``) or the driver
SIM_PUBLIC = {"simulator", "models", "records", "layout", "spots", "logged", "decisions"}
SIM_PRIVATE = {"kernels", "driver"}


def _sim_offences(path: Path, package_root: Path = PACKAGE) -> list[str]:
    """The imports of ``anaconda_sim.sim`` in ``path`` that name a private
    module of it (a kernel, the driver) or a private name (``_x``)."""
    package = list(path.relative_to(package_root.parent).with_suffix("").parts[:-1])
    offences = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = base + (node.module.split(".") if node.module else [])
            else:
                module = (node.module or "").split(".")
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            module, names = [], []
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[:2] == ["anaconda_sim", "sim"] and len(parts) > 2:
                    module = parts
        else:
            continue
        if module == ["anaconda_sim"] and "sim" in names:
            continue  # the package itself
        if module[:2] != ["anaconda_sim", "sim"]:
            continue
        inner = module[2:]
        reached = inner[:1] if inner else [n for n in names if n in SIM_PRIVATE | SIM_PUBLIC]
        private = [n for n in names if n.startswith("_")]
        if any(m not in SIM_PUBLIC for m in reached) or private:
            offences.append(f"{path.name}:{node.lineno} imports {'.'.join(module)} {names}")
    return offences


def test_outside_sim_only_its_public_modules_and_names_are_imported():
    """The kernels and the driver are the simulator's own: the questions reach
    them through :mod:`anaconda_sim.sim.models`, so a new ``from ..sim.kernels``
    (or a private name of ``sim``) outside ``sim/`` fails here."""
    offences = []
    for path in _modules():
        if _part_of(path) != "sim":
            offences += _sim_offences(path)
    assert offences == []


def test_the_sim_rule_sees_private_imports(tmp_path):
    root = tmp_path / "anaconda_sim"
    (root / "analysis").mkdir(parents=True)
    probe = root / "analysis" / "probe.py"
    probe.write_text(
        "from ..sim.kernels.showdown import right_fours\n"
        "from ..sim.driver import make_cfg\n"
        "from ..sim import driver\n"
        "from ..sim.simulator import _model\n"
        "import anaconda_sim.sim.kernels.deal\n"
        "from ..sim.models import score_passes\n"
        "from ..sim import simulate, models\n"
        "from .. import sim\n",
        encoding="utf-8",
    )
    assert [o.split()[0] for o in _sim_offences(probe, root)] == [
        "probe.py:1", "probe.py:2", "probe.py:3", "probe.py:4", "probe.py:5"]


def test_the_simulator_names_no_strategy_kind():
    """Strategy dispatch is written once (strategies/dispatch.py for the
    kernels, strategies/families.py for the Python around them): the deal,
    batch, reveal, showdown and spot kernels and the spot samplers branch on
    no ``KIND_*`` code, so a new family does not touch them."""
    kernels = [*sorted((PACKAGE / "sim" / "kernels").glob("*.py")), PACKAGE / "sim" / "spots.py"]
    naming = [path.name for path in kernels if "KIND_" in path.read_text(encoding="utf-8")]
    assert naming == []
    dispatch = (PACKAGE / "strategies" / "dispatch.py").read_text(encoding="utf-8")
    assert "KIND_LEARNED" in dispatch and "KIND_SENSIBLE" in dispatch
