"""`drill check`: the summary of valid content (plain when piped, Rich tables on request) and its exit codes."""

from __future__ import annotations

import shutil
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from drill.cli import cli

PACKS = Path(__file__).parent / "packs"


def run(*args: str):
    return CliRunner().invoke(cli, ["check", *args])


def test_two_packs_plain_summary():
    result = run(str(PACKS), "--plain")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "content OK: 2 pack(s), 4 cards, 2 quizzes, 1 checks" in out
    assert "pack extra: A second pack" in out and "pack mini: A small test pack" in out
    assert "bank numbers (2): Q1, Q3" in out
    assert "not in the bank: Q2" in out
    assert "section-only cards (1): s7.5-qk-dim (7.5)" in out
    # cards per section, in section order
    mini = out[out.index("pack mini") :]
    assert mini.index("7.1 ") < mini.index("7.5 ") < mini.index("7.9 ")


def test_piped_output_is_plain_by_default():
    result = run(str(PACKS / "mini"))
    assert result.exit_code == 0
    assert "\x1b[" not in result.stdout and "┃" not in result.stdout
    assert "bank numbers (2): Q1, Q3" in result.stdout


def test_rich_tables_on_request_and_content_is_not_markup(tmp_path):
    shutil.copytree(PACKS / "mini", tmp_path / "p")
    q = tmp_path / "p" / "questions.yaml"
    q.write_text(
        q.read_text(encoding="utf-8").replace(
            "title: A small test pack", "title: '[bold red]x[/] [@click=app.quit]'"
        ),
        encoding="utf-8",
    )
    result = run(str(tmp_path / "p"), "--rich")
    assert result.exit_code == 0, result.output
    assert "┃ Section" in result.stdout
    assert "[bold red]x[/] [@click=app.quit]" in result.stdout
    assert "Q1, Q3" in result.stdout and "s7.5-qk-dim" in result.stdout


def test_content_option_is_accepted():
    result = run("--content", str(PACKS / "mini"), "--plain")
    assert result.exit_code == 0
    assert "pack mini" in result.stdout and "pack extra" not in result.stdout


def test_a_pack_alone_cannot_refer_to_another_packs_cards():
    result = run("--content", str(PACKS / "extra"))
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"drill: error: {PACKS / 'extra' / 'quizzes.yaml'}:8: quizzes[0].cards[1]: card 'q01'"
    )


@dataclass
class FakeResult:
    check: object
    status: str
    value: float | None
    message: str | None = None


@pytest.fixture
def fake_verifier(monkeypatch):
    """Stand-in for drill.engine.verify so the report and exit codes can be tested for each outcome."""
    outcome = {"status": "ok", "value": 0.1978}

    def verify_checks(checks):
        return [FakeResult(c, outcome["status"], outcome["value"], "differs by 0.1") for c in checks]

    module = types.ModuleType("drill.engine.verify")
    module.verify_checks = verify_checks
    monkeypatch.setitem(sys.modules, "drill.engine.verify", module)
    return outcome


def test_numeric_checks_ok(fake_verifier):
    result = run(str(PACKS / "mini"), "--plain")
    assert result.exit_code == 0
    assert "numeric checks: 1 ok, 0 confirmed errata, 0 unexpected mismatches" in result.stdout


def test_confirmed_erratum_is_listed_and_passes(fake_verifier, tmp_path):
    shutil.copytree(PACKS / "mini", tmp_path / "p")
    checks = tmp_path / "p" / "checks.yaml"
    checks.write_text(
        checks.read_text(encoding="utf-8").replace("erratum: null", "erratum: the chapter rounds down"),
        encoding="utf-8",
    )
    fake_verifier.update(status="erratum", value=0.2)
    result = run(str(tmp_path / "p"), "--plain")
    assert result.exit_code == 0
    assert "1 confirmed errata" in result.stdout
    assert "the chapter printed 0.198, the engine says 0.2 — the chapter rounds down" in result.stdout


def test_unexpected_mismatch_exits_2(fake_verifier):
    fake_verifier.update(status="mismatch", value=0.5)
    result = run(str(PACKS / "mini"), "--plain")
    assert result.exit_code == 2
    assert (
        "MISMATCH: worked-softmax-0-0 (7.12, worked/softmax[0, 0]): the chapter printed 0.198"
        in result.stdout
    )
    assert "the engine says 0.5" in result.stdout
    assert result.stderr.startswith("drill: error: 1 numeric check(s) disagree with the engine")
