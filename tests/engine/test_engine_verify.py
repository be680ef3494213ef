"""verify_checks: the chapter's printed numbers against the engine, at the printed precision."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from drill.content.models import Check
from drill.engine.catalog import EXAMPLE_STEPS
from drill.engine.verify import ERRATUM, MISMATCH, OK, tolerance, verify_checks


def as_check(fields: dict) -> Check:
    """A checks.yaml entry as the content layer's Check record."""
    return Check(pack="test", **{**fields, "index": tuple(fields.get("index") or ())})


def check(**kw) -> Check:
    base = dict(
        id="c", section="7.12", example="worked", step="softmax", index=[0, 0], claimed=0.198, decimals=3
    )
    base.update(kw)
    return as_check(base)


def test_every_shipped_check_is_consistent(chapter_checks):
    results = verify_checks([as_check(c) for c in chapter_checks])
    bad = [r.message for r in results if r.status == MISMATCH]
    assert not bad, bad
    assert len(results) == len(chapter_checks) > 250


def test_shipped_checks_name_real_steps_and_unique_ids(chapter_checks):
    ids = [c["id"] for c in chapter_checks]
    assert len(ids) == len(set(ids))
    for c in chapter_checks:
        assert c["step"] in EXAMPLE_STEPS[c["example"]], c["id"]


def test_the_7_12_example_is_covered_at_every_step(chapter_checks):
    steps = {(c["example"], c["step"]) for c in chapter_checks if c["section"] == "7.12"}
    for step in ("project_q", "project_k", "project_v", "scores", "scale", "softmax", "weighted_sum"):
        assert ("worked", step) in steps
    assert ("softmax", "exp") in steps and ("softmax", "row_sum") in steps


def test_tolerance_is_half_a_unit_in_the_last_printed_place():
    assert tolerance(3) == pytest.approx(0.0005, abs=1e-8)
    ok = verify_checks([check(claimed=0.198)])[0]
    assert ok.status == OK and ok.value == pytest.approx(0.197776, abs=1e-6)
    # 0.1977 printed with 4 decimals: |0.197776 - 0.1977| = 7.6e-5 > 5e-5
    assert verify_checks([check(claimed=0.1977, decimals=4)])[0].status == MISMATCH
    assert verify_checks([check(claimed=0.2, decimals=1)])[0].status == OK


def test_erratum_confirmed_and_stale_erratum():
    wrong = verify_checks([check(index=[1, 2], claimed=0.504, erratum="rounded to make the row sum to 1")])[0]
    assert wrong.status == ERRATUM and wrong.ok
    assert "0.504" in wrong.message and "0.503490" in wrong.message
    stale = verify_checks([check(claimed=0.198, erratum="not really wrong")])[0]
    assert stale.status == MISMATCH and "remove the erratum" in stale.message


def test_unrecorded_error_is_a_mismatch():
    r = verify_checks([check(index=[1, 2], claimed=0.504)])[0]
    assert r.status == MISMATCH and not r.ok


@pytest.mark.parametrize(
    "kw,fragment",
    [
        (dict(example="nope"), "unknown example"),
        (dict(step="nope"), "no step 'nope'"),
        (dict(index=[5, 0]), "not valid"),
        (dict(index=[0]), "not valid"),
        (dict(index=[0, -4]), "not valid"),
    ],
)
def test_bad_references_are_mismatches_not_crashes(kw, fragment):
    r = verify_checks([check(**kw)])[0]
    assert r.status == MISMATCH and fragment in r.message and r.value is None


def test_accepts_objects_with_the_fields():
    @dataclass(frozen=True)
    class Obj:
        id: str = "o"
        section: str = "7.20"
        example: str = "layernorm"
        step: str = "std"
        index: tuple = ()
        claimed: float = 1.118
        decimals: int = 3
        card: str | None = "q32"
        erratum: str | None = None

    obj = Obj()
    r = verify_checks([obj])[0]
    assert r.status == OK and r.check is obj and round(r.value, 3) == 1.118


def test_accepts_the_content_layers_check_records():
    content = pytest.importorskip("drill.content")
    library = content.load_content()
    results = verify_checks(library.checks)
    assert results and all(r.ok for r in results), [r.message for r in results if not r.ok]
    assert [r.check for r in results] == list(library.checks)  # each result holds its own check
