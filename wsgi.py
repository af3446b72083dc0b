"""The WSGI entry point: `flask --app wsgi run` or `gunicorn wsgi:app`."""

from referee.web import create_app

app = create_app()
