"""The cohort view (``drill report --cohort``): every user of a shared database ranked by mastery, and the
questions the cohort fails most, over the report's cards (its --section) and days (its --since)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from drill.content.sections import section_key
from drill.report.card_table import CardTable
from drill.report.data import MASTERED_STABILITY_DAYS, Cohort, CohortUser, QuestionFailure, RetentionFigure
from drill.report.queries import Queries


@dataclass(frozen=True, slots=True)
class _ScopeCard:
    content_id: str
    section: str
    retired: bool


def cohort(
    queries: Queries,
    scope: CardTable,
    card_ids: list[int] | None,
    since_day: int | None,
    questions: dict[str, str],
) -> Cohort:
    """The cohort over ``scope`` (``card_ids``: its database ids when a section narrowed it, else None) and
    the log from study day ``since_day`` on; ``questions`` maps a card's content id to its question."""
    users = queries.users()
    # db id -> (content id, section, retired) of the cards in scope
    in_scope = {
        db_id: _ScopeCard(cid, scope.sections[code], retired)
        for db_id, cid, code, retired in zip(
            scope.db_id.tolist(),
            scope.content_id.tolist(),
            scope.section_code.tolist(),
            scope.retired.tolist(),
            strict=True,
        )
    }
    active_cards = int(len(scope) - scope.retired.sum())

    seen: dict[int, int] = defaultdict(int)
    mastered: dict[int, int] = defaultdict(int)
    for uid, cid, state, stability, suspended in queries.card_states(card_ids):
        card = in_scope.get(cid)
        if card is None or (state or "new") == "new":
            continue
        seen[uid] += 1
        if (
            not card.retired
            and not suspended
            and state == "review"
            and (stability or 0) >= MASTERED_STABILITY_DAYS
        ):
            mastered[uid] += 1

    per_user_card = queries.first_of_day_by_user_card(queries.log_filter(list(users), card_ids, since_day))
    reviews: dict[int, int] = defaultdict(int)
    user_ret: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    card_ret: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])  # users, firsts, fails
    for uid, cid, n, firsts, passes in per_user_card:
        reviews[uid] += n
        user_ret[uid][0] += firsts
        user_ret[uid][1] += passes
        card_ret[cid][0] += 1
        card_ret[cid][1] += firsts
        card_ret[cid][2] += firsts - passes

    ranked = sorted(
        users,
        key=lambda uid: (
            -(mastered[uid] / active_cards if active_cards else 0),
            -seen[uid],
            -reviews[uid],
            users[uid],
        ),
    )
    cohort_users = [
        CohortUser(
            rank=i + 1,
            user=users[uid],
            cards_seen=seen[uid],
            mastered=mastered[uid],
            reviews=reviews[uid],
            retention=RetentionFigure.of(*user_ret[uid]).rate if uid in user_ret else None,
            progress=(mastered[uid] / active_cards) if active_cards else 0.0,
        )
        for i, uid in enumerate(ranked)
    ]
    failures = []
    for cid, (n_users, firsts, fails) in card_ret.items():
        card = in_scope.get(cid)
        if card is None:
            continue
        failures.append(
            QuestionFailure(
                card=card.content_id,
                section=card.section,
                question=questions.get(card.content_id, ""),
                users=n_users,
                reviews=firsts,
                failures=fails,
                failure_rate=(fails / firsts) if firsts else None,
            )
        )
    failures.sort(key=lambda q: (-(q.failure_rate or 0), -q.failures, section_key(q.section), q.card))
    return Cohort(users=cohort_users, questions=failures)
