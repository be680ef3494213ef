"""Every file in tests/content/bad/ is rejected with a message naming file, line and field, exit code 2.

Each case runs through the CLI (`drill check PATH`) and through load_content(); the message is one line and
never a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.content import load_content
from drill.errors import ContentError

BAD = Path(__file__).parent / "bad"

# case -> (file inside the case, line or None, [substrings the message must contain])
CASES: dict[str, tuple[str, int | None, list[str]]] = {
    "syntax-error": ("questions.yaml", 13, ["YAML syntax error", "']'"]),
    "truncated": ("questions.yaml", 14, ["YAML syntax error", "end of stream"]),
    "two-documents": ("questions.yaml", 10, ["YAML syntax error", "single document"]),
    "duplicate-id": ("questions.yaml", 10, ["cards[1].id", "duplicate card id 'q01'", "questions.yaml:4"]),
    "duplicate-id-across-packs": (
        "two/questions.yaml",
        9,
        ["cards[1].id", "duplicate card id 'q01'", "one/questions.yaml:4"],
    ),
    "duplicate-quiz-id": ("quizzes.yaml", 9, ["quizzes[1].id", "duplicate quiz id 'quiz-a'"]),
    "duplicate-key": (
        "questions.yaml",
        15,
        ["cards[1].answer", "duplicate key 'answer'", "first at line 14"],
    ),
    "duplicate-bank": ("questions.yaml", 13, ["cards[1].bank", "bank number 1", "'q01'"]),
    "unknown-field": (
        "questions.yaml",
        14,
        ["cards[1].anwser", "unknown field 'anwser'", "did you mean 'answer'"],
    ),
    "missing-field": ("questions.yaml", 10, ["cards[1].question", "required field 'question' is missing"]),
    "empty-field": ("questions.yaml", 13, ["cards[1].question", "must not be empty"]),
    "null-field": ("questions.yaml", 14, ["cards[1].answer", "required field is empty"]),
    "empty-list": ("questions.yaml", 12, ["cards[1].tags", "empty list"]),
    "wrong-type": ("questions.yaml", 13, ["cards[1].bank", "expected an integer, got text"]),
    "section-number": ("questions.yaml", 11, ["cards[1].section", "got the number 7.1", "quote it"]),
    "cards-not-list": ("questions.yaml", 3, ["cards", "expected a list of cards"]),
    "top-level-list": ("questions.yaml", 1, ["expected a mapping", "got a list"]),
    "bad-id": ("questions.yaml", 10, ["cards[1].id", "'Q 02' is not valid"]),
    "date-value": ("questions.yaml", 12, ["cards[1].asked_in[0]", "reads as a date"]),
    "quiz-answer-not-option": (
        "quizzes.yaml",
        6,
        ["quizzes[0].answer", "'E' is not one of the options (A, B, C, D)"],
    ),
    "quiz-one-option": ("quizzes.yaml", 5, ["quizzes[0].options", "at least two options"]),
    "quiz-bad-card-ref": ("quizzes.yaml", 8, ["quizzes[0].cards[1]", "card 'q99' does not exist"]),
    "check-bad-card-ref": ("checks.yaml", 9, ["checks[0].card", "card 'q99' does not exist"]),
    "check-wrong-type": ("checks.yaml", 7, ["checks[0].claimed", "expected a number, got text"]),
    "check-not-finite": ("checks.yaml", 7, ["checks[0].claimed", "expected a finite number, got nan"]),
    "python-tag": ("questions.yaml", 14, ["cards[1].answer", "python/object/apply:os.system", "not allowed"]),
    "python-tag-top": ("questions.yaml", 1, ["python/object/apply:os.system", "not allowed"]),
    "python-name-tag": ("questions.yaml", 12, ["cards[1].tags[0]", "python/name:os.system", "not allowed"]),
    "custom-tag": ("questions.yaml", 14, ["cards[1].answer", "'!include' is not allowed"]),
    "alias-bomb": ("questions.yaml", 1, ["aliases", "not allowed"]),
    "deep-nesting": ("questions.yaml", 3, ["cards[0][0]", "nested deeper than 50 levels"]),
    "non-utf8": ("questions.yaml", 14, ["not valid UTF-8", "byte 0xe9", "column 16"]),
    "empty-file": ("questions.yaml", None, ["file is empty"]),
    "comments-only": ("questions.yaml", None, ["file is empty"]),
    "control-esc-raw": ("questions.yaml", 14, ["cards[1].answer", "U+001B (ESC)"]),
    "control-esc-escaped": ("questions.yaml", 14, ["cards[1].answer", "U+001B (ESC)"]),
    "control-nul": ("questions.yaml", 13, ["cards[1].question", "U+0000 (NUL)"]),
    "control-del": ("questions.yaml", 12, ["cards[1].tags[0]", "U+007F (DEL)"]),
    "control-c1": ("questions.yaml", 14, ["cards[1].answer", "U+009B"]),
    "control-cr-escaped": ("questions.yaml", 14, ["cards[1].answer", "U+000D (CR)"]),
    "step-ref-malformed": (
        "questions.yaml",
        15,
        ["cards[1].steps[0]", "'worked-softmax' is not valid", "<example>/<step>"],
    ),
    "step-ref-unknown": (
        "questions.yaml",
        15,
        ["cards[1].steps[0]", "unknown engine example 'nosuch-example'"],
    ),
    "orphan-quizzes": ("stray", None, ["has quizzes or checks but no questions.yaml"]),
}


def test_every_corpus_case_is_listed():
    on_disk = {p.name for p in BAD.iterdir() if p.is_dir()}
    assert on_disk == set(CASES)


def expected_prefix(case: str) -> str:
    file, line, _ = CASES[case]
    path = str(BAD / case / file)
    return f"{path}:{line}:" if line else f"{path}:"


@pytest.mark.parametrize("case", sorted(CASES))
def test_loader_rejects(case):
    _, _, parts = CASES[case]
    with pytest.raises(ContentError) as info:
        load_content(BAD / case)
    message = str(info.value)
    assert message.startswith(expected_prefix(case)), message
    for part in parts:
        assert part in message, message
    assert "\n" not in message


@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_exits_2_with_one_line(case):
    result = CliRunner().invoke(cli, ["check", str(BAD / case)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("drill: error: " + expected_prefix(case))
    assert result.stdout == ""


def test_content_option_and_env_var_reach_the_same_check(monkeypatch):
    case = BAD / "duplicate-key"
    by_option = CliRunner().invoke(cli, ["check", "--content", str(case)])
    monkeypatch.setenv("DRILL_CONTENT", str(case))
    by_env = CliRunner().invoke(cli, ["check"])
    assert by_option.exit_code == by_env.exit_code == 2
    assert "duplicate key 'answer'" in by_option.stderr
    assert by_option.stderr == by_env.stderr


PAYLOAD_CASES = ["python-tag", "python-tag-top"]


@pytest.mark.parametrize("case", PAYLOAD_CASES)
def test_payload_is_real_but_never_runs(case, tmp_path):
    """The payload creates drill-pwned-marker in the working directory when loaded unsafely (proving the test
    can fail); drill check in a real subprocess rejects it and the marker never appears."""
    text = (BAD / case / "questions.yaml").read_text(encoding="utf-8")
    unsafe_dir = tmp_path / "unsafe"
    unsafe_dir.mkdir()
    subprocess.run(
        [sys.executable, "-c", "import sys, yaml; yaml.unsafe_load(sys.stdin.read())"],
        input=text,
        text=True,
        cwd=unsafe_dir,
        check=True,
    )
    assert (unsafe_dir / "drill-pwned-marker").exists()

    safe_dir = tmp_path / "safe"
    safe_dir.mkdir()
    out = subprocess.run(
        [sys.executable, "-m", "drill", "check", str(BAD / case)],
        capture_output=True,
        text=True,
        cwd=safe_dir,
    )
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("drill: error: ") and "not allowed" in out.stderr
    assert not (safe_dir / "drill-pwned-marker").exists()
    assert list(safe_dir.iterdir()) == []


def test_real_process_prints_no_traceback_for_bad_bytes():
    out = subprocess.run(
        [sys.executable, "-m", "drill", "check", str(BAD / "non-utf8")], capture_output=True, text=True
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
