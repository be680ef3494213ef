"""The values the database itself refuses: every CHECK constraint of the schema, declared once.

The models build their ``CheckConstraint``s from ``CHECKS`` (drill.store.models), the migration that adds them
(0012) creates the same ones, and before it alters anything it looks for rows that break them
(``first_violation``): a database holding a rating of 9 or a state ``'bogus'`` is refused with one line naming
the table, the row, the column and the value, and nothing is changed. The allowed values come from where
drill defines them (drill.srs's phases and grades, the flag colours in drill.store.types), not from copies.

No SQLAlchemy here: plain SQL conditions (the same text on SQLite and PostgreSQL), so the models, the
migration and the tests share them without importing a database layer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from drill.srs.state import GRADES, Phase
from drill.store.types import FLAGS

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy import Connection

PHASES: tuple[str, ...] = tuple(p.value for p in Phase)
RATINGS: tuple[int, ...] = tuple(int(g) for g in GRADES)
VALUE_SHOWN_MAX = 60  # characters of a bad value quoted in the refusal


@dataclass(frozen=True)
class Check:
    """``condition`` must hold (or be NULL, as SQL's CHECK has it) for every row of ``table``."""

    table: str
    name: str  # the constraint is ck_<table>_<name> (drill.store.models.NAMING)
    column: str
    condition: str
    allowed: str  # the allowed values, as the refusal states them
    key: tuple[str, ...] = ("id",)  # the columns naming a row in the refusal
    since: str = "0012"  # the revision that adds it

    @property
    def constraint_name(self) -> str:
        return f"ck_{self.table}_{self.name}"


def one_of(table: str, column: str, values: Iterable[Any], **kw: Any) -> Check:
    values = tuple(values)
    listed = ", ".join(_sql_literal(v) for v in values)
    shown = ", ".join(str(v) for v in values)
    return Check(table, column, column, f"{column} IN ({listed})", f"one of {shown}", **kw)


def at_least(table: str, column: str, low: int, **kw: Any) -> Check:
    return Check(table, column, column, f"{column} >= {low}", f"{low} or more", **kw)


def _sql_literal(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(f"a CHECK value must be an int or a str, not {value!r}")
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


_STATE_KEY = ("user_id", "card_id")

CHECKS: tuple[Check, ...] = (
    one_of("card_states", "state", PHASES, key=_STATE_KEY),
    at_least("card_states", "step", 0, key=_STATE_KEY),
    at_least("card_states", "reps", 0, key=_STATE_KEY),
    at_least("card_states", "lapses", 0, key=_STATE_KEY),
    at_least("card_states", "first_reviews", 0, key=_STATE_KEY),
    at_least("card_states", "first_passes", 0, key=_STATE_KEY),
    one_of("card_states", "flag", FLAGS, key=_STATE_KEY),
    one_of("review_logs", "rating", RATINGS),
    one_of("review_logs", "state_before", PHASES),
    one_of("review_logs", "state_after", PHASES),
    at_least("review_logs", "reps_before", 0),
    at_least("review_logs", "lapses_before", 0),
    one_of("interview_answers", "rating", RATINGS),
    one_of("interview_answers", "proposed", RATINGS),
)


def checks_of(table: str, since: str | None = None) -> list[Check]:
    return [c for c in CHECKS if c.table == table and (since is None or c.since == since)]


def first_violation(conn: Connection, checks: Iterable[Check]) -> str | None:
    """One line naming the first row (table, row key, column, value) that breaks one of ``checks``, with how
    many rows break it; None when every row keeps them. Reads only."""
    from sqlalchemy import text

    from drill.content import control

    for check in checks:
        where = f"NOT ({check.condition})"
        row = conn.execute(
            text(
                f"SELECT {', '.join(check.key)}, {check.column} FROM {check.table} WHERE {where} "
                f"ORDER BY {', '.join(check.key)} LIMIT 1"
            )
        ).first()
        if row is None:
            continue
        count = conn.execute(text(f"SELECT count(*) FROM {check.table} WHERE {where}")).scalar_one()
        ident = ", ".join(f"{name} {value}" for name, value in zip(check.key, row[:-1], strict=True))
        value = row[-1]
        shown = repr(value) if isinstance(value, str) else str(value)
        if len(shown) > VALUE_SHOWN_MAX:
            shown = shown[:VALUE_SHOWN_MAX] + "…"
        shown = control.visible(shown).replace("\n", "␊").replace("\t", "␉")
        more = f" (and {count - 1} more row{'s' if count > 2 else ''} like it)" if count > 1 else ""
        return (
            f"{check.table} row {ident}: {check.column} is {shown}, which drill never writes "
            f"(allowed: {check.allowed}){more}"
        )
    return None
