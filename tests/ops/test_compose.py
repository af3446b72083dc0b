"""compose.yaml (docs/DEPLOY.md "Containers"): valid against the compose specification's JSON
schema, and what it promises an admin: the app on SQLite by default, a PostgreSQL profile on
the official image with its password in a secret file, a named volume each, restart policies,
and a backup service whose command is one `rummy-referee` reads.

The schema is the one check-jsonschema ships (`vendor.compose-spec`, a dev dependency pinned
with its hash in requirements/dev.lock), not a copy in this repository: a third-party file is
not committed here, and its maintainers bring it up to date with the specification. Docker's
own `docker compose config` is not on these machines, and Debian's podman-compose has no
`config` command.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from referee import commands

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"


def _schema() -> dict[str, Any]:
    vendor = resources.files("check_jsonschema.builtin_schemas.vendor")
    schema: dict[str, Any] = json.loads((vendor / "compose-spec.json").read_text("utf-8"))
    return schema


def _errors(document: Any) -> list[str]:
    schema = _schema()
    validator = jsonschema.validators.validator_for(schema)
    checker = validator(schema, format_checker=validator.FORMAT_CHECKER)
    return [
        f"{list(error.absolute_path)}: {error.message}" for error in checker.iter_errors(document)
    ]


def _compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return document


def test_compose_yaml_is_valid_against_the_compose_specification() -> None:
    assert _schema()["$id"] == "compose_spec.json"
    assert _errors(_compose()) == []
    # The check bites: a misspelt key is refused, as Docker Compose refuses it.
    broken = _compose()
    broken["services"]["app"]["volume"] = broken["services"]["app"].pop("volumes")
    assert any("'volume' was unexpected" in error for error in _errors(broken))


def test_sqlite_by_default_and_postgresql_as_a_profile() -> None:
    services = _compose()["services"]
    default = {name for name, service in services.items() if not service.get("profiles")}
    assert default == {"app", "backup"}
    assert "DATABASE_URL" not in services["app"]["environment"]  # SQLite in /data
    postgres = {name for name, service in services.items() if service.get("profiles")}
    assert postgres == {"db", "app-postgres", "backup-postgres"}
    assert all(services[name]["profiles"] == ["postgres"] for name in postgres)

    db = services["db"]
    assert db["image"].startswith("postgres:")  # the official image
    assert db["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    for name in ("app-postgres", "backup-postgres"):
        environment = services[name]["environment"]
        assert environment["DATABASE_URL"] == "postgresql://rummy@db:5432/rummy"  # no password
        assert environment["DATABASE_PASSWORD_FILE"] == "/run/secrets/postgres_password"
        assert services[name]["secrets"] == ["postgres_password"]
    assert _compose()["secrets"]["postgres_password"] == {"file": "./secrets/postgres_password"}
    assert "secrets/" in (ROOT / ".gitignore").read_text().splitlines()


def test_every_service_restarts_and_keeps_its_data_in_a_named_volume() -> None:
    document = _compose()
    named = set(document["volumes"])
    assert named == {"data", "data-postgres", "postgres"}
    for name, service in document["services"].items():
        assert service["restart"] == "unless-stopped", name
        mounts = [volume.split(":", 1) for volume in service["volumes"]]
        assert all(source in named for source, _target in mounts), name
    assert document["services"]["app"]["volumes"] == ["data:/data"]
    assert document["services"]["backup"]["volumes"] == ["data:/data"]
    # The app's and its backup's containers write nothing but their volume and /tmp.
    assert document["services"]["app"]["read_only"] is True
    assert document["services"]["app"]["tmpfs"] == ["/tmp"]


@pytest.mark.parametrize("service", ["backup", "backup-postgres"])
def test_the_backup_service_runs_a_command_rummy_referee_reads(service: str) -> None:
    """With the defaults compose fills in: a backup a day, 14 kept, no rclone remote (every
    default not empty: podman-compose 1.0 leaves `${NAME:-}` as it is)."""
    command = _compose()["services"][service]["command"]
    assert not any(":-}" in part for part in command)
    command = [
        part.replace("${BACKUP_KEEP:-14}", "14")
        .replace("${BACKUP_EVERY:-24h}", "24h")
        .replace("${BACKUP_RCLONE:-none}", "none")
        for part in command
    ]
    parser = argparse.ArgumentParser()
    commands.add_commands(parser.add_subparsers(dest="call"))
    args = parser.parse_args(command)
    assert (args.call, args.dir, args.keep, args.every, args.rclone) == (
        "backup", "/data/backups", 14, "24h", "none"
    )  # fmt: skip
    depends = _compose()["services"][service]["depends_on"]
    assert next(iter(depends.values())) == {"condition": "service_healthy"}  # schema made first
