"""The WSGI entry point: `flask --app wsgi run` or `gunicorn wsgi:app`.

RUMMY_INSTANCE_PATH puts the instance folder (SQLite file, secret key, PDF cache) elsewhere,
e.g. /var/lib/rummy-referee under systemd.
"""

import os

from referee.web import create_app

app = create_app(instance_path=os.environ.get("RUMMY_INSTANCE_PATH") or None)
