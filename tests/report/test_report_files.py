"""Issue 11 item 15: `-o FILE` and `--anki FILE` are written whole or not at all (drill.report.files).

A full disk (ENOSPC in the middle of the write, or at fsync) and a kill -9 while the file is being written
(a real subprocess) each leave the old file exactly as it was; the error is one line, exit 2.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.errors import InputError
from drill.report import files

OLD = "the old report, whole\n" * 100


def _no_partials(folder) -> bool:
    return not [p for p in os.listdir(folder) if p.endswith(".partial")]


def test_a_full_disk_in_the_middle_of_the_write_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "report.md"
    target.write_text(OLD, encoding="utf-8")
    real_write = os.write
    calls = []

    def full_disk(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[: len(data) // 2]))  # a short write, as a filling disk gives
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "write", full_disk)
    with pytest.raises(InputError, match="No space left on device") as caught:
        files.write_text(target, "x" * 5000)
    assert len(calls) == 2
    assert "\n" not in str(caught.value)
    assert target.read_text(encoding="utf-8") == OLD
    assert _no_partials(tmp_path)


def test_a_full_disk_at_fsync_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "report.csv"
    target.write_text(OLD, encoding="utf-8")

    def full_disk(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(InputError, match="No space left on device"):
        files.write_text(target, "new")
    assert target.read_text(encoding="utf-8") == OLD
    assert _no_partials(tmp_path)


def test_the_new_file_replaces_the_old_with_its_mode(tmp_path):
    target = tmp_path / "report.json"
    target.write_text(OLD, encoding="utf-8")
    target.chmod(0o640)
    files.write_text(target, ["{", '"a": 1', "}\n"])
    assert target.read_text(encoding="utf-8") == '{"a": 1}\n'
    assert target.stat().st_mode & 0o777 == 0o640
    assert _no_partials(tmp_path)
    fresh = tmp_path / "new.md"
    files.write_text(fresh, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~mask


WRITER = """
import sys, time
from drill.report.files import write_text

def chunks():
    yield "NEW " * 50_000
    print("half written", flush=True)
    time.sleep(120)
    yield "END\\n"

write_text(sys.argv[1], chunks())
"""


def test_a_kill_while_writing_leaves_the_old_file(tmp_path):
    """kill -9 after half the new file is on disk (the writer says so, then waits): the old file is whole."""
    target = tmp_path / "report.html"
    for attempt in range(3):
        target.write_text(OLD + str(attempt), encoding="utf-8")
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE, text=True
        )
        try:
            assert child.stdout.readline() == "half written\n"
            partial = [p for p in os.listdir(tmp_path) if p.endswith(".partial")]
            assert partial and (tmp_path / partial[0]).stat().st_size == 200_000
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
            child.stdout.close()
        assert target.read_text(encoding="utf-8") == OLD + str(attempt)


@pytest.mark.slow
def test_drill_report_killed_at_any_moment_never_leaves_half_a_report(history, tmp_path):
    """The real command, killed -9 at a spread of moments (bounded: 8 runs): the file is always either the
    old report or a whole new one (it parses)."""
    target = tmp_path / "report.json"
    old = json.dumps({"old": True}) + "\n"
    target.write_text(old, encoding="utf-8")
    cmd = [sys.executable, "-m", "drill", "report", "--db", history.url, "--user", "alice", "-o", str(target)]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, timeout=300)
    whole = time.perf_counter() - start  # one run's length, to spread the kills over it
    outcomes = set()
    for i in range(8):
        target.write_text(old, encoding="utf-8")
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(whole * (0.5 + i / 8))
        child.send_signal(signal.SIGKILL)
        child.wait()
        text = target.read_text(encoding="utf-8")
        doc = json.loads(text)  # never half a document
        outcomes.add("old" if doc == {"old": True} else "new")
        if doc != {"old": True}:
            assert doc["schema_version"] and text.endswith("\n")
    assert outcomes <= {"old", "new"}


def test_an_anki_package_that_fails_midway_leaves_the_old_one(tmp_path, monkeypatch, library):
    import zipfile

    from drill.report.anki import write_apkg

    target = tmp_path / "deck.apkg"
    target.write_bytes(b"old package")

    def fails(
        self, *args, **kwargs
    ):  # the collection is in the zip already; the disk fills on the media list
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(zipfile.ZipFile, "writestr", fails)
    with pytest.raises(InputError, match="--anki .*No space left on device"):
        write_apkg(library, target)
    assert target.read_bytes() == b"old package"
    assert _no_partials(tmp_path)


def test_an_unwritable_place_is_one_line_and_exit_2(history, tmp_path):
    missing = tmp_path / "no" / "such" / "folder" / "r.md"
    result = CliRunner().invoke(cli, ["report", "--db", history.url, "--user", "alice", "-o", str(missing)])
    assert result.exit_code == 2
    assert "cannot write the file" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    result = CliRunner().invoke(cli, ["export", "--anki", str(missing.with_suffix(".apkg"))])
    assert result.exit_code == 2
    assert "cannot write the file" in result.stderr and "Traceback" not in result.output


# --- leftovers of a killed writer (issue 11, left from item 15) ----------------------------------------------

LIVE_WRITER = """
import sys
from drill.report.files import write_text

def chunks():
    yield "LIVE " * 50_000
    print("half written", flush=True)
    sys.stdin.readline()  # holds its partial (and its lock) until told to finish
    yield "END\\n"

write_text(sys.argv[1], chunks())
"""
LONG_AGO = time.time() - 3600


def _partials_of(folder, name: str) -> list[str]:
    return sorted(p for p in os.listdir(folder) if p.startswith(f".{name}.") and p.endswith(".partial"))


def test_the_next_write_removes_a_killed_writers_partial_and_nothing_else(history, tmp_path):
    """kill -9 a writer of report.json mid-write (its hidden partial stays), then run `drill report -o
    report.json`: the dead writer's partial is gone and the report is whole. Left alone: a live writer's
    partial of the same file (older than the rerun, but locked), another file's partial, names outside
    drill's pattern, and a symlink with a partial's name; the live writer then finishes its own file."""
    target = tmp_path / "report.json"
    target.write_text(json.dumps({"old": True}), encoding="utf-8")
    killed = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        assert killed.stdout.readline() == "half written\n"
    finally:
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        killed.stdout.close()
    dead = _partials_of(tmp_path, "report.json")
    assert len(dead) == 1 and (tmp_path / dead[0]).stat().st_size == 200_000

    live = subprocess.Popen(
        [sys.executable, "-c", LIVE_WRITER, str(target)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert live.stdout.readline() == "half written\n"
        live_partial = sorted(set(_partials_of(tmp_path, "report.json")) - set(dead))
        assert len(live_partial) == 1
        os.utime(tmp_path / live_partial[0], (LONG_AGO, LONG_AGO))  # old: only its lock says it is in use
        kept = [".other.json.abcd1234.partial", ".report.json.notes.partial", ".report.json.ABCDEFGH.partial"]
        kept += [".report.json.abcd12345.partial", "report.json.abcd1234.partial"]
        for name in kept:
            (tmp_path / name).write_text("not drill's leftover of report.json", encoding="utf-8")
            os.utime(tmp_path / name, (LONG_AGO, LONG_AGO))
        outside = tmp_path / "outside.txt"
        outside.write_text("a symlink's target", encoding="utf-8")
        (tmp_path / ".report.json.zzzzzzzz.partial").symlink_to(outside)
        kept.append(".report.json.zzzzzzzz.partial")

        cmd = [
            sys.executable,
            "-m",
            "drill",
            "report",
            "--db",
            history.url,
            "--user",
            "alice",
            "-o",
            str(target),
        ]
        rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert rerun.returncode == 0, rerun.stderr
        doc = json.loads(target.read_text(encoding="utf-8"))  # whole
        assert doc["user"] == "alice" and doc["schema_version"]
        assert not (tmp_path / dead[0]).exists()
        assert (tmp_path / live_partial[0]).stat().st_size == 250_000  # the live writer's, untouched
        for name in kept:
            assert os.path.lexists(tmp_path / name), name
        assert outside.read_text(encoding="utf-8") == "a symlink's target"

        live.stdin.write("go\n")
        live.stdin.flush()
        assert live.wait(timeout=120) == 0
    finally:
        if live.poll() is None:
            live.kill()
            live.wait()
        live.stdin.close()
        live.stdout.close()
    assert target.read_text(encoding="utf-8") == "LIVE " * 50_000 + "END\n"
    assert _partials_of(tmp_path, "report.json") == sorted(
        n for n in kept if n.startswith(".report.json.") and n.endswith(".partial")
    )


def test_only_partials_older_than_this_process_are_removed(tmp_path):
    """A partial written since this process started may be another writer's that has not locked it yet: it
    stays; the same file, last written before the process started, goes."""
    target = tmp_path / "r.md"
    fresh = tmp_path / ".r.md.k3y_x9a0.partial"
    fresh.write_text("half", encoding="utf-8")
    assert fresh.stat().st_mtime >= files.process_started()
    assert files.prune_partials(target) == [] and fresh.exists()
    os.utime(fresh, (LONG_AGO, LONG_AGO))
    assert files.prune_partials(target) == [fresh] and not fresh.exists()
    files.write_text(target, "whole\n")
    assert target.read_text(encoding="utf-8") == "whole\n" and _no_partials(tmp_path)
