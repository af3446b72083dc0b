"""The WSGI entry point: `flask --app wsgi run` or `gunicorn wsgi:app`.

The data folder (SQLite file, secret key, PDF cache) is `RUMMY_INSTANCE_PATH`, e.g.
/var/lib/rummy-referee under systemd, else `instance/` here: `referee.web.plumbing.settings`
reads it, for the command line (`rummy-referee backup` ...) too.
"""

from referee.web import create_app

app = create_app()
