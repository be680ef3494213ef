"""`drill code` attempts in the store: every run (code, seed, outcome, time), the history, the last attempt, and
when the reference solution was shown (only after a pass, or when asked for — recorded before it is shown)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import case, func, insert, select

from drill.store.tables import code_attempts_t, solution_views_t
from drill.store.times import as_utc, aware

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store

PASSED = "passed"
ASKED = "asked"


@dataclass(frozen=True)
class CodeAttemptRecord:
    id: int
    task: str
    ran_at: datetime
    code: str
    seed: int
    backend: str
    passed: int
    total: int
    all_passed: bool
    mistakes: tuple[str, ...]
    results: dict
    elapsed_ms: int
    writing_ms: int | None


@dataclass(frozen=True)
class CodeTaskStatus:
    task: str
    attempts: int
    passed_ever: bool
    last_ran_at: datetime | None
    last_all_passed: bool | None
    solution_seen: bool


def record_attempt(
    store: Store,
    task: str,
    code: str,
    ran_at: datetime,
    *,
    seed: int,
    backend: str,
    passed: int,
    total: int,
    all_passed: bool,
    mistakes,
    results: dict,
    elapsed_ms: int,
    writing_ms: int | None = None,
) -> int:
    ran_at = aware(ran_at, "ran_at")
    with store.transaction(write=True) as conn:
        return conn.execute(
            insert(code_attempts_t)
            .values(
                user_id=store.user_id,
                task=task,
                ran_at=ran_at,
                code=code,
                seed=int(seed),
                backend=backend,
                passed=int(passed),
                total=int(total),
                all_passed=bool(all_passed),
                mistakes=list(mistakes),
                results=dict(results),
                elapsed_ms=int(elapsed_ms),
                writing_ms=None if writing_ms is None else int(writing_ms),
            )
            .returning(code_attempts_t.c.id)
        ).scalar_one()


def _record(row) -> CodeAttemptRecord:
    return CodeAttemptRecord(
        id=row.id,
        task=row.task,
        ran_at=row.ran_at,
        code=row.code,
        seed=row.seed,
        backend=row.backend,
        passed=row.passed,
        total=row.total,
        all_passed=bool(row.all_passed),
        mistakes=tuple(row.mistakes or ()),
        results=row.results or {},
        elapsed_ms=row.elapsed_ms,
        writing_ms=row.writing_ms,
    )


def attempts(store: Store, task: str | None = None, limit: int | None = None) -> list[CodeAttemptRecord]:
    """The user's attempts, newest first (of one task, or all)."""
    t = code_attempts_t
    query = select(t).where(t.c.user_id == store.user_id).order_by(t.c.ran_at.desc(), t.c.id.desc())
    if task is not None:
        query = query.where(t.c.task == task)
    if limit is not None:
        query = query.limit(limit)
    with store.transaction() as conn:
        return [_record(row) for row in conn.execute(query)]


def last_attempt(store: Store, task: str) -> CodeAttemptRecord | None:
    found = attempts(store, task, limit=1)
    return found[0] if found else None


def record_solution_view(store: Store, task: str, now: datetime, reason: str) -> None:
    if reason not in (PASSED, ASKED):
        raise ValueError(f"reason must be {PASSED!r} or {ASKED!r}, got {reason!r}")
    with store.transaction(write=True) as conn:
        conn.execute(
            insert(solution_views_t).values(
                user_id=store.user_id, task=task, shown_at=aware(now), reason=reason
            )
        )


def may_show_solution(store: Store, task: str) -> bool:
    """True once the task has been passed, or the solution was asked for (and that was recorded)."""
    t, v = code_attempts_t, solution_views_t
    with store.transaction() as conn:
        passed = conn.execute(
            select(func.count()).where(
                t.c.user_id == store.user_id, t.c.task == task, t.c.all_passed.is_(True)
            )
        ).scalar_one()
        asked = conn.execute(
            select(func.count()).where(v.c.user_id == store.user_id, v.c.task == task)
        ).scalar_one()
    return bool(passed or asked)


def status(store: Store) -> dict[str, CodeTaskStatus]:
    """Per task the user has touched: attempts, passed ever, the last run, whether the solution was shown."""
    t, v = code_attempts_t, solution_views_t
    out: dict[str, CodeTaskStatus] = {}
    with store.transaction() as conn:
        rows = conn.execute(
            select(t.c.task, func.count(), func.max(t.c.ran_at), func.sum(case((t.c.all_passed, 1), else_=0)))
            .where(t.c.user_id == store.user_id)
            .group_by(t.c.task)
        ).all()
        last = {}
        for task, all_passed in conn.execute(
            select(t.c.task, t.c.all_passed).where(t.c.user_id == store.user_id).order_by(t.c.ran_at, t.c.id)
        ):
            last[task] = bool(all_passed)  # the newest run of each task wins
        seen = {r[0] for r in conn.execute(select(v.c.task).where(v.c.user_id == store.user_id).distinct())}
    for task, n, last_at, passes in rows:
        out[task] = CodeTaskStatus(task, n, bool(passes), as_utc(last_at), last.get(task), task in seen)
    for task in seen - set(out):
        out[task] = CodeTaskStatus(task, 0, False, None, None, True)
    return out
