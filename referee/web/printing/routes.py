"""The routes of the printing blueprint."""

from . import bp  # noqa: F401
