"""The engine is a library: nothing under engine/ imports Django, Celery or the application."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("django", "celery", "tournaments", "arbiter", "redis")


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_engine_module_imports_the_web_stack():
    offenders = {
        str(path.relative_to(ENGINE)): sorted(_imported(path) & set(FORBIDDEN))
        for path in ENGINE.rglob("*.py")
        if _imported(path) & set(FORBIDDEN)
    }
    assert offenders == {}


def test_importing_every_engine_module_loads_no_web_module():
    modules = [
        "engine." + ".".join(p.relative_to(ENGINE).with_suffix("").parts)
        for p in ENGINE.rglob("*.py")
        if p.name not in ("__main__.py", "__init__.py")
    ]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
