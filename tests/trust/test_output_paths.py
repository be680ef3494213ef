"""Every output path drill writes (-o, --anki) respects what the path is.

`drill report -o /dev/null` once replaced the system's /dev/null with a regular file: the atomic write
(a temporary file, then a rename) renamed over whatever the path named. Here each output option is aimed at
a character device made with mknod in a temporary folder (never the real /dev/null), a FIFO and a symlink:
afterwards the node is still a device, a FIFO, a symlink, and the content went through it.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from drill.report.files import ATOMIC, THROUGH, target, write_text, write_with

TIMEOUT_S = 120


def _null_device(folder: Path, name: str = "null") -> Path:
    """A character device with /dev/null's numbers (1, 3), in ``folder``: writes to it vanish."""
    if os.geteuid() != 0:
        pytest.skip("mknod of a character device needs root")
    node = folder / name
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return node


def _progress_db(tmp_path: Path) -> str:
    from drill.content import load_content
    from drill.store import open_store

    url = f"sqlite:///{tmp_path / 'progress.sqlite3'}"
    with open_store(url, "tester") as store:
        store.sync_content(load_content())
        store.grade("q01", 3, datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    return url


SUFFIX = {"report-csv": ".csv", "report-html": ".html", "export-anki": ".apkg"}
OUTPUTS = {
    "report-csv": lambda path: ["report", "--format", "csv", "-o", str(path)],
    "report-html": lambda path: ["report", "--format", "html", "-o", str(path)],
    "export-anki": lambda path: ["export", "--anki", str(path)],
}


def _drill(args, tmp_path, url):
    env = {**os.environ, "DRILL_DB_URL": url, "DRILL_CONFIG_DIR": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-m", "drill", *args], capture_output=True, text=True, env=env, timeout=TIMEOUT_S
    )


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    return _progress_db(tmp_path_factory.mktemp("db"))


@pytest.mark.parametrize("option", list(OUTPUTS))
def test_a_character_device_is_written_through_and_stays_a_device(option, tmp_path, url):
    node = _null_device(tmp_path, "null" + SUFFIX[option])
    out = _drill(OUTPUTS[option](node), tmp_path, url)
    assert out.returncode == 0, out.stderr
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".null")] == []


@pytest.mark.parametrize("option", list(OUTPUTS))
def test_a_fifo_is_written_through_and_stays_a_fifo(option, tmp_path, url):
    fifo = tmp_path / ("pipe" + SUFFIX[option])
    os.mkfifo(fifo)
    got = bytearray()

    def read():
        with open(fifo, "rb") as f:
            got.extend(f.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    out = _drill(OUTPUTS[option](fifo), tmp_path, url)
    reader.join(timeout=30)
    assert out.returncode == 0, out.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert len(got) > 100  # the whole report or deck came through the pipe


@pytest.mark.parametrize("option", list(OUTPUTS))
def test_a_symlink_is_followed_and_stays_a_symlink(option, tmp_path, url):
    real = tmp_path / "real" / ("out" + SUFFIX[option])
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / ("link" + SUFFIX[option])
    link.symlink_to(real)
    out = _drill(OUTPUTS[option](link), tmp_path, url)
    assert out.returncode == 0, out.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.is_file() and real.stat().st_size > 100  # the target was replaced, the link kept


def test_a_symlink_to_a_device_writes_into_the_device(tmp_path):
    node = _null_device(tmp_path)
    link = tmp_path / "to-null"
    link.symlink_to(node)
    write_text(link, "x" * 1000)
    assert link.is_symlink() and stat.S_ISCHR(os.lstat(node).st_mode)


def test_the_ways_a_path_is_written(tmp_path):
    regular = tmp_path / "a.csv"
    regular.write_text("old")
    assert target(regular) == (ATOMIC, regular.resolve())
    assert target(tmp_path / "new.csv") == (ATOMIC, tmp_path / "new.csv")
    assert target(Path("-"))[0] == THROUGH
    assert target(Path("/dev/stdout"))[0] == THROUGH  # an open file of this process: through /proc


def test_dash_is_standard_output(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from drill.report.files import write_with; "
            "write_with('-', lambda p: p.write_text('deck bytes'), what='--anki')",
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert out.returncode == 0 and out.stdout == "deck bytes"
    assert not Path("-").exists()


def test_a_regular_file_is_still_replaced_atomically(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("old")
    inode = path.stat().st_ino
    write_with(path, lambda p: p.write_text("new"), what="-o")
    assert path.read_text() == "new" and path.stat().st_ino != inode


def test_a_socket_is_refused_in_one_line(tmp_path):
    import socket

    from drill.errors import InputError

    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        with pytest.raises(InputError, match="socket"):
            write_text(path, "x")
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
