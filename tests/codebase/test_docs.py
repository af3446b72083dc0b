"""The documents the code cites are in this repository: `SPEC` (docs/SPEC.md, what the product
promises) and `RULES.md` (docs/RULES.md, every rule per variant). Every citation of a section
("SPEC "Never twice, never lost"", "RULES.md "Hand sizes"") names one that is there."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = {"SPEC": ROOT / "docs" / "SPEC.md", "RULES": ROOT / "docs" / "RULES.md"}
CITATION = re.compile(r'\b(SPEC|RULES)(?:\.md)?[,:]? +"([^"\n]+)"')


def _sections(document: Path) -> set[str]:
    """Headings ("## Clubs: the same people...") and bold items ("- **Hand sizes.** ...")."""
    text = document.read_text()
    found = {m.group(1).strip() for m in re.finditer(r"^#+ +(.+)$", text, re.M)}
    found |= {m.group(1).strip() for m in re.finditer(r"\*\*([^*]+?)\.?\*\*", text)}
    return found


def test_the_cited_documents_are_in_docs() -> None:
    for document in DOCS.values():
        assert document.is_file(), document
    assert "JSON API, version 1" in DOCS["SPEC"].read_text()


def test_every_cited_section_is_there() -> None:
    files = subprocess.run(
        ["git", "ls-files", "referee", "tests", "bench", "docs", "README.md"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    sections = {name: _sections(path) for name, path in DOCS.items()}
    cited = 0
    missing = []
    for name in files:
        path = ROOT / name
        if path.suffix not in (".py", ".md", ".html", ".js") or not path.is_file():
            continue
        for document, section in CITATION.findall(path.read_text()):
            cited += 1
            if not any(heading.startswith(section) for heading in sections[document]):
                missing.append(f"{name}: {document} {section!r}")
    assert not missing, "cited sections that the docs do not have:\n" + "\n".join(missing)
    assert cited >= 10  # the citations were really found
