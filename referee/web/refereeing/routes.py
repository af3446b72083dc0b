"""The routes of the refereeing blueprint."""

from . import bp, picker  # noqa: F401
