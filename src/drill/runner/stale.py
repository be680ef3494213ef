"""Run folders a killed drill left behind (``drill-run-*`` in the temporary directory): each run holds an flock
on a file in its folder while it lives; a folder nobody holds, older than ``STALE_AFTER_S``, is a dead run's and
is removed before the next run starts. SIGKILL leaves no chance to clean up; this is the clean-up."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from drill import claims

PREFIX = "drill-run-"
LOCK = ".drill-run.lock"
STALE_AFTER_S = 60.0  # a folder just made by mkdtemp is not yet claimed: give it time to be


def claim(run: Path) -> int | None:
    """Hold ``run``'s lock for the life of the run (released by ``release`` or by the kernel when drill dies)."""
    return claims.claim(run / LOCK, 0o600)


release = claims.release


def prune_stale(root: Path | None = None, *, now: float | None = None) -> list[Path]:
    """Remove this user's dead run folders under ``root`` (default: the temporary directory); the removed."""
    root = Path(root or tempfile.gettempdir())
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    for entry in entries:
        try:
            if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
                continue
            info = entry.stat(follow_symlinks=False)
            if info.st_uid != os.getuid() or now - info.st_mtime < STALE_AFTER_S:
                continue
        except OSError:
            continue
        path = Path(entry.path)
        if claims.held(path / LOCK, missing=False):  # no lock file: it died before claiming
            continue
        shutil.rmtree(path, ignore_errors=True)
        if not path.exists():
            removed.append(path)
    return removed
