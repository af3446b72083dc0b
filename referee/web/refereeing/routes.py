"""The routes of the refereeing blueprint."""

from . import bp  # noqa: F401
