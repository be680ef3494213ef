"""Where drill keeps its files: user data (the SQLite default, backups), config (drill.toml) and cache (the
validated content, which drill can always rebuild).

Environment overrides make tests hermetic: DRILL_DATA_DIR, DRILL_CONFIG_DIR and DRILL_CACHE_DIR.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "drill"


def data_dir() -> Path:
    override = os.environ.get("DRILL_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False)


def config_dir() -> Path:
    override = os.environ.get("DRILL_CONFIG_DIR")
    if override:
        return Path(override)
    from platformdirs import user_config_path

    return user_config_path(APP_NAME, appauthor=False)


def cache_dir() -> Path:
    override = os.environ.get("DRILL_CACHE_DIR")
    if override:
        return Path(override)
    from platformdirs import user_cache_path

    return user_cache_path(APP_NAME, appauthor=False)


def config_file() -> Path:
    return config_dir() / "drill.toml"


def default_db_path() -> Path:
    return data_dir() / "drill.sqlite3"


def backup_dir() -> Path:
    return data_dir() / "backups"
