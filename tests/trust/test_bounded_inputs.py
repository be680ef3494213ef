"""Bounded inputs and honest messages: nan/inf options, far-future interview dates, passwords never printed,
option values echoed through the sanitiser, a full disk reported as a full disk (issue 29, item 5)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TIMEOUT_S = 120


def drill(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "drill", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )


def one_line(out, *fragments):
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1, out.stderr
    for fragment in fragments:
        assert fragment in out.stderr, out.stderr
    return out.stderr


@pytest.fixture
def solution(tmp_path):
    from drill.engine.codetasks import get_task

    path = tmp_path / "sol.py"
    path.write_text(get_task("softmax").solution())
    return str(path)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_code_time_limit_refuses_nan_and_inf(value, solution):
    one_line(drill("code", "softmax", "--check", solution, "--time-limit", value), "--time-limit")


@pytest.mark.parametrize(
    "args",
    [["interview", "--minutes", "nan"], ["plan", "--target", "nan"], ["plan", "--minutes", "inf"]],
)
def test_every_number_option_refuses_nan_and_inf(args):
    one_line(drill(*args), args[1])


@pytest.mark.parametrize("day", ["2126-01-01", "9000-01-01", "9999-12-31"])
def test_a_far_future_interview_date_is_refused_at_once(day):
    one_line(drill("plan", "--interview", day, "--dry-run"), day, "two years")


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://alice:s3cret@localhost:abc/db",
        "postgresql+psycopg://alice:s3:c@ret@localhost:port/db",
        "postgresql://alice:s3cret@[::1/db",
    ],
)
def test_a_database_password_is_never_printed(url):
    out = drill("report", "--db", url)
    assert out.returncode != 0
    assert "s3cret" not in out.stderr + out.stdout and "ret@" not in out.stderr
    assert "***" in out.stderr or "alice" not in out.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["code", "softmax", "--check", "/tmp/no\x1b[31msuch\x1b]0;t\x07.py"],
        ["restore", "/tmp/no\x1b[2Jsuch.sqlite3"],
        ["plan", "--interview", "20\x1b[31m26"],
        ["export", "--anki", "/tmp/x.apkg", "--section", "9\x1b[31m9"],
        ["report", "-o", "/tmp/r\x1b[31m.weird"],
    ],
)
def test_option_values_are_echoed_without_their_escape_sequences(args, tmp_path):
    env = {**os.environ, "DRILL_DATA_DIR": str(tmp_path), "DRILL_CONFIG_DIR": str(tmp_path)}
    out = drill(*args, env=env)
    assert out.returncode != 0
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr, repr(out.stderr)
    assert "␛" in out.stderr or "\\x1b" in out.stderr, repr(out.stderr)  # a stand-in, or repr's escape


FULL_DISK = r"""
set -e
mount -t tmpfs -o size=3m tmpfs "$DRILL_DATA_DIR"
"$PY" - <<'PY'
from datetime import UTC, datetime
from drill.content import load_content
from drill.store import open_store
with open_store(None, "t") as s:
    s.sync_content(load_content())
    for i, c in enumerate(("q01", "q02", "q03", "q04", "q05")):
        s.grade(c, 3, datetime(2026, 3, 2, 9, i, tzinfo=UTC))
PY
rm -f "$DRILL_DATA_DIR/drill.sqlite3-wal" "$DRILL_DATA_DIR/drill.sqlite3-shm"
dd if=/dev/zero of="$DRILL_DATA_DIR/fill" bs=64k 2>/dev/null || true
"$PY" -m drill report > /dev/null 2> "$OUT/report.err" || true
rm "$DRILL_DATA_DIR/fill"
"$PY" -c "
from drill.store import open_store
with open_store(None, 't', readonly=True) as s:
    print(len(s.review_log()) if hasattr(s, 'review_log') else 'ok')
" > "$OUT/after.txt"
"""


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"), reason="a small tmpfs needs root")
def test_a_full_disk_is_reported_as_a_full_disk(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    env = {
        **os.environ,
        "DRILL_DATA_DIR": str(data),
        "DRILL_CONFIG_DIR": str(tmp_path),
        "PY": sys.executable,
        "OUT": str(tmp_path),
    }
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", FULL_DISK], env=env, capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert done.returncode == 0, done.stderr
    error = Path(tmp_path / "report.err").read_text()
    assert "write-ahead log" not in error and "gone" not in error, error
    assert error == "" or "is full" in error, error
