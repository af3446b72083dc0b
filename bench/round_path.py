"""How a round's points travel from the round form into the stored game, as a reader follows them.

Plain script, not run in CI: `python bench/round_path.py [--scope referee/web/games] [--list]`.
It posts one round form (a new round, saved) and records the functions of the scope entered on
the way, each where it is first entered (a reader reads a function once; comprehensions and
lambdas are part of the function they are in). A *climb* is a step to a function written above
the one before it in the same file: the reader scrolls back up. Prints the steps, the climbs,
and the longest view function of the games blueprints.
"""

from __future__ import annotations

import argparse
import ast
import sys
import tempfile
from itertools import pairwise
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.web import create_app

ROOT = Path(__file__).resolve().parents[1]
Step = tuple[str, int, str]  # file, line of the def, name


def walk(scope: Path) -> list[Step]:
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-path-"))
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        },
        instance_path=str(folder / "instance"),
    )
    client = app.test_client()
    body = {"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    created = client.post("/api/v1/games", json=body).get_json()
    page = "/" + created["edit_url"].split("://", 1)[1].split("/", 1)[1]
    client.get(page)  # everything imported and warm
    form = {
        "version": "1",
        "round": "1",
        "went_out": "0",
        "seats-1-penalty": "25",
        "seats-2-penalty": "30",
    }
    steps: list[Step] = []
    prefix = str(scope.resolve())

    def tracer(frame: FrameType, event: str, _arg: Any) -> None:
        code = frame.f_code
        if event != "call" or code.co_name.startswith("<"):
            return
        if code.co_filename.startswith(prefix):
            where = str(Path(code.co_filename).relative_to(ROOT))
            step = (where, code.co_firstlineno, code.co_name)
            if step not in steps:
                steps.append(step)

    sys.settrace(tracer)
    try:
        answer = client.post(page + "/rounds", data=form)
    finally:
        sys.settrace(None)
    assert answer.status_code == 303, answer.status_code
    return steps


def climbs(steps: list[Step]) -> list[tuple[Step, Step]]:
    return [(a, b) for a, b in pairwise(steps) if a[0] == b[0] and b[1] < a[1]]


def longest_view(folder: Path) -> tuple[int, str]:
    """The longest function decorated as a route (`@bp.get`, `@api_bp.post`, `@bp.route`...),
    from its `def` to its last line."""
    found = (0, "")
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            routes = [
                d
                for d in node.decorator_list
                if isinstance(d, ast.Call)
                and isinstance(d.func, ast.Attribute)
                and d.func.attr in ("get", "post", "put", "route", "delete")
            ]
            if routes and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                found = max(found, (length, f"{path.name}:{node.name}"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scope", default="referee/web/games", help="the code followed")
    parser.add_argument("--list", action="store_true", help="print every step")
    args = parser.parse_args()
    steps = walk(ROOT / args.scope)
    up = climbs(steps)
    if args.list:
        marked = {b for _a, b in up}
        for step in steps:
            print(f"{'^' if step in marked else ' '} {step[0]}:{step[1]} {step[2]}")
    print(f"\n{args.scope}: {len(steps)} steps, {len(steps) - 1} moves, {len(up)} climbs back up")
    for a, b in up:
        print(f"  {a[0]}: {a[2]} (line {a[1]}) -> {b[2]} (line {b[1]})")
    length, name = longest_view(ROOT / "referee/web/games")
    print(f"longest view function of the games: {name}, {length} lines")


if __name__ == "__main__":
    main()
