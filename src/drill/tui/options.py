"""What a drill app is asked to do: the options every screen reads, set once by `make_app`.

Kept free of textual so the CLI can build it before deciding to import the UI.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drill.content.models import Library
    from drill.store.api import Store
    from drill.tui.models.custom_study import StudyFilter


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class AppOptions:
    """Options shared by every mode; mode-specific values (quiz seconds, calc inputs...) go in ``extra``."""

    content_path: str | None = None
    db_url: str | None = None
    user: str | None = None
    section: str | None = None
    new_limit: int | None = None
    limit: int | None = None
    # Custom study (several sections, tags, kinds; review ahead, forgotten, preview): None for today's schedule
    # (``section`` alone is the store's own queue, with the first card peeked before the store opens).
    study: StudyFilter | None = None
    # Injected for tests and snapshots: a fixed clock and a frozen session timer make screens deterministic.
    clock: Callable[[], datetime] = utc_now
    timer: Callable[[], float] = time.monotonic
    # Pre-built pieces (tests): a Library and an open Store skip the loading worker's own loading.
    library: Library | None = None
    store: Store | None = None
    extra: dict[str, Any] = field(default_factory=dict)
