"""The one build step pyproject.toml cannot say: a wheel carries the app's own files.

templates/, static/, pdf/ and deploy/ stay at the top of the repository (STYLE.md), where a
wheel cannot put them; `build_py` copies them into `referee/web/bundle/` of the build, and
translations/ as compiled catalogs only (.po -> .mo, with Babel). The app finds its files
there when installed (`referee.web.plumbing.resources`). An editable install (`pip install -e .`)
copies nothing: the app reads the checkout's folders, compiled by `scripts/i18n compile`.
"""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# Read by path: importing `referee.web` would need Flask, which a build does not install.
RESOURCES = runpy.run_path(str(HERE / "referee" / "web" / "plumbing" / "resources.py"))


def _compile_catalogs(source: Path, target: Path) -> None:
    """Every translations/<area>/<lang>/LC_MESSAGES/messages.po, as .mo under `target`."""
    for po_path in sorted(source.glob("*/*/LC_MESSAGES/*.po")):
        mo_path = target / po_path.relative_to(source).with_suffix(".mo")
        mo_path.parent.mkdir(parents=True, exist_ok=True)
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parts[-3])
        with mo_path.open("wb") as mo_file:
            write_mo(mo_file, catalog)


class BuildWithBundle(build_py):
    """setuptools' build_py, then the app's files into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        bundle = Path(self.build_lib) / RESOURCES["BUNDLE"].relative_to(HERE)
        shutil.rmtree(bundle, ignore_errors=True)
        for folder in RESOURCES["FOLDERS"]:
            if folder == "translations":
                _compile_catalogs(HERE / folder, bundle / folder)
            else:
                shutil.copytree(
                    HERE / folder, bundle / folder, ignore=shutil.ignore_patterns("__pycache__")
                )


setup(cmdclass={"build_py": BuildWithBundle})
