"""When a writing open reads the whole SQLite file to check it (``PRAGMA quick_check``), and when a cheap check does.

``quick_check`` reads every page: 6.3 s of CPU on a 558 MB file (100k cards / 2M reviews), ~10x that at 1M
cards, on every `drill study`, grade from `drill code`, or `drill plan --interview`. ``integrity_check(1)`` is
no cheaper (its argument caps the errors listed, not the pages read: 13 s on the same file). SQLite itself
keeps a file consistent across kills and power loss (WAL, synchronous=FULL); what a whole-file check is for is
damage drill did not make. So the full check runs before the first write when:

- drill has no record of closing this file (``<db>.checked``: size, mtime and inode at drill's last clean
  close, and when the file was last fully checked), or the file is not as drill left it: changed or replaced
  by something else, or drill was killed after it last wrote (its close never recorded the file);
- a drill or power failure left a write-ahead log behind: a non-empty ``-wal`` (or a ``-shm`` without its
  ``-wal``) while no other drill holds the database;
- the last full check is more than ``CHECK_EVERY`` old (damage underneath: the disk, the file system).

Otherwise a bounded check: the header and the schema are read and the small tables drill reads at every
open are checked (``quick_check`` of the schema, ``users`` and ``alembic_version``), 2.5 ms CPU at 100k cards. A damaged
page the cheap check does not meet is still named in one line by the query that meets it
(``engines.translate_errors``), as for a read-only open. Anki runs no check at open at all.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

CHECK_EVERY = timedelta(days=7)
CHEAP_TABLES = ("sqlite_schema", "users", "alembic_version")  # read at every open; a few pages at any size
FULL = ("PRAGMA quick_check",)


def record_path(db_file: Path) -> Path:
    return db_file.with_name(db_file.name + ".checked")


def _fingerprint(db_file: Path) -> list[int]:
    stat = db_file.stat()
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


@dataclass
class Checked:
    """The check decision for one writing open of ``db_file``; ``closed()`` records the file at a clean close."""

    db_file: Path
    reason: str | None  # why the whole file is checked; None: the cheap check
    checked_at: datetime | None  # the last full check (now, once a full one has passed)

    def statements(self, raw) -> tuple[str, ...]:
        """The checks to run on the sqlite3 connection ``raw`` (reading the schema is itself the header's check)."""
        if self.reason:
            return FULL
        names = {row[0] for row in raw.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
        return tuple(f"PRAGMA quick_check({t})" for t in CHEAP_TABLES if t == "sqlite_schema" or t in names)

    def passed(self, now: datetime | None = None) -> None:
        if self.reason:
            self.checked_at = now or datetime.now(UTC)
        # An open that later dies leaves a record that no longer matches the file (or a -wal behind it)
        self._forget()

    def _forget(self) -> None:
        with contextlib.suppress(OSError):
            record_path(self.db_file).unlink()

    def closed(self) -> None:
        """After the last connection of this store is closed: the file as drill leaves it, written atomically
        (a failure only means the next open checks the whole file)."""
        if self.checked_at is None:
            return
        path = record_path(self.db_file)
        partial = path.with_name(path.name + ".partial")
        with contextlib.suppress(OSError):
            text = json.dumps({"checked_at": self.checked_at.isoformat(), "file": _fingerprint(self.db_file)})
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, path)


def decide(db_file: Path, *, alone: bool, now: datetime | None = None) -> Checked:
    """Whether this open checks the whole file (see the module's text). ``alone``: no other drill holds the
    database (so a -wal left behind is a crash's, not a live session's)."""
    now = now or datetime.now(UTC)
    try:
        record = json.loads(record_path(db_file).read_text(encoding="utf-8"))
        checked_at = datetime.fromisoformat(record["checked_at"])
        same = record["file"] == _fingerprint(db_file)
        if checked_at.tzinfo is None:
            raise ValueError("no time zone")
    except (OSError, ValueError, KeyError, TypeError):
        return Checked(db_file, "no record of a clean close", None)
    if not same:
        return Checked(db_file, "changed since drill closed it", checked_at)
    if alone:
        wal, shm = (db_file.with_name(db_file.name + side) for side in ("-wal", "-shm"))
        with contextlib.suppress(OSError):
            if (wal.exists() and wal.stat().st_size > 0) or (shm.exists() and not wal.exists()):
                return Checked(db_file, "a write-ahead log left behind", checked_at)
    if now - checked_at > CHECK_EVERY:
        return Checked(db_file, "last checked over a week ago", checked_at)
    return Checked(db_file, None, checked_at)
