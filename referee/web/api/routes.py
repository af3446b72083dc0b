"""The routes of the api blueprint."""

from . import bp  # noqa: F401
