"""The app's plumbing: what every page and call runs on and no feature owns (settings, the
database, hosting, security headers, rate limits, metrics, idempotency keys, numbers and dates
in words, QR codes, charts, the request's language, the theme, the offline shell, where the
files are, Flask's extensions, error pages, the health check). Imports no feature, no words of
the game and no JSON API (the `web` import contract)."""
