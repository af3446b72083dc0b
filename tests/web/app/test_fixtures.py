"""The database fixtures reach real databases: an SQLite file and a throwaway PostgreSQL server."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import create_engine, text


def test_database_url_answers_select_1(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT 1")).scalar_one() == 1
    finally:
        engine.dispose()


def test_database_url_starts_empty(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE probe (id INTEGER PRIMARY KEY)"))
    finally:
        engine.dispose()  # a second test gets a new database, so the same CREATE works there too


def test_pg_url_is_a_postgresql_server(pg_url: str) -> None:
    engine = create_engine(pg_url)
    try:
        with engine.connect() as connection:
            assert "PostgreSQL" in connection.execute(text("SELECT version()")).scalar_one()
    finally:
        engine.dispose()


def test_app_runs_on_the_database_the_test_asked_for(app: Flask, database_url: str) -> None:
    assert app.config["DATABASE_URL"] == database_url


def test_storage_tests_are_marked(request: pytest.FixtureRequest, database_url: str) -> None:
    assert request.node.get_closest_marker("storage") is not None
