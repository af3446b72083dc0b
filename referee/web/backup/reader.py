"""Reading a backup file as a stream: its head, then each table's rows one at a time.

A backup can be larger than the memory of the machine restoring it, so it is never held whole:
`ijson` (yajl, in C) turns the bytes into events, and a row is built from its events with a
limit on how deep it nests. Any JSON document of the backup's shape is read, however it is laid
out (`backup.dump` writes a row a line, `jq` may indent it), as long as the head (`format`,
`schema_revision`...) comes before `tables` and a table's `columns` before its `rows`, the
order `backup.dump` writes them in and any tool that sorts keys keeps.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, Final

import ijson

#: How deep a value of a row may nest (a game's results are 3 levels deep): deeper is no
#: backup of ours, and a stack of brackets must not cost the reader memory or recursion.
MAX_DEPTH: Final = 32
_SCALARS: Final = frozenset({"null", "boolean", "integer", "double", "number", "string"})
_OPENING: Final = {"start_map": dict, "start_array": list}
_CLOSING: Final = frozenset({"end_map", "end_array"})


class BackupError(RuntimeError):
    """A backup that cannot be restored here, said in plain words."""


class BackupReader:
    """One pass over a backup: `head()` first, then `tables()`, each table's rows read as the
    caller takes them."""

    def __init__(self, source: IO[bytes]) -> None:
        self._events = _events(source)
        self._head: dict[str, Any] | None = None
        self._tables_at = True  # the head ended at `tables`

    def _next(self) -> tuple[str, Any]:
        event: tuple[str, Any] | None = next(self._events, None)
        if event is None:
            raise BackupError("the file ends before the backup does")
        return event

    def _value(self, event: str, value: Any, where: str) -> Any:
        """The whole value that starts with (`event`, `value`), built without recursion."""
        if event in _SCALARS:
            return value
        if event not in _OPENING:
            raise BackupError(f"{where} is not laid out as a backup's")
        root = _OPENING[event]()
        stack: list[Any] = [root]
        keys: list[Any] = [None]
        parent = root
        # A loop over the events themselves: a backup is millions of them.
        for event, value in self._events:
            if event in _SCALARS:
                if type(parent) is list:
                    parent.append(value)
                else:
                    parent[keys[-1]] = value
            elif event == "map_key":
                keys[-1] = value
            elif event in _CLOSING:
                stack.pop()
                keys.pop()
                if not stack:
                    return root
                parent = stack[-1]
            else:
                item = _OPENING[event]()
                if type(parent) is list:
                    parent.append(item)
                else:
                    parent[keys[-1]] = item
                if len(stack) >= MAX_DEPTH:
                    raise BackupError(f"{where} nests deeper than {MAX_DEPTH} levels")
                stack.append(item)
                keys.append(None)
                parent = item
        raise BackupError("the file ends before the backup does")

    def _skip(self, where: str) -> None:
        event, value = self._next()
        self._value(event, value, where)

    def head(self) -> dict[str, Any]:
        """Everything before `tables`: format, format version, schema revision, dates."""
        if self._head is not None:
            return self._head
        head: dict[str, Any] = {}
        event, _ = self._next()
        if event != "start_map":
            raise BackupError("this file is not a Rummy Referee backup")
        while True:
            event, key = self._next()
            if event == "end_map":  # said once its format is known: tables()
                self._head, self._tables_at = head, False
                return head
            if key == "tables":
                self._head = head
                return head
            event, value = self._next()
            head[key] = self._value(event, value, f"the backup's {key!r}")

    def tables(self) -> Iterator[tuple[str, list[str], Iterator[list[Any]]]]:
        """(name, columns, rows) of each table in the file's order; a table's rows are read
        as they are taken (what is left of them is passed over before the next table)."""
        self.head()
        if not self._tables_at:
            raise BackupError("the backup has no tables")
        event, _ = self._next()
        if event == "null":
            return
        if event != "start_map":
            raise BackupError("the backup's tables are not laid out as a backup's")
        while True:
            event, name = self._next()
            if event == "end_map":
                break
            event, _ = self._next()
            if event == "null":
                continue
            if event != "start_map":
                raise BackupError(f"table {name} is not laid out as a backup's")
            rows = self._table(name)
            columns = next(rows)
            yield name, columns, rows
            for _ in rows:  # whatever the caller left
                pass
        self._finish()

    def _table(self, name: str) -> Iterator[Any]:
        """The table's columns first, then its rows, one at a time."""
        columns: list[str] | None = None
        while True:
            event, key = self._next()
            if event == "end_map":
                if columns is None:
                    raise BackupError(f"table {name} names no columns")
                return
            if key == "columns" and columns is None:
                event, value = self._next()
                columns = self._value(event, value, f"the columns of {name}")
                if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
                    raise BackupError(f"the columns of {name} are not a list of names")
                yield columns
            elif key == "rows":
                if columns is None:
                    raise BackupError(f"table {name} has its rows before its columns")
                yield from self._rows(name)
            else:
                self._skip(f"{key!r} of table {name}")

    def _rows(self, name: str) -> Iterator[list[Any]]:
        event, _ = self._next()
        if event == "null":
            return
        if event != "start_array":
            raise BackupError(f"the rows of {name} are not a list")
        number = 0
        while True:
            event, value = self._next()
            if event == "end_array":
                return
            number += 1
            row = self._value(event, value, f"row {number} of {name}")
            if not isinstance(row, list):
                raise BackupError(f"row {number} of {name} is not a list of values")
            yield row

    def _finish(self) -> None:
        """What follows the tables is read (and must be JSON) up to the end of the document."""
        while True:
            event, key = self._next()
            if event == "end_map":
                break
            self._skip(f"the backup's {key!r}")
        try:
            extra = next(self._events, None)
        except BackupError as error:
            raise BackupError(f"{error} after the backup") from None
        if extra is not None:
            raise BackupError("the file goes on after the backup")


def _events(source: IO[bytes]) -> Iterator[tuple[str, Any]]:
    """ijson's events of `source`, its errors said as a BackupError."""
    try:
        yield from ijson.basic_parse(source, use_float=True)
    except ijson.IncompleteJSONError as error:
        if "premature EOF" in str(error):
            raise BackupError("the file ends before the backup does") from None
        raise BackupError(f"the file is not JSON: {_said(error)}") from None
    except (ijson.JSONError, UnicodeDecodeError) as error:
        raise BackupError(f"the file is not JSON: {_said(error)}") from None


def _said(error: Exception) -> str:
    return str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
