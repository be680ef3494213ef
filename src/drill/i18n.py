"""drill's own words in the learner's language: standard gettext catalogs (domain ``drill``).

Every string drill itself shows goes through ``_()`` (or ``ngettext()``); strings defined at import time (class
attributes, module constants, BINDINGS descriptions) are marked with ``N_()`` and translated where they are shown.
Content (the chapter's text) never goes through here.

Catalogs live in ``drill/locale/<lang>/LC_MESSAGES/drill.mo``, compiled from the ``.po`` files beside them when
the wheel (or an editable install) is built (``hatch_build.py``). The language is chosen once per process by
``set_language()``: the CLI calls it with ``startup_language()`` -- ``--lang``, else the ``ui.language`` setting,
else the locale environment. Until then, and for a language with no catalog, the English source strings are
shown.

This module stays importable without click, textual, rich, numpy or sqlalchemy (the cores use it).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import gettext

DOMAIN = "drill"
# A str, not a Path: `drill --help` reads the language from here without importing pathlib or gettext.
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")
LANGUAGES = ("en", "zh")  # what `--lang` and `ui.language` accept

_translation: gettext.NullTranslations | None = None  # None: English, the source strings
_language = "en"


def _(message: str) -> str:
    """``message`` in the current UI language (a `Deferred` message: its msgid, translated, then formatted)."""
    if isinstance(message, Deferred):
        return message.translated()
    return message if _translation is None else _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    if _translation is None:
        return singular if n == 1 else plural
    return _translation.ngettext(singular, plural, n)


def N_(message: str, /, **fields: object) -> str:
    """Mark ``message`` for extraction without translating it now (translate with ``_()`` where shown).

    With ``fields`` the result is a `Deferred`: the English text formatted now, which ``_()`` translates and
    formats again where it is shown -- for text built before the language is known (an engine step's note)."""
    return Deferred(message, fields) if fields else message


class Deferred(str):
    """English text formatted from a marked message and its fields; ``_()`` shows it in the UI language.

    It is a ``str`` (the English text), so whatever stores or serialises it (``drill calc --json``) keeps the
    English; only ``_()`` looks at ``msgid`` and ``fields``. A field that is itself a `Deferred` is translated
    too; a tuple field is a list of items, each translated, joined by the language's list separator."""

    msgid: str
    fields: dict[str, object]

    def __new__(cls, msgid: str, fields: dict[str, object]) -> Deferred:
        english = (
            msgid.format(**{name: _shown(value, _english) for name, value in fields.items()})
            if fields
            else msgid
        )
        self = super().__new__(cls, english)
        self.msgid = str(msgid)
        self.fields = dict(fields)
        return self

    def __reduce__(self):  # pickle / deepcopy: rebuilt from the message, not from the English text
        return (Deferred, (self.msgid, self.fields))

    def translated(self) -> str:
        if _translation is None:
            return str.__str__(self)
        message = _translation.gettext(self.msgid)
        if not self.fields:
            return message
        return message.format(**{name: _shown(value, _) for name, value in self.fields.items()})


def deferred(message: str) -> str:
    """A message marked with ``N_()`` kept as a `Deferred`, so that as a field of another deferred message it is
    translated with it: ``N_("{kind}, causal", kind=deferred(N_("Self-attention")))``."""
    return message if isinstance(message, Deferred) else Deferred(message, {})


def _english(message: str) -> str:
    return str.__str__(message)


def _shown(value: object, show) -> object:
    """A field as shown: a tuple is a list joined by the list separator, a `Deferred` goes through ``show``."""
    if isinstance(value, tuple):
        separator = ", " if show is _english else _(LIST_SEPARATOR)
        return separator.join(str(show(item)) if isinstance(item, Deferred) else str(item) for item in value)
    return show(value) if isinstance(value, Deferred) else value


# TRANSLATORS: between the items of a list inside a sentence ("query 1, query 3")
LIST_SEPARATOR = N_(", ")


def current_language() -> str:
    return _language


def language_from_environment(environ: dict[str, str] | None = None) -> str:
    """``zh`` when the POSIX locale variables (LC_ALL, then LC_MESSAGES, then LANG) name Chinese, else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def language_from_args(args: list[str]) -> str | None:
    """The value of the global ``--lang`` option in a ``drill`` command line (before the subcommand), if valid."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--lang" and index + 1 < len(args):
            value = args[index + 1]
            return value if value in LANGUAGES else None
        if arg.startswith("--lang="):
            value = arg.partition("=")[2]
            return value if value in LANGUAGES else None
        if not arg.startswith("-"):
            return None  # the subcommand: `--lang` is an option of the group only
        index += 1
    return None


LANGUAGE_KEY = "ui.language"  # the setting, as `drill config set ui.language zh` names it


def language_in_config(data: dict) -> object:
    """The raw ``ui.language`` value in a parsed config file: ``[ui] language = ...``, ``ui.language = ...``
    (the same table in TOML) or a quoted ``"ui.language" = ...`` key. None when absent."""
    table = data.get("ui")
    if isinstance(table, dict) and "language" in table:
        return table["language"]
    return data.get(LANGUAGE_KEY)


def configured_language() -> str | None:
    """The ``ui.language`` setting in the user's config file, or None (absent, unreadable or invalid: the
    command that reads the config properly reports a broken file; choosing a language never fails)."""
    from drill.paths import config_file

    try:
        raw = config_file().read_bytes()
    except OSError:
        return None
    if b"language" not in raw:
        return None
    import tomllib

    try:
        value = language_in_config(tomllib.loads(raw.decode("utf-8")))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return value if value in LANGUAGES else None


def startup_language(args: list[str], environ: dict[str, str] | None = None) -> str:
    """The UI language for a ``drill`` command line: ``--lang``, else ``ui.language``, else the locale."""
    return language_from_args(args) or configured_language() or language_from_environment(environ)


def catalog_name(language: str) -> str:
    """The gettext catalog folder for a UI language (``zh`` -> ``zh_CN``)."""
    return {"zh": "zh_CN"}.get(language, language)


def set_language(language: str) -> None:
    """Use ``language`` (``en``, ``zh``, or a catalog name such as a pseudo-locale) from now on."""
    import gettext

    global _translation, _language
    _language = language
    _translation = gettext.translation(
        DOMAIN, localedir=str(LOCALE_DIR), languages=[catalog_name(language)], fallback=True
    )


def text_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide and full-width characters (Chinese) take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` terminal columns (str.ljust counts characters, not columns)."""
    return text + " " * max(0, width - text_width(text))
