"""Issue 11 item 9: hostile strings stored in the database never reach an output raw.

A cohort member with SQL access plants escape sequences (an OSC 52 clipboard write, a clear-screen, colours),
bidi and zero-width characters and a spreadsheet formula in what the report reads from the store: a user name,
a card's section, a quiz's name, a coding mistake id. Every output of `drill report` — the terminal (a real
subprocess), Markdown, HTML, JSON and CSV — is read back: no control (Cc less TAB and LF) or format (Cf)
character is in it, the planted text is there as visible stand-ins, HTML escaped, the CSV cell neutralised.
On SQLite always, on PostgreSQL when DRILL_TEST_PG_URL is set (the cohort view is a shared database's).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import unicodedata
import uuid
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from drill.cli import cli

PG_URL = os.environ.get("DRILL_TEST_PG_URL")
NOW = datetime.now(UTC).replace(microsecond=0)

ESC_NAME = "mal\x1b]52;c;ZXZpbA==\x07lory\x1b[2J\x1b[31m\u202eyrollam\u200b"
ESC_SECTION = '=HYPERLINK("http://evil.invalid","\x1b[31mclick\u202e")'
ESC_QUIZ = "quiz\x1b[31m\u2066red\u2069\x9b"
ESC_MISTAKE = "softmax/\x1b[2Jwrong\u200f"


def forbidden(text: str) -> list[str]:
    """Every character of drill's rule found in ``text``, by Unicode's own categories (an independent
    oracle: unicodedata, not drill.content.control's lists)."""
    return sorted(
        {
            f"U+{ord(ch):04X}"
            for ch in text
            if (unicodedata.category(ch) == "Cc" and ch not in "\t\n") or unicodedata.category(ch) == "Cf"
        }
    )


def visible(text: str) -> str:
    """What the planted text looks like once sanitised: ESC -> ␛ and friends, others as <U+XXXX>."""
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x20 and ch not in "\t\n":
            out.append(chr(0x2400 + code))
        elif code == 0x7F:
            out.append("␡")
        elif 0x80 <= code <= 0x9F:
            out.append(f"\\x{code:02x}")
        elif unicodedata.category(ch) == "Cf":
            out.append(f"<U+{code:04X}>")
        else:
            out.append(ch)
    return "".join(out)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def hostile_db(request, tmp_path_factory):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'drill.sqlite3'}"
        _fill(url)
        yield url
        return
    if not PG_URL:
        pytest.skip("DRILL_TEST_PG_URL is not set (.ci/run starts a PostgreSQL server)")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"drill_hostile_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    try:
        _fill(url)
        yield url
    finally:
        create_engine(url).dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _fill(url: str) -> None:
    """Two learners study through the store; then the hostile values are written with plain SQL."""
    from sqlalchemy import create_engine, update

    from drill.content import load_content
    from drill.store import open_store
    from drill.store.tables import attempts_t, cards_t, code_attempts_t, users_t

    library = load_content()
    ids = list(library.cards)[:6]
    for user in ("alice", "mallory"):
        with open_store(url, user) as store:
            store.sync_content(library)
            for i, cid in enumerate(ids):
                store.grade(cid, 1 + i % 4, NOW - timedelta(days=3, minutes=i))
            store.record_quiz_attempt(NOW - timedelta(days=2), NOW - timedelta(days=2), {"quiz": "q"}, [])
            store.record_code_attempt(
                "softmax",
                "def softmax(x): ...\n",
                NOW - timedelta(days=1),
                seed=1,
                backend="numpy",
                passed=1,
                total=5,
                all_passed=False,
                mistakes=["softmax/no-max-subtraction"],
                results={},
                elapsed_ms=100,
                writing_ms=1000,
            )
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(update(users_t).where(users_t.c.name == "mallory").values(name=ESC_NAME))
        conn.execute(update(cards_t).where(cards_t.c.content_id == ids[0]).values(section=ESC_SECTION))
        conn.execute(update(attempts_t).values(settings={"quiz": ESC_QUIZ}, score=3, total=5))
        conn.execute(update(code_attempts_t).values(mistakes=[ESC_MISTAKE]))
    engine.dispose()


def _report(url: str, *args: str) -> str:
    cohort = [] if "csv" in args else ["--cohort"]  # (the CSV report refuses --cohort: one row per card)
    result = CliRunner().invoke(cli, ["report", "--db", url, "--user", "alice", *cohort, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_terminal_report_in_a_real_process(hostile_db):
    env = {**os.environ, "COLUMNS": "200", "TERM": "xterm-256color"}
    done = subprocess.run(
        [sys.executable, "-m", "drill", "report", "--db", hostile_db, "--user", "alice", "--cohort"],
        capture_output=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    out = done.stdout.decode("utf-8")
    assert forbidden(out) == []
    for planted in (ESC_NAME, ESC_QUIZ, ESC_MISTAKE):
        assert visible(planted) in out, planted


def test_markdown(hostile_db):
    md = _report(hostile_db, "--format", "md")
    assert forbidden(md) == []
    from drill.report.markdown import escape

    for planted in (ESC_NAME, ESC_SECTION, ESC_QUIZ, ESC_MISTAKE):
        assert escape(visible(planted)) in md, planted
    assert "mal␛\\]52;c;ZXZpbA==␇lory␛\\[2J␛\\[31m&lt;U\\+202E&gt;yrollam&lt;U\\+200B&gt;" in md


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.attrs: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.attrs += [v or "" for _, v in attrs]

    def handle_data(self, data):
        self.chunks.append(data)


def test_html(hostile_db):
    page = _report(hostile_db, "--format", "html")
    assert forbidden(page) == []
    parser = _Text()
    parser.feed(page)
    text = "".join(parser.chunks) + "".join(parser.attrs)
    assert forbidden(text) == []  # character references decoded: still none
    for planted in (ESC_NAME, ESC_SECTION, ESC_QUIZ, ESC_MISTAKE):
        assert visible(planted) in text, planted
    assert "&lt;U+202E&gt;" in page and "<U+202E>" not in page


def test_json(hostile_db):
    raw = _report(hostile_db, "--format", "json")
    assert forbidden(raw) == []
    doc = json.loads(raw)
    strings: list[str] = []

    def walk(value):
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(doc)
    decoded = "\n".join(strings)
    assert forbidden(decoded) == []  # not only escaped as \u001b: the decoded values hold none either
    names = {u["user"] for u in doc["cohort"]["users"]}
    assert names == {"alice", visible(ESC_NAME)}
    assert visible(ESC_SECTION) in {c["section"] for c in doc["cards"]}
    assert [q["quiz"] for q in doc["quizzes"]] == [visible(ESC_QUIZ)]
    assert [m["mistake"] for m in doc["coding"]["mistakes"]] == [visible(ESC_MISTAKE)]


def test_csv(hostile_db):
    text = _report(hostile_db, "--format", "csv")
    assert forbidden(text.replace("\r\n", "\n")) == []
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    sections = {r["section"] for r in rows}
    assert "'" + visible(ESC_SECTION) in sections
    for row in rows:
        for value in row.values():
            assert not re.match(r"[=+\-@\t\r]", value), value
