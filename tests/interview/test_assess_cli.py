"""`drill interview --assess CARD --answer FILE --json`, as a script runs it: a new process, its stdout, its
exit code; the refusals are one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def run(*args: str, tmp_path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, DRILL_DATA_DIR=str(tmp_path / "data"), DRILL_CONFIG_DIR=str(tmp_path / "cfg"))
    return subprocess.run(
        [sys.executable, "-m", "drill", "--lang", "en", "interview", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
    )


def test_the_verdict_as_json(tmp_path):
    answer = tmp_path / "a.txt"
    text = (
        "softmax 之后 dim=-1，最后一维。每一行是一个 query 对所有 key 的分布，行和为 1。其实不需要减最大值。"
    )
    answer.write_text(text, encoding="utf-8")
    done = run("--assess", "q08", "--answer", str(answer), "--json", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"card", "points", "misconceptions", "coverage", "proposed_grade"}
    assert out["card"] == "q08"
    assert [p["index"] for p in out["points"]] == [1, 2, 3]
    assert [p["covered"] for p in out["points"]] == [True, True, False]
    for p in out["points"]:
        assert set(p) == {"index", "text", "covered", "evidence"}
        for span in p["evidence"]:
            assert text[span["start"] : span["end"]] == span["text"]
    assert any(s["text"] == "dim=-1" for s in out["points"][0]["evidence"])
    (m,) = out["misconceptions"]
    assert set(m) == {"id", "text", "evidence", "correction"}
    assert m["id"] == "no-max-subtraction" and "减最大值" in text[m["evidence"][0]["start"] :]
    assert "FP16" in m["correction"]  # the chapter's bullet, then the erratum's note
    assert out["coverage"] == pytest.approx(2 / 3, abs=1e-3)
    assert out["proposed_grade"] == 1  # Hard from 67 % coverage, one grade down for the misconception


@pytest.mark.parametrize(
    "args, content, needle",
    [
        (("--assess", "q99"), b"x", "no bank card q99"),
        (("--assess", "q07"), b"\xff\xfe\x00bad", "not UTF-8"),
        (("--assess", "q07"), None, "cannot read"),
    ],
)
def test_refusals_are_one_line_and_exit_2(tmp_path, args, content, needle):
    answer = tmp_path / "answer.txt"
    if content is not None:
        answer.write_bytes(content)
    done = run(*args, "--answer", str(answer), "--json", tmp_path=tmp_path)
    assert done.returncode == 2
    assert done.stdout == b""
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], lines
    assert "Traceback" not in done.stderr.decode()
