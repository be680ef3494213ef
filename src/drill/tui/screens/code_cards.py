"""The code tasks as cards: which card a task is, putting the task cards in the store, and the grade a run
proposes (the learner confirms or changes it; FSRS schedules the card like any other)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.tui.options import AppOptions

__all__ = ["propose_grade", "sync_code_cards"]


def propose_grade(verdict_passed: bool, failed_runs_before: int, seconds: float, budget_s: int) -> int:
    """The grade a run proposes: Again on a failure; Easy on a first try within the budget; Hard after
    failed runs; else Good (the learner confirms or changes it)."""
    if not verdict_passed:
        return 1
    if failed_runs_before == 0 and seconds <= budget_s:
        return 4
    if failed_runs_before > 0:
        return 2
    return 3


def sync_code_cards(store, options: AppOptions) -> None:
    """Put the task cards in the store: the content's own code cards (the main deck, kind ``code``) when it has
    them, so `drill code TASK` and `drill study` schedule one card (syncing them carries over what was learnt
    under the old pack, drill.store.code_carry); else a pack of their own (``CODE_PACK``)."""
    from drill.engine.codetasks import TASKS
    from drill.store.code_carry import (  # sqlalchemy: never on the screen's import path
        CODE_PACK,
        code_card_id,
    )
    from drill.tui.models.study import load_library

    library = load_library(options)
    if library is not None and any(card.kind == "code" for card in library.cards.values()):
        store.sync_content(library)
        return
    store.sync_content([(CODE_PACK, code_card_id(t.name), t.section) for t in TASKS.values()])
