"""Shared fixtures: every test runs with its own data, config and cache directories, in English (drill's UI
language comes from LC_ALL / LC_MESSAGES / LANG; tests that want Chinese ask for it).

Under pytest-xdist (two workers per core: see ``pytest_xdist_auto_num_workers``) each worker keeps numpy's BLAS and PyTorch to one thread, so the
workers do not each start a thread per core and spin against each other. Set here, before any
test module imports numpy or torch; subprocesses the tests start inherit it.
"""

from __future__ import annotations

import os

import pytest

if os.environ.get("PYTEST_XDIST_WORKER"):
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_var, "1")


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto``: three workers per core. The suite waits more than it computes (on drill processes starting and
    being killed, on SQLite's fsync at synchronous=FULL, on busy timeouts, on screens settling): with one worker
    per core, `.ci/run` on 2 cores used about 13 CPU-minutes in a 16-minute test run; with two (3,656 tests), the
    suite used 11.4 CPU-minutes (user + sys, children included) while its clean-clone CI run took 886 s on 2
    cores (29.5 core-minutes): the cores were idle more than half the time."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return 3 * cores


def pytest_collection_modifyitems(config, items) -> None:
    """The long tests (marked ``slow``: the kill loops, a minute or more each on a loaded machine) go first, so
    the workers start them at once instead of one of them starting last and the others idling until it ends.
    A stable sort: every worker collects the same order, as pytest-xdist requires."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("drill-home")
    monkeypatch.setenv("DRILL_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("DRILL_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("DRILL_CACHE_DIR", str(home / "cache"))
    monkeypatch.delenv("DRILL_DB_URL", raising=False)
    monkeypatch.delenv("DRILL_CONTENT", raising=False)
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(autouse=True)
def _english_ui():
    """Every test starts in English and leaves English behind: drill.i18n's language is process state, and a
    test (or an app run in-process with ui.language zh) that switched it would otherwise speak Chinese to the
    tests that run after it on the same xdist worker."""
    from drill.i18n import set_language

    set_language("en")
    yield
    set_language("en")
