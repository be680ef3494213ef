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
    """``message`` in the current UI language."""
    return message if _translation is None else _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    if _translation is None:
        return singular if n == 1 else plural
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (translate with ``_()`` where shown)."""
    return message


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
