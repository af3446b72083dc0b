"""The Flask extensions, created unbound here and attached to the app by `create_app`."""

from flask_babel import Babel
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect

babel = Babel()
csrf = CSRFProtect()
# A table may have poor signal: pages, CSS, JS and JSON go out compressed (htmx 52 KB -> 17 KB).
compress = Compress()
