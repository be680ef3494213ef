"""`drill check`: the summary of valid content (plain when piped, Rich tables on request) and its exit codes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

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


def pack_with_check(tmp_path, **changes) -> Path:
    """The mini pack with its one check (worked/softmax[0, 0], printed 0.198) edited."""
    shutil.copytree(PACKS / "mini", tmp_path / "p")
    checks = tmp_path / "p" / "checks.yaml"
    text = checks.read_text(encoding="utf-8")
    for key, value in changes.items():
        text = re.sub(rf"(?m)^(    {key}:).*$", rf"\g<1> {value}", text)
    checks.write_text(text, encoding="utf-8")
    return tmp_path / "p"


def test_numeric_checks_ok_through_the_engine():
    result = run(str(PACKS / "mini"), "--plain")
    assert result.exit_code == 0
    assert (
        "numeric checks: 1 ok, 0 confirmed errata (the chapter is wrong), 0 exact figures (right in magnitude), "
        "0 unexpected mismatches" in result.stdout
    )


def test_confirmed_erratum_is_listed_and_passes(tmp_path):
    # the chapter prints A[1,2] = 0.504; softmax gives 0.50349
    pack = pack_with_check(tmp_path, index="[1, 2]", claimed="0.504", erratum="rounded so the row sums to 1")
    result = run(str(pack), "--plain")
    assert result.exit_code == 0, result.output
    assert "0 ok, 1 confirmed errata (the chapter is wrong), 0 exact figures" in result.stdout
    assert (
        "erratum: mini-check" not in result.stdout
        and "the chapter printed 0.504, the engine says 0.50349 — rounded so the row sums to 1"
        in result.stdout
    )


def test_a_note_is_not_an_erratum(tmp_path):
    """A check of kind "note" (the chapter right in magnitude; drill gives the exact figure) is counted and
    listed apart from the confirmed errata."""
    pack = pack_with_check(tmp_path, index="[1, 2]", claimed="0.504", erratum="rounded so the row sums to 1")
    checks = pack / "checks.yaml"
    checks.write_text(
        checks.read_text(encoding="utf-8").rstrip("\n") + "\n    kind: note\n", encoding="utf-8"
    )
    result = run(str(pack), "--plain")
    assert result.exit_code == 0, result.output
    assert (
        "0 ok, 0 confirmed errata (the chapter is wrong), 1 exact figures (right in magnitude)"
        in result.stdout
    )
    assert "  exact figure: " in result.stdout and "  erratum: " not in result.stdout


def test_unexpected_mismatch_exits_2(tmp_path):
    pack = pack_with_check(tmp_path, claimed="0.25")
    result = run(str(pack), "--plain")
    assert result.exit_code == 2
    assert (
        "MISMATCH: worked-softmax-0-0 (7.12, worked/softmax element (1, 1)): the chapter printed 0.25"
        in result.stdout
    )
    assert "the engine says 0.197776" in result.stdout
    assert result.stderr.startswith("drill: error: 1 numeric check(s) disagree with the engine")
    line = next(line for line in result.stdout.splitlines() if "MISMATCH" in line)
    assert line.count("0.197776") == 1 and line.count("0.25") == 1, line  # each value said once


def test_an_index_outside_the_step_is_named_without_a_placeholder_value(tmp_path):
    pack = pack_with_check(tmp_path, index="[9, 9]")
    result = run(str(pack), "--plain")
    assert result.exit_code == 2
    line = next(line for line in result.stdout.splitlines() if "MISMATCH" in line)
    assert line == (
        "  MISMATCH: worked-softmax-0-0 (7.12, worked/softmax element (10, 10)): "
        "index [9, 9] is not valid for worked/softmax of shape [3, 3]"
    )


def test_a_check_of_a_scalar_step_shows_no_empty_index():
    result = run("--plain")  # the shipped chapter: 7.3's PE variance is a scalar and a known erratum
    assert "posenc/pe_variance)" in result.stdout and "pe_variance[]" not in result.stdout


def test_stale_erratum_is_a_mismatch(tmp_path):
    pack = pack_with_check(tmp_path, erratum="the chapter is wrong here")  # but 0.198 is right
    result = run(str(pack), "--plain")
    assert result.exit_code == 2
    assert "remove the erratum" in result.stdout


def test_rich_output_lists_errata_and_mismatches(tmp_path):
    pack = pack_with_check(tmp_path, claimed="0.25")
    result = run(str(pack), "--rich")
    assert result.exit_code == 2
    assert "MISMATCH: worked-softmax-0-0" in result.stdout
