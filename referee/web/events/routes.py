"""The club nights' pages (filled in below)."""
