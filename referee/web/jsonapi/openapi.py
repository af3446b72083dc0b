"""The OpenAPI 3.1 description of /api/v1, built from the models that read the requests.

A view says what it takes and answers with `@documented(...)` beside its route; `document()`
gathers every documented call into one document (`GET /api/v1/openapi.json`), and the docs
page (`GET /api/v1/docs`) shows the same document for people. A feature that adds calls
decorates them and is in both. A test checks that every /api/v1 route is documented.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from referee.web.core.languages import LANGUAGES
from referee.web.jsonapi.schemas import ErrorAnswer

JSON = dict[str, Any]
View = TypeVar("View", bound=Callable[..., Any])

REF: Final = "#/components/schemas/{model}"
#: Answers every call can give whatever it is: the body cut off, or the wrong method.
COMMON_ANSWERS: Final[Mapping[int, tuple[type[BaseModel], str]]] = {
    413: (ErrorAnswer, "The body is over 64 KB (`payload_too_large`)."),
}
#: The answer of a call past its rate limit (referee/web/plumbing/limits.py).
TOO_MANY: Final = (
    ErrorAnswer,
    "Too many calls from this address in a short time (`too_many_requests`): wait the "
    "seconds `Retry-After` says, then send it again.",
)


@dataclass(frozen=True)
class Parameter:
    """A parameter in the path, the query or a header."""

    name: str
    where: str  # path, query, header
    schema: JSON
    description: str = ""
    required: bool = False

    def as_openapi(self) -> JSON:
        data: JSON = {
            "name": self.name,
            "in": self.where,
            "required": self.required or self.where == "path",
            "schema": self.schema,
        }
        if self.description:
            data["description"] = self.description
        return data


#: Every call reads `?lang` (bodies.json_only): a 400 for any other value, said once.
LANG: Final = Parameter(
    "lang",
    "query",
    {"type": "string", "enum": list(LANGUAGES)},
    "the language of the messages (and rank letters); a body's `lang` wins",
)
BAD_LANG: Final = (ErrorAnswer, "`lang` is not one of the six (`bad_language`)")
NOT_JSON: Final = (ErrorAnswer, "The body is not sent as JSON (`unsupported_media_type`)")


@dataclass(frozen=True)
class Operation:
    method: str
    path: str  # OpenAPI's form: /api/v1/games/{game_id}
    name: str  # operationId
    summary: str
    description: str
    tag: str
    request: type[BaseModel] | None
    answers: Mapping[int, tuple[type[BaseModel] | None, str]]
    parameters: Sequence[Parameter] = ()
    token: bool = False  # needs the game's edit token as a bearer token
    examples: Mapping[str, Any] = field(default_factory=dict)


OPERATIONS: list[Operation] = []


def documented(
    method: str,
    path: str,
    *,
    summary: str,
    tag: str,
    request: type[BaseModel] | None = None,
    answers: Mapping[int, tuple[type[BaseModel] | None, str]],
    parameters: Sequence[Parameter] = (),
    token: bool = False,
    example: Any = None,
) -> Callable[[View], View]:
    """Describe the decorated view in the OpenAPI document (its docstring is the description)."""

    def register(view: View) -> View:
        more = {415: NOT_JSON} if request is not None else {}
        said = {p.name for p in parameters}
        OPERATIONS.append(
            Operation(
                method=method.lower(),
                path=path,
                name=view.__name__ if tag == "referee" else f"{tag}_{view.__name__}",
                summary=summary,
                description=(view.__doc__ or "").strip(),
                tag=tag,
                request=request,
                answers={400: BAD_LANG, **answers, **COMMON_ANSWERS, **more},
                parameters=(*parameters, *([LANG] if "lang" not in said else [])),
                token=token,
                examples={"example": {"value": example}} if example is not None else {},
            )
        )
        return view

    return register


def _schemas() -> tuple[dict[tuple[type[BaseModel], JsonSchemaMode], JSON], JSON]:
    wanted: list[tuple[type[BaseModel], JsonSchemaMode]] = []
    for op in OPERATIONS:
        if op.request is not None:
            wanted.append((op.request, "validation"))
        wanted += [(model, "serialization") for model, _ in op.answers.values() if model]
    wanted.append((TOO_MANY[0], "serialization"))
    unique = list(dict.fromkeys(wanted))
    refs, definitions = models_json_schema(unique, ref_template=REF)
    found = {(model, mode): refs[(model, mode)] for model, mode in unique}
    return found, definitions.get("$defs", {})


def _operation(
    op: Operation, refs: Mapping[tuple[type[BaseModel], JsonSchemaMode], JSON], *, limited: bool
) -> JSON:
    responses: JSON = {}
    answers = {**op.answers, 429: TOO_MANY} if limited else op.answers
    for status, (model, text) in sorted(answers.items()):
        answer: JSON = {"description": text}
        if model is not None:
            answer["content"] = {"application/json": {"schema": refs[(model, "serialization")]}}
        responses[str(status)] = answer
    data: JSON = {
        "operationId": op.name,
        "summary": op.summary,
        "tags": [op.tag],
        "responses": responses,
    }
    if op.description:
        data["description"] = op.description
    if op.parameters:
        data["parameters"] = [p.as_openapi() for p in op.parameters]
    if op.request is not None:
        media: JSON = {"schema": refs[(op.request, "validation")]}
        if op.examples:
            media["examples"] = dict(op.examples)
        # A body whose every field is optional may be left out (undo).
        required = any(f.is_required() for f in op.request.model_fields.values())
        data["requestBody"] = {"required": required, "content": {"application/json": media}}
    if op.token:
        data["security"] = [{"edit_token": []}]
    return data


def document(version: str, server: str = "/", *, limited: Collection[tuple[str, str]] = ()) -> JSON:
    """The whole OpenAPI 3.1 document; `server` is where /api/v1 is (a sub-path: "/rummy"); the
    calls in `limited` (method, path) may answer 429."""
    refs, definitions = _schemas()
    paths: JSON = {}
    for op in sorted(OPERATIONS, key=lambda o: (o.path, o.method)):
        is_limited = (op.method, op.path) in limited
        paths.setdefault(op.path, {})[op.method] = _operation(op, refs, limited=is_limited)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Rummy Referee API",
            "version": version,
            "description": "Check melds, contracts, lay-offs and hands; keep a game's score. "
            "Every answer is JSON, errors included; messages come in the request's `lang`.",
        },
        "servers": [{"url": server}],
        "tags": [
            {"name": "referee", "description": "The rules: verdicts on cards"},
            {"name": "games", "description": "Keeping a game's score"},
            {"name": "clubs", "description": "The same people over many games: stats, ratings"},
            {
                "name": "training",
                "description": "Drills for learning the rules, every answer the referee's",
            },
            {
                "name": "events",
                "description": "A club night: check-in, series drawn to tables, the standings",
            },
            {
                "name": "seasons",
                "description": "A club's season: its club nights added up in one table",
            },
        ],
        "paths": paths,
        "components": {
            "schemas": definitions,
            "securitySchemes": {
                "edit_token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The game's `edit_token`, as `POST /api/v1/games` gave it; "
                    "a club's calls (its evenings) take the club's `edit_token`.",
                }
            },
        },
    }
