"""The arrow points one way: the engine imports nothing of the web, HTTP, databases or languages."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Importing every engine module must leave all of these out of sys.modules.
WEB_AND_STORAGE = [
    "flask", "werkzeug", "jinja2", "flask_babel", "babel", "wtforms", "flask_wtf",
    "sqlalchemy", "alembic", "psycopg", "weasyprint", "reportlab", "referee.web",
]  # fmt: skip

PROBE = f"""
import importlib, pkgutil, sys
import referee.engine
engine = referee.engine
names = [module.name for module in pkgutil.walk_packages(engine.__path__, "referee.engine.")]
for name in names:
    importlib.import_module(name)
leaked = sorted(name for name in {WEB_AND_STORAGE!r} if name in sys.modules)
assert not leaked, f"importing the engine pulled in {{leaked}}"
print(len(names))
"""


def test_engine_imports_without_flask() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 1  # at least one engine module was really imported


def test_referee_package_marker_imports_nothing() -> None:
    probe = "import sys, referee; print(sorted(m for m in sys.modules if m.startswith('referee')))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "['referee']"


def test_engine_sources_never_name_the_web_layer() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "referee" / "engine").rglob("*.py")
        if any(word in path.read_text() for word in ("referee.web", "from flask", "import flask"))
    ]
    assert offenders == []


def test_games_import_no_club() -> None:
    """Clubs know games; games know no club: a club registers its answer to a new game that
    names it (`games.api.file_games_with`) and files its games through `service.Filing`."""
    import ast

    offenders = []
    for path in (ROOT / "referee" / "web" / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(name.startswith(("referee.web.clubs", "..clubs")) for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_the_web_has_no_loose_module_and_every_folder_is_a_layer() -> None:
    """`referee/web/` holds the app factory and folders that say their layer (ARCHITECTURE.md),
    each of them in the `web` import contract's layers, so `lint-imports` keeps its arrows."""
    web = ROOT / "referee" / "web"
    assert sorted(path.name for path in web.glob("*.py")) == ["__init__.py"]
    packages = {path.parent.name for path in web.glob("*/__init__.py")}
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(contract["layers"] for contract in contracts if contract["id"] == "web")
    layered = {name.strip() for layer in layers for name in layer.split("|")}
    assert packages == layered
    architecture = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    assert all(f"    {name}/" in architecture for name in packages)
