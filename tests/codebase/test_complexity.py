"""Code a newcomer can follow: no function over radon's cyclomatic complexity 20 (ruff's C901
holds most code to 12; radon also counts each `and`/`or` and comprehension, as a reader does),
and no Flask view over 25 lines (a view reads its input, asks a service and maps the result:
anything longer belongs in the service)."""

from __future__ import annotations

import inspect
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Function

from referee.web import create_app

ROOT = Path(__file__).resolve().parents[2]
MAX_COMPLEXITY = 20
MAX_VIEW_LINES = 25


def _functions(path: Path) -> list[Function]:
    found: list[Function] = []
    for block in cc_visit(path.read_text()):
        if isinstance(block, Function):
            found.append(block)
        else:  # a class: its methods
            found.extend(block.methods)
    return found


def test_no_function_is_over_radon_complexity_20() -> None:
    over = [
        f"{path.relative_to(ROOT)}:{function.lineno} {function.fullname} ({function.complexity})"
        for path in sorted((ROOT / "referee").rglob("*.py"))
        for function in _functions(path)
        if function.complexity > MAX_COMPLEXITY
    ]
    assert not over, "split these into functions that each say one thing:\n" + "\n".join(over)


def test_no_view_is_over_25_lines(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'db'}"},
        instance_path=str(tmp_path),
    )
    over: list[str] = []
    for endpoint, view in sorted(app.view_functions.items()):
        function = inspect.unwrap(view)
        source = inspect.getsourcefile(function) or ""
        if not Path(source).is_relative_to(ROOT / "referee"):
            continue  # Flask's own (static)
        lines, start = inspect.getsourcelines(function)
        # From the `def` line to the last, decorators left out
        first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def "))
        if len(lines) - first > MAX_VIEW_LINES:
            where = f"{Path(source).relative_to(ROOT)}:{start + first}"
            over.append(f"{endpoint} ({len(lines) - first} lines, {where})")
    assert not over, "let a service do the work and the view map its result:\n" + "\n".join(over)
    assert len(app.view_functions) > 40  # the views were really looked at
