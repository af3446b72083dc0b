"""`GET /api/v1/openapi.json`, the OpenAPI document of every /api/v1 call (each feature's
views describe themselves with `openapi.documented`), and `GET /api/v1/docs`, the same as a
page to read, drawn by the app itself (no script, nothing from elsewhere): each call with its
fields, an example and its answers, then every shape an answer or a body can take."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from referee.web.jsonapi import bp
from referee.web.jsonapi.openapi import JSON, document
from referee.web.plumbing.limits import limited_operations
from referee.web.plumbing.version import app_version


@dataclass(frozen=True)
class FieldRow:
    name: str
    kind: str
    required: bool
    description: str
    link: str | None  # the shape it refers to, if any


@dataclass(frozen=True)
class Shape:
    name: str
    description: str
    fields: list[FieldRow]


@dataclass(frozen=True)
class Call:
    anchor: str
    method: str
    path: str
    summary: str
    description: str
    tag: str
    token: bool
    parameters: list[FieldRow]
    body: str | None  # the request's shape
    example: str | None
    answers: list[tuple[str, str, str | None]]  # status, description, shape


def _ref_name(schema: JSON) -> str | None:
    ref = schema.get("$ref")
    return str(ref).rsplit("/", 1)[-1] if ref else None


def kind_of(schema: JSON) -> tuple[str, str | None]:
    """A JSON schema as a short type text ("string", "list of Violation", "integer or null"),
    and the shape it names."""
    name = _ref_name(schema)
    if name:
        return name, name
    if "anyOf" in schema:
        parts = [kind_of(option) for option in schema["anyOf"]]
        return " or ".join(text for text, _ in parts), next((s for _, s in parts if s), None)
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"]), None
    if "const" in schema:
        return json.dumps(schema["const"]), None
    kind = schema.get("type", "any")
    if kind == "array":
        inner, shape = kind_of(schema.get("items", {}))
        return f"list of {inner}", shape
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        inner, shape = kind_of(schema["additionalProperties"])
        return f"object of {inner}", shape
    return str(kind), None


def _fields(schema: JSON) -> list[FieldRow]:
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema.get("properties", {}).items():
        kind, link = kind_of(prop)
        description = prop.get("description") or next(
            (o.get("description", "") for o in prop.get("anyOf", []) if o.get("description")), ""
        )
        rows.append(FieldRow(name, kind, name in required, description, link))
    return rows


def _calls(doc: JSON) -> list[Call]:
    calls = []
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            media = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            example = media.get("examples", {}).get("example", {}).get("value")
            parameters = [
                FieldRow(
                    p["name"],
                    f"{kind_of(p['schema'])[0]} ({p['in']})",
                    p["required"],
                    p.get("description", ""),
                    None,
                )
                for p in op.get("parameters", [])
            ]
            answers = []
            for status, answer in op["responses"].items():
                schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
                answers.append((status, answer["description"], _ref_name(schema)))
            calls.append(
                Call(
                    anchor=op["operationId"],
                    method=method.upper(),
                    path=path,
                    summary=op["summary"],
                    description=op.get("description", ""),
                    tag=op["tags"][0],
                    token="security" in op,
                    parameters=parameters,
                    body=_ref_name(media.get("schema", {})) if media else None,
                    example=json.dumps(example, indent=2, ensure_ascii=False) if example else None,
                    answers=answers,
                )
            )
    return calls


def _shapes(doc: JSON) -> list[Shape]:
    schemas: dict[str, Any] = doc["components"]["schemas"]
    return [
        Shape(name, schemas[name].get("description", ""), _fields(schemas[name]))
        for name in sorted(schemas)
    ]


@bp.get("/docs")
def docs() -> ResponseReturnValue:
    """The API described for people: every call, its fields, answers and shapes."""
    doc = document(app_version(), limited=limited_operations(current_app))
    calls = _calls(doc)
    tags = [(tag["name"], tag["description"]) for tag in doc["tags"]]
    return render_template(
        "api/docs.html", info=doc["info"], tags=tags, calls=calls, shapes=_shapes(doc)
    )


@bp.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    """The OpenAPI 3.1 description of every call of /api/v1."""
    limited = limited_operations(current_app)
    response: Response = jsonify(
        document(app_version(), request.script_root or "/", limited=limited)
    )
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
