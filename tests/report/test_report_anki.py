"""`drill export --anki`: a valid .apkg (a zip holding a collection.anki2 SQLite database) with every card."""

from __future__ import annotations

import re
import sqlite3
import zipfile

import pytest

from drill.errors import InputError
from drill.report.anki import MODEL_ID, build_decks, stable_id, to_anki_html, write_apkg
from tests.report.report_history import XSS_SCRIPT


def _notes(path, tmp_path):
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        assert "collection.anki2" in archive.namelist()
        archive.extract("collection.anki2", tmp_path)
    db = sqlite3.connect(tmp_path / "collection.anki2")
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        notes = db.execute("SELECT guid, mid, flds, tags FROM notes").fetchall()
        cards = db.execute("SELECT count(*) FROM cards").fetchone()[0]
        decks = db.execute("SELECT decks FROM col").fetchone()[0]
    finally:
        db.close()
    return notes, cards, decks


def test_the_package_holds_every_card(tmp_path, library):
    path = tmp_path / "deck.apkg"
    count = write_apkg(library, path)
    assert count == len(library.cards)
    notes, cards, decks = _notes(path, tmp_path)
    assert len(notes) == cards == len(library.cards)
    assert {n[1] for n in notes} == {MODEL_ID}
    fields = {n[2].split("\x1f")[4]: n[2].split("\x1f") for n in notes}
    assert set(fields) == {
        cid.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#x27;")
        for cid in library.cards
    }
    assert "drill::Test pack" in decks
    # Content is escaped HTML; the XSS probe stays text.
    probe = fields["q03"][0]
    assert XSS_SCRIPT not in probe and "&lt;script&gt;alert(1)&lt;/script&gt;" in probe
    assert "<img" not in "".join(n[2] for n in notes)
    # LaTeX uses Anki's MathJax delimiters.
    assert fields["q04"][0] == "为什么除 \\(\\sqrt{d_k}\\)？"
    assert "\\[A = \\mathrm{softmax}(QK^T/\\sqrt{d_k})V\\]" in fields["q06"][0]
    assert "$" not in "".join(f[0] for f in fields.values())
    assert any("section::7.9" in n[3] for n in notes)


def test_ids_are_stable_across_exports(tmp_path, library):
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    write_apkg(library, first)
    write_apkg(library, second)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    notes_a, _, _ = _notes(first, tmp_path / "a")
    notes_b, _, _ = _notes(second, tmp_path / "b")
    assert sorted(n[0] for n in notes_a) == sorted(n[0] for n in notes_b)
    assert stable_id("deck", "test") == stable_id("deck", "test") != stable_id("deck", "other")
    assert [d.deck_id for d in build_decks(library)] == [stable_id("deck", "test")]


def test_section_filter_and_errors(tmp_path, library):
    assert write_apkg(library, tmp_path / "s.apkg", section="7.9") == 2
    with pytest.raises(InputError, match="no cards in that section"):
        write_apkg(library, tmp_path / "none.apkg", section="8.1")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a $x^2$ b", "a \\(x^2\\) b"),
        ("$$\\frac{a}{b}$$", "\\[\\frac{a}{b}\\]"),
        ("price \\$5 and $a<b$", "price $5 and \\(a&lt;b\\)"),
        ("line1\n\nline2", "<p>line1</p>\n<p>line2</p>"),
        ("**bold** and `code`", "<strong>bold</strong> and <code>code</code>"),
        ("<b>x</b> & y", "&lt;b&gt;x&lt;/b&gt; &amp; y"),
        # an entity in the text is text (issue 28: Anki showed "&amp;" as "&", the HTML report as written)
        ("Levy &amp; Neubig", "Levy &amp;amp; Neubig"),
        ("&#65; &lt;b&gt; `&amp;`", "&amp;#65; &amp;lt;b&amp;gt; <code>&amp;amp;</code>"),
        ("$a &amp; b$ and Add&Norm", "\\(a &amp;amp; b\\) and Add&amp;Norm"),
        # the same formulas as the terminal renderer finds (drill.content.latex.split_math)
        ("It costs $5 and $6 today.", "It costs $5 and $6 today."),
        # a formula in a code span stays code (issue 13: `$x$` in code became MathJax)
        (
            "It costs $5 and $6 today; code `$x$` stays",
            "It costs $5 and $6 today; code <code>$x$</code> stays",
        ),
        ("a `$y$` then $\\$5$", "a <code>$y$</code> then \\(\\$5\\)"),
        ("![x](http://e/x.png) [a](http://e)", '!<a href="http://e/x.png">x</a> <a href="http://e">a</a>'),
    ],
)
def test_latex_and_escaping(source, expected):
    assert to_anki_html(source) == expected


def test_real_chapter_content_exports(tmp_path):
    from drill.content import load_content

    library = load_content()
    count = write_apkg(library, tmp_path / "chapter.apkg")
    assert count == len(library.cards) > 30


@pytest.mark.parametrize("text", ["Levy &amp; Neubig", "A & B &#65; &lt;b&gt;", "Add&Norm &copy;"])
def test_an_entity_reads_the_same_in_anki_the_html_and_the_markdown_report(text):
    """Issue 28: Anki showed "&amp;" as "&" while the HTML report showed it as written. Each output, read as its
    reader reads it (a browser for Anki's HTML and the report's, a CommonMark renderer for the Markdown), now
    shows the text word for word."""
    import html as htmllib

    from markdown_it import MarkdownIt

    from drill.report.html import reading
    from drill.report.mdtext import escape

    def shown(fragment: str) -> str:  # what a browser shows: tags dropped, entities decoded once
        return htmllib.unescape(re.sub(r"<[^>]+>", "", str(fragment))).strip()

    assert shown(to_anki_html(text)) == text
    assert shown(MarkdownIt("commonmark").render(escape(text))) == text
    assert shown(reading(text)) == text
