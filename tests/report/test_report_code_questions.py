"""Issue 28: a code card's question in the English reports is its task's English prompt (drill's own words,
through the catalogs), not the Chinese original nor the study screen's "space opens the code editor": Markdown,
HTML, CSV and the terminal, from a store where three code cards were failed."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

import drill.i18n
from drill.cli import cli
from drill.store import open_store

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def failed_code(tmp_path_factory):
    from drill.content import load_content

    library = load_content(cache=False)
    code = [c for c in library.cards.values() if c.kind == "code"][:3]
    url = f"sqlite:///{tmp_path_factory.mktemp('code-q') / 'drill.sqlite3'}"
    then = datetime.now(UTC) - timedelta(days=3)
    with open_store(url, "amy") as store:
        store.sync_content(library)
        for card in code:
            store.grade(card.id, 1, then)
            store.grade(card.id, 1, then + timedelta(hours=1))
    return url, code


def _report(url, *args):
    drill.i18n.set_language("en")
    result = CliRunner().invoke(cli, ["report", "--db", url, "--user", "amy", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _first_paragraph(card) -> str:
    from drill.engine.codetasks import get_task

    drill.i18n.set_language("en")
    # as text: the prompt's Markdown marks (**bold**, `code`) are not shown as marks in a report
    return get_task(card.task).prompt.strip().split("\n\n")[0].replace("**", "").replace("`", "")


@pytest.mark.parametrize("fmt", ["md", "html", "csv"])
def test_code_questions_are_the_english_prompts(failed_code, fmt):
    url, code = failed_code
    out = _report(url, "-f", fmt)
    for card in code:
        prompt = _first_paragraph(card)
        assert not CJK.search(prompt), prompt  # the catalog's English, not the chapter's Chinese
        rows = [line for line in out.splitlines() if card.id.replace("_", "\\_") in line or card.id in line]
        assert rows, (fmt, card.id)
        shown = html.unescape(rows[0]).replace("\\", "")
        assert prompt.replace("\\", "")[:40] in shown, (fmt, card.id, rows[0])
        assert "space opens the code editor" not in shown
        assert "**" not in shown and "`" not in shown, (fmt, card.id, shown)


def test_code_questions_in_the_terminal(failed_code, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    url, code = failed_code
    out = _report(url)
    for card in code:
        rows = [line for line in out.splitlines() if card.id in line]
        assert rows and _first_paragraph(card)[:20] in rows[0], (card.id, rows)
        assert not CJK.search(rows[0])
