"""Where the app's own files are: templates/, static/, pdf/, translations/ and deploy/.

In a checkout (and a `pip install -e .`) they sit at the top of the repository, beside
`referee/`. A wheel cannot put files beside the package, so the build (setup.py) copies them
into `referee/web/bundle/`, with the catalogs compiled; an installed app finds them there.
The bundle is looked for first: a site-packages folder may hold a stray `templates/` of
another package's, never a `referee/web/bundle/` of ours.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

#: The folder the build fills in a wheel (never present in a checkout).
BUNDLE: Final = Path(__file__).resolve().parents[1] / "bundle"
#: The repository's top, when the app runs from a checkout; None when it runs from a wheel.
CHECKOUT: Final = None if BUNDLE.is_dir() else Path(__file__).resolve().parents[3]
#: The folder that holds them all.
ROOT: Final = BUNDLE if CHECKOUT is None else CHECKOUT
#: The folder that holds the `referee` package (site-packages, or the checkout).
PACKAGE_PARENT: Final = Path(__file__).resolve().parents[3]

TEMPLATES: Final = ROOT / "templates"
STATIC: Final = ROOT / "static"
PDF: Final = ROOT / "pdf"
TRANSLATIONS: Final = ROOT / "translations"
#: gunicorn's settings (`rummy-referee serve` uses them too), the systemd unit, the nginx site.
DEPLOY: Final = ROOT / "deploy"
#: What the build copies into the bundle (setup.py reads this list).
FOLDERS: Final = ("templates", "static", "pdf", "translations", "deploy")
