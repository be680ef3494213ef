"""drill's own words in the learner's language: standard gettext catalogs (domain ``drill``).

Every string drill itself shows goes through ``_()`` (or ``ngettext()``); strings defined at import time (class
attributes, module constants, BINDINGS descriptions) are marked with ``N_()`` and translated where they are shown.
Content (the chapter's text) never goes through here.

Catalogs live in ``drill/locale/<lang>/LC_MESSAGES/drill.mo``. The language is chosen once per process by
``set_language()`` (the CLI calls it from ``--lang``, the ``ui.language`` setting, else the locale environment);
until then, and for a language with no catalog, the English source strings are shown.
"""

from __future__ import annotations

import gettext as _gettext
import os
from pathlib import Path

DOMAIN = "drill"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "zh")  # what `--lang` and `ui.language` accept

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def _(message: str) -> str:
    """``message`` in the current UI language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
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


def catalog_name(language: str) -> str:
    """The gettext catalog folder for a UI language (``zh`` -> ``zh_CN``)."""
    return {"zh": "zh_CN"}.get(language, language)


def set_language(language: str) -> None:
    """Use ``language`` (``en``, ``zh``, or a catalog name such as a pseudo-locale) from now on."""
    global _translation, _language
    _language = language
    _translation = _gettext.translation(
        DOMAIN, localedir=LOCALE_DIR, languages=[catalog_name(language)], fallback=True
    )
