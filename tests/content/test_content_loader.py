"""load_content: packs, directories of packs, DRILL_CONTENT, the default location, and the records it builds."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from drill.content import Card, Library, load_content
from drill.content.loader import default_content_path, find_packs
from drill.errors import ContentError

PACKS = Path(__file__).parent / "packs"
REPO = Path(__file__).resolve().parents[2]


def test_one_pack_loads_into_frozen_records(mini_pack):
    library = load_content(mini_pack)
    assert isinstance(library, Library)
    assert [p.id for p in library.packs] == ["mini"]
    assert list(library.cards) == ["q01", "q03", "s7.5-qk-dim"]
    card = library.cards["q03"]
    assert isinstance(card, Card)
    assert card.pack == "mini" and card.section == "7.9" and card.bank == 3
    assert card.asked_in == ("7.9", "7.24")
    assert card.steps == ("worked/scale", "worked/softmax")
    assert card.bank_answer == "防止 softmax 饱和。"
    assert "$\\sqrt{d_k}$" in card.answer  # LaTeX kept as written
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.answer = "changed"  # type: ignore[misc]
    only = library.cards["s7.5-qk-dim"]
    assert only.bank is None and only.asked_in == ("7.5",) and only.steps == () and only.pitfalls == ()
    quiz = library.quiz("quiz-qk-shape")
    assert quiz.answer == "B" and quiz.options["B"] == "[B, S, S]" and quiz.cards == ("q03", "s7.5-qk-dim")
    (check,) = library.checks
    assert (check.example, check.step, check.index, check.claimed, check.decimals) == (
        "worked",
        "softmax",
        (0, 0),
        0.198,
        3,
    )
    assert check.card == "q03" and check.erratum is None


def test_directory_of_two_packs_loads_both_and_resolves_references_across_them(packs_dir):
    library = load_content(packs_dir)
    assert [p.id for p in library.packs] == ["extra", "mini"]
    assert set(library.cards) == {"x-ffn", "q01", "q03", "s7.5-qk-dim"}
    # quiz-x (pack extra) relates to q01, which lives in pack mini
    assert library.quiz("quiz-x").cards == ("x-ffn", "q01")
    assert library.cards["x-ffn"].pack == "extra"
    assert [q.id for q in library.quizzes] == ["quiz-x", "quiz-qk-shape"]


def test_a_file_inside_a_pack_names_that_pack(mini_pack):
    assert find_packs(mini_pack / "quizzes.yaml") == [mini_pack]


def test_drill_content_env_var_is_the_default(monkeypatch, mini_pack):
    monkeypatch.setenv("DRILL_CONTENT", str(mini_pack))
    assert [p.id for p in load_content().packs] == ["mini"]
    # an explicit path wins over the variable
    assert [p.id for p in load_content(PACKS).packs] == ["extra", "mini"]


def test_default_is_the_packaged_copy_or_the_checkouts_data():
    """Installed from a wheel (as CI and the README install it): drill/data inside the package; in an editable
    or source checkout: the repository's data/. Either way it is the repository's content."""
    import drill

    packaged = Path(drill.__file__).resolve().parent / "data"
    expected = packaged if (packaged / "questions.yaml").is_file() else REPO / "data"
    assert default_content_path() == expected
    assert (expected / "questions.yaml").read_bytes() == (REPO / "data" / "questions.yaml").read_bytes()
    assert load_content().packs[0].path == expected


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda tmp: tmp / "nowhere", "no such file or directory"),
        (lambda tmp: tmp, "no questions.yaml here or in its sub-directories"),
        (lambda tmp: (tmp / "notes.txt").write_text("x") and tmp / "notes.txt", "not a content file"),
    ],
)
def test_paths_that_are_not_packs(tmp_path, make, expected):
    with pytest.raises(ContentError, match=expected):
        load_content(make(tmp_path))


def test_duplicate_pack_ids_across_directories(tmp_path, mini_pack):
    shutil.copytree(mini_pack, tmp_path / "a")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "questions.yaml").write_text(
        "pack: mini\ntitle: t\ncards:\n  - {id: z1, section: '1', tags: [t], question: q, answer: a}\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as info:
        load_content(tmp_path)
    assert str(info.value).startswith(
        f"{tmp_path / 'b' / 'questions.yaml'}:1: pack: duplicate pack id 'mini'"
    )


def test_side_file_must_belong_to_its_pack(tmp_path, mini_pack):
    shutil.copytree(mini_pack, tmp_path / "p")
    quizzes = tmp_path / "p" / "quizzes.yaml"
    quizzes.write_text("pack: other\n" + quizzes.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ContentError, match=r"quizzes.yaml:1: pack: pack 'other' does not match"):
        load_content(tmp_path / "p")


def test_check_naming_an_unknown_engine_step_is_rejected(tmp_path, mini_pack):
    shutil.copytree(mini_pack, tmp_path / "p")
    checks = tmp_path / "p" / "checks.yaml"
    checks.write_text(
        checks.read_text(encoding="utf-8").replace("step: softmax", "step: softmaxx"), encoding="utf-8"
    )
    with pytest.raises(ContentError, match=r"checks.yaml:5: checks\[0\].step: .*has no step 'softmaxx'"):
        load_content(tmp_path / "p")


def test_crlf_and_bom_files_load(tmp_path, mini_pack):
    shutil.copytree(mini_pack, tmp_path / "p")
    q = tmp_path / "p" / "questions.yaml"
    q.write_bytes(b"\xef\xbb\xbf" + q.read_bytes().replace(b"\n", b"\r\n"))
    library = load_content(tmp_path / "p")
    assert "\r" not in library.cards["q01"].answer


def test_markup_and_escape_lookalikes_are_plain_text(tmp_path, mini_pack):
    """Rich markup and backslash sequences written as text load unchanged: they are text, not controls."""
    shutil.copytree(mini_pack, tmp_path / "p")
    q = tmp_path / "p" / "questions.yaml"
    text = q.read_text(encoding="utf-8").replace(
        "question: Q 和 K 的维度必须相同吗？", "question: '[@click=app.quit]x[/] \\e[2J ^[[31m'"
    )
    q.write_text(text, encoding="utf-8")
    assert load_content(tmp_path / "p").cards["s7.5-qk-dim"].question == "[@click=app.quit]x[/] \\e[2J ^[[31m"
