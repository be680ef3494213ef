"""Content packs (YAML) -> validated Card / Quiz / Check records; LaTeX -> Unicode text.

Importing this package is cheap: the loader (and PyYAML) is imported on first use of ``load_content``.
Never imports numpy, textual, rich or sqlalchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.content.loader import default_content_path, find_packs, load_content
    from drill.content.models import Card, Check, Library, Pack, Quiz

__all__ = ["Card", "Check", "Library", "Pack", "Quiz", "default_content_path", "find_packs", "load_content"]

_LOADER = {"load_content", "find_packs", "default_content_path"}


def __getattr__(name: str):
    if name in _LOADER:
        from drill.content import loader

        return getattr(loader, name)
    if name in {"Card", "Check", "Library", "Pack", "Quiz"}:
        from drill.content import models

        return getattr(models, name)
    raise AttributeError(f"module 'drill.content' has no attribute {name!r}")
