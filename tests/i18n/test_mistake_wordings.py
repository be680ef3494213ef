"""The mistakes catalogue in the learner's language. The oracle, ``mistake_wordings_zh.json``, is every mistake's
wording as drill showed it before its own wordings went through the catalogs (dumped from that code, one commit
before): in Chinese it is shown unchanged, character for character; in English drill's own wordings
(``verbatim=False``) have no Chinese left, while the chapter's words (``verbatim=True``: content) stay as the
chapter writes them; under the pseudo-locale every one of drill's own wordings is marked. Where a learner reads
them: `drill code --check` (subprocess, a wrong solution), the code screen (pilot) and a generated quiz question's
wrong options."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Static, TextArea

import drill.i18n
from drill.engine.mistakes import MISTAKES
from tests.code.submissions import WRONG
from tests.i18n.pseudo import CLOSE, OPEN, mark

HERE = Path(__file__).resolve().parent
ORACLE = json.loads((HERE / "mistake_wordings_zh.json").read_text(encoding="utf-8"))
CHAPTER = (HERE.parents[1] / "data" / "transformer-chapter-7.md").read_text(encoding="utf-8")
CJK = re.compile("[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")
OWN = sorted(mid for mid, m in MISTAKES.items() if not m.verbatim)
VERBATIM = sorted(mid for mid, m in MISTAKES.items() if m.verbatim)


def wordings(language: str) -> dict[str, str]:
    drill.i18n.set_language(language)
    return {mid: m.wording for mid, m in MISTAKES.items()}


def test_the_oracle_covers_the_whole_catalogue():
    assert set(ORACLE) == set(MISTAKES)
    assert len(OWN) >= 60 and len(VERBATIM) >= 26  # both kinds are there: neither test below is vacuous


def test_in_chinese_every_wording_is_the_oracles():
    assert wordings("zh") == ORACLE


def test_in_english_drills_own_wordings_have_no_chinese_and_the_chapters_are_unchanged():
    shown = wordings("en")
    assert {mid: shown[mid] for mid in VERBATIM} == {mid: ORACLE[mid] for mid in VERBATIM}
    left = {mid: CJK.findall(shown[mid]) for mid in OWN if CJK.search(shown[mid])}
    assert left == {}
    assert all(shown[mid] == MISTAKES[mid].declared != ORACLE[mid] for mid in OWN)


def test_the_cjk_pattern_sees_chinese_and_its_punctuation():
    assert all(CJK.search(text) for text in ("逐行", "a：b", "「x」", "（1）", "x。"))
    assert not CJK.search("softmax(QKᵀ/√dₖ) — “who”, −∞, ≤, ₖ, d×d, …")


def test_under_the_pseudo_locale_every_own_wording_is_marked_and_the_chapters_are_not(pseudo):
    shown = {mid: m.wording for mid, m in MISTAKES.items()}
    assert {mid: shown[mid] for mid in OWN} == {mid: mark(MISTAKES[mid].declared) for mid in OWN}
    assert all(OPEN in shown[mid] and CLOSE in shown[mid] for mid in OWN)
    assert {mid: shown[mid] for mid in VERBATIM} == {mid: ORACLE[mid] for mid in VERBATIM}


MATH_OR_CODE = re.compile(r"\$[^$]*\$|`[^`]*`")


@pytest.mark.parametrize("mid", OWN)
def test_the_english_keeps_the_chinese_markdown_and_latex(mid):
    """The same $math$ and `code` spans and **bold** marks in both languages, and no backslash outside them (an
    escape leaked into the text)."""
    english, chinese = MISTAKES[mid].declared, ORACLE[mid]
    assert sorted(MATH_OR_CODE.findall(english)) == sorted(MATH_OR_CODE.findall(chinese))
    assert english.count("**") == chinese.count("**")
    assert "\\" not in MATH_OR_CODE.sub("", english)


@pytest.mark.parametrize("mid", VERBATIM)
def test_a_verbatim_wording_is_the_chapters_word_for_word(mid):
    assert MISTAKES[mid].declared in CHAPTER


def pitfall_boxes() -> dict[str, str]:
    """Each section's 常见误区 boxes (``:::warning 常见误区`` … ``:::``), by section number."""
    parts = re.split(r"^## (7\.\d+) ", CHAPTER, flags=re.M)
    return {
        section: "\n".join(re.findall(r"^:::warning 常见误区\n(.*?)^:::", body, flags=re.M | re.S))
        for section, body in zip(parts[1::2], parts[2::2], strict=True)
    }


BOXES = pitfall_boxes()


def test_the_chapter_has_its_pitfall_boxes():
    assert len([s for s, box in BOXES.items() if box]) >= 15 and "**忘了减最大值**" in BOXES["7.10"]


@pytest.mark.parametrize("mid", VERBATIM)
def test_a_wording_cited_as_the_sections_pitfall_is_in_its_pitfall_box(mid):
    """`drill code` cites "7.9 常见误区" for a ``pitfall``: the words are in that section's box; the chapter's
    words from elsewhere in the section are cited by the section alone."""
    m = MISTAKES[mid]
    assert m.pitfall == (m.declared in BOXES[m.section])


@pytest.mark.parametrize("mid", OWN)
def test_drills_own_chinese_wording_is_not_a_quote_of_the_chapter(mid):
    """Content is never translated: a wording the chapter has word for word is declared ``verbatim``."""
    assert ORACLE[mid] not in CHAPTER


# ---------------------------------------------------------------- where the learner reads them


def check(language: str, mid: str, tmp_path: Path) -> list[str]:
    """`drill --lang <language> code <task> --check` on the hand-written wrong solution for ``mid``: the lines
    naming a mistake (not the failed cases' lines, which say "same mistake")."""
    solution = tmp_path / "solution.py"
    solution.write_text(WRONG[mid], encoding="utf-8")
    task = MISTAKES[mid].task
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "drill",
            "--lang",
            language,
            "code",
            task,
            "--check",
            str(solution),
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    return [line.strip() for line in run.stdout.splitlines() if mid in line and "✗" not in line]


@pytest.mark.parametrize(
    "mid, english, chinese",
    [
        (
            "attention/no-scale",
            "mistake (attention/no-scale): Not dividing by √dₖ: the variance of QKᵀ grows linearly with dₖ, "
            "so softmax saturates. — 7.9",
            "错误（attention/no-scale）：没有除以 √dₖ：QKᵀ 的方差随 dₖ 线性增长，softmax 会饱和。 — 7.9",
        ),
        (
            "causal_mask/no-diagonal",
            "mistake (causal_mask/no-diagonal): Keep the diagonal: position i may attend to every j ≤ i, itself "
            "included (`triu(..., 1)` masks the strict upper triangle). — 7.17",
            "错误（causal_mask/no-diagonal）：对角线要保留：位置 i 可以关注 j ≤ i，包括它自己"
            "（`triu(..., 1)` 遮的是严格上三角）。 — 7.17",
        ),
        (  # the chapter's words, from 7.17's text (not its 常见误区 box): as written in both languages
            "causal_mask/upper-triangle",
            "mistake (causal_mask/upper-triangle): 如果预测第 3 个词时模型能看到第 4 个词，它就「抄答案」了。"
            "所以把每个位置右边（未来）的注意力分数设为 −∞，softmax 后这些位置权重为 0。 — 7.17",
            "错误（causal_mask/upper-triangle）：如果预测第 3 个词时模型能看到第 4 个词，它就「抄答案」了。"
            "所以把每个位置右边（未来）的注意力分数设为 −∞，softmax 后这些位置权重为 0。 — 7.17",
        ),
        (
            "attention/scale-by-dk",
            "mistake (attention/scale-by-dk): 不是除以 dₖ：方差随 dₖ 线性增长，要除的是标准差 √dₖ。"
            "除以 dₖ 会让分布过平、区分度不足。 — 7.9 常见误区",
            "错误（attention/scale-by-dk）：不是除以 dₖ：方差随 dₖ 线性增长，要除的是标准差 √dₖ。"
            "除以 dₖ 会让分布过平、区分度不足。 — 7.9 常见误区",
        ),
    ],
    ids=["no-scale", "no-diagonal", "chapter-text", "chapter-pitfall"],
)
def test_drill_code_names_the_mistake_in_the_learners_language(tmp_path, mid, english, chinese):
    assert check("en", mid, tmp_path) == [english]
    assert check("zh", mid, tmp_path) == [chinese]


async def test_the_code_screen_names_the_mistake_in_the_learners_language(store):
    from drill.tui.app import make_app
    from tests.tui.conftest import frozen_clock, wait_until

    for language, words in (("en", "Not dividing by √dₖ"), ("zh", "没有除以 √dₖ")):
        drill.i18n.set_language(language)
        app = make_app("code", store=store, clock=frozen_clock, task="attention")
        async with app.run_test(size=(140, 40)) as pilot:
            screen = app.mode_screen
            screen.query_one("#code-editor", TextArea).load_text(WRONG["attention/no-scale"])
            runs = screen.runs
            await pilot.press("ctrl+r")
            await wait_until(pilot, lambda s=screen, n=runs: s.runs > n and not s.running, tries=5000)
            shown = str(screen.query_one("#code-result-text", Static).content)
        assert words in shown, shown


def test_a_generated_questions_wrong_options_explain_in_the_learners_language():
    from drill.content.generated import generate_questions

    def own_notes(language):
        drill.i18n.set_language(language)
        return [
            (MISTAKES[mid], q.note_for(letter))
            for q in generate_questions(7, 40)
            for letter, mid in q.mistakes.items()
            if not MISTAKES[mid].verbatim
        ]

    def words(text):  # the wording's longest run of words outside any $math$, `code` or **bold** mark
        return max(re.split(r"\$[^$]*\$|`[^`]*`|\*\*", text), key=len).strip()

    english, chinese = own_notes("en"), own_notes("zh")
    assert english and [m.id for m, _ in english] == [m.id for m, _ in chinese]
    for m, note in english:
        assert len(words(m.declared)) >= 10 and words(m.declared) in note, (m.id, note)
    for m, note in chinese:
        assert len(words(ORACLE[m.id])) >= 5 and words(ORACLE[m.id]) in note, (m.id, note)
