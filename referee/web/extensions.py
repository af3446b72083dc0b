"""The Flask extensions, created unbound here and attached to the app by `create_app`."""

from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

babel = Babel()
csrf = CSRFProtect()
