"""The routes of the games blueprint."""

from . import bp  # noqa: F401
