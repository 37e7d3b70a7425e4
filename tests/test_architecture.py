"""The package keeps the shape of docs/architecture.md: who may import whom."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "anaconda_sim"
BASE = {"cards", "rng", "errors", "stats", "_cross", "provenance", "_numba", "_lazy",
        "__version__"}  # fmt: skip

#: part of the package -> the parts it may import (docs/architecture.md)
ALLOWED = {
    "cards": set(),
    "errors": set(),
    "stats": {"_cross"},
    "_cross": {"_numba"},
    "provenance": {"__version__"},
    "_numba": set(),
    "_lazy": set(),
    "rng": {"cards", "_numba"},
    "hands": BASE,
    "strategies": BASE | {"hands", "game.views", "learned"},
    # the learned family's parameters and kernels sit beside the strategies ...
    "learned": BASE | {"hands", "game.views"},
    # ... its learning loop above the analyses it calls
    "learned.fit": BASE | {"hands", "strategies", "sim", "analysis", "learned"},
    "game": BASE | {"hands", "strategies"},
    "sim": BASE | {"hands", "strategies", "game.rules", "game.views"},
    "analysis": BASE | {"hands", "strategies", "game", "sim"},
    "sweep": BASE | {"hands", "strategies", "analysis"},
    "output": BASE | {"hands", "strategies"},
    "cli": None,  # everything
}


def _part(dotted: list[str]) -> str:
    return dotted[1] if len(dotted) > 1 else "anaconda_sim"


def _imports(path: Path) -> set[str]:
    """Parts of the package ``path`` imports ('game' or 'game.views' for game's modules)."""
    rel = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = list(rel[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.ImportFrom) and node.level):
            continue
        base = package[: len(package) - (node.level - 1)]
        module = base + (node.module.split(".") if node.module else [])
        if (PACKAGE.parent.joinpath(*module) / "__init__.py").exists():
            # from a package: its names may be modules (from ..game import views)
            targets = [[*module, alias.name] for alias in node.names]
        else:
            targets = [module]
        for target in targets:
            if target[1:2] == ["game"] and len(target) > 2 and target[2] != "__init__":
                found.add(".".join(target[1:3]))
            else:
                found.add(_part(target))
    return found


def test_every_part_imports_only_what_the_architecture_allows():
    offences = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("").parts
        part = rel[0]
        if part in ("__init__", "__main__"):
            continue
        if part == "learned" and rel[1] in ("fit", "__main__"):
            part = "learned.fit"
        allowed = ALLOWED[part]
        if allowed is None:
            continue
        for target in _imports(path):
            root = target.split(".")[0]
            if root == part or target in allowed or root in allowed:
                continue
            offences.append(f"{path.relative_to(PACKAGE)} imports {target}")
    assert offences == []


def test_nothing_imports_the_cli():
    users = [
        path.relative_to(PACKAGE) for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] not in ("cli", "__main__.py")
        and "cli" in _imports(path)
    ]  # fmt: skip
    assert users == []
