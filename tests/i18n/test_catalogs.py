"""The catalogs themselves: zh_CN complete and safe to format, en showing the source strings, the compiled
catalogs drill loads equal to the .po files they come from."""

from __future__ import annotations

import gettext
import string
from pathlib import Path

import pytest

import drill.i18n
from tests.i18n.pseudo import _hatch_build

build = _hatch_build()


def fields(text: str) -> set[str] | None:
    """The names of the str.format fields in ``text`` ({count}, {value!r}, {weights:,} -> count, value, ...);
    None when ``text`` is no str.format template at all (LaTeX such as ``$\\sqrt{d_{model}}$`` in a mistake's
    wording, which is shown as written, never formatted)."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in parsed if name}


def entries(catalog_name: str):
    return [m for m in build.read_po(build.po_path(catalog_name), locale=catalog_name) if m.id]


def test_every_template_message_has_a_chinese_translation():
    template = {m.id for m in build.read_po(build.TEMPLATE) if m.id}
    zh = {m.id: m for m in entries("zh_CN")}
    assert set(zh) == template, "run: python hatch_build.py update"
    untranslated = [
        m.id
        for m in zh.values()
        if m.fuzzy or not all(m.string if isinstance(m.string, tuple) else (m.string,))
    ]
    assert untranslated == []


def test_chinese_strings_format_with_the_english_fields():
    """A translation may leave a field out, never add one: .format() of the English arguments would fail."""
    for message in entries("zh_CN"):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        templates = [fields(i) for i in ids]
        if None in templates:  # not formatted: the translation need not be a template either
            continue
        allowed = set().union(*templates)
        for text in strings:
            found = fields(text)
            assert found is not None and found <= allowed, (message.id, text)


def test_the_english_catalog_shows_the_source_strings():
    drill.i18n.set_language("en")
    for message in entries("en"):
        if isinstance(message.id, tuple):
            assert drill.i18n.ngettext(*message.id, 1) == message.id[0]
            assert drill.i18n.ngettext(*message.id, 2) == message.id[1]
        else:
            assert drill.i18n._(message.id) == message.id


@pytest.mark.parametrize("catalog_name", build.CATALOGS)
def test_the_compiled_catalog_drill_loads_is_its_po_file(catalog_name, tmp_path):
    """The .mo beside drill.i18n (compiled by the build hook: in the wheel, or in place for an editable
    install) holds what the .po says now. After editing a .po in an editable checkout: python hatch_build.py
    compile."""
    installed = Path(drill.i18n.LOCALE_DIR) / catalog_name / "LC_MESSAGES" / "drill.mo"
    assert installed.is_file(), "the build hook did not compile the catalogs"
    fresh = dict(build.compile_catalogs(build.LOCALE, tmp_path))[catalog_name]
    with installed.open("rb") as a, fresh.open("rb") as b:
        assert gettext.GNUTranslations(a)._catalog == gettext.GNUTranslations(b)._catalog


def test_chinese_is_what_a_chinese_learner_gets():
    drill.i18n.set_language("zh")
    assert drill.i18n._("Usage:") == "用法:"
    assert drill.i18n.ngettext("{count} note written to {path}", "{count} notes written to {path}", 3) == (
        "{count} 条笔记已写入 {path}"
    )
    drill.i18n.set_language("en")
    assert drill.i18n._("Usage:") == "Usage:"


@pytest.mark.parametrize("catalog_name", build.CATALOGS)
def test_babel_checks_pass_on_every_message(catalog_name):
    """`pybabel compile` runs these checks and exits 1 on any: no message is skipped (a stray python-format
    flag on a str.format template, "{n}% if" read as "% i", was once waved through here)."""
    catalog = build.read_po(build.po_path(catalog_name), locale=catalog_name)
    assert [(message.id, errs) for message, errs in catalog.check()] == []
    assert [m.id for m in catalog if m.id and "python-format" in m.flags] == []


@pytest.mark.parametrize("catalog_name", build.CATALOGS)
def test_msgfmt_check_accepts_the_catalog(catalog_name, tmp_path):
    """GNU gettext's own validator (.ci/run installs gettext; skipped only where msgfmt is absent)."""
    import shutil
    import subprocess

    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt (GNU gettext) is not installed")
    done = subprocess.run(
        [msgfmt, "-c", "-o", str(tmp_path / "drill.mo"), str(build.po_path(catalog_name))],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
