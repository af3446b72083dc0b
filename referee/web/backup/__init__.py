"""`rummy-referee backup|restore`: every table as one JSON document (archive.py), read back as a
stream (reader.py) and checked before it commits (checks.py); a folder of timestamped backups
(folder.py). Sits above every feature: a restore reads each record back through its store."""
