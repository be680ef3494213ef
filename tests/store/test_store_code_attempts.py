"""`drill code` attempts in the store (SQLite and PostgreSQL): saved with their code and outcome, newest first,
per user; the solution may be shown only after a pass or a recorded request."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.store.store_support import open_test_store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def outcome(passed, total=5, mistakes=(), seed=7):
    return dict(
        seed=seed,
        backend="numpy",
        passed=passed,
        total=total,
        all_passed=passed == total,
        mistakes=list(mistakes),
        results={"load": "ok", "cases": []},
        elapsed_ms=420,
    )


def test_attempts_history_last_and_status(db_url):
    with open_test_store(db_url, "alice") as store:
        store.record_code_attempt(
            "softmax", "def softmax(x):\n    return x\n", T0, **outcome(2, mistakes=["softmax/sigmoid"])
        )
        store.record_code_attempt(
            "softmax", "def softmax(x): ...\n", T0 + timedelta(minutes=5), writing_ms=300_000, **outcome(5)
        )
        store.record_code_attempt(
            "attention", "x = '中文 ✓'\n", T0 + timedelta(minutes=9), **outcome(0, total=16)
        )
        history = store.code_attempts("softmax")
        assert [a.passed for a in history] == [5, 2]
        assert history[1].mistakes == ("softmax/sigmoid",) and history[0].writing_ms == 300_000
        assert history[0].ran_at == T0 + timedelta(minutes=5) and history[0].ran_at.tzinfo is not None
        assert store.last_code_attempt("attention").code == "x = '中文 ✓'\n"
        assert store.last_code_attempt("rope") is None
        status = store.code_status()
        assert (
            status["softmax"].attempts == 2
            and status["softmax"].passed_ever
            and status["softmax"].last_all_passed
        )
        assert status["attention"].attempts == 1 and not status["attention"].passed_ever
    with open_test_store(db_url, "bob") as other:
        assert other.code_attempts() == [] and other.code_status() == {}


def test_solution_only_after_a_pass_or_a_recorded_request(db_url):
    with open_test_store(db_url, "alice") as store:
        store.record_code_attempt("rope", "pass\n", T0, **outcome(1))
        assert not store.may_show_solution("rope")
        store.record_solution_view("rope", T0, "asked")
        assert store.may_show_solution("rope") and store.code_status()["rope"].solution_seen
        assert not store.may_show_solution("ffn")
        store.record_code_attempt("ffn", "pass\n", T0, **outcome(5))
        assert store.may_show_solution("ffn")
        with pytest.raises(ValueError):
            store.record_solution_view("ffn", T0, "peeked")


def test_naive_times_are_refused(db_url):
    with open_test_store(db_url, "alice") as store, pytest.raises(ValueError):
        store.record_code_attempt("softmax", "", datetime(2026, 1, 1), **outcome(1))
