"""A start-up reads the content cache in two steps (drill.content.cache.first_load): the packs and each card's
pack, id and section, then only the card it shows; every other record goes through the same rules before the
session uses it (PartialLibrary.complete). A tampered record is refused either way, and the YAML is loaded."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from drill.content import load_content
from drill.content import loader as content_loader
from drill.content.cache import PartialLibrary, first_load
from drill.content.loader import engine_catalog, find_packs
from drill.errors import ContentError
from drill.tui.models.study import load_library, open_study_session, peek_first_card
from drill.tui.options import AppOptions
from tests.content.test_content_cache import TAMPERINGS, _tamper, cache_files

NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


def first_load_of(pack_dir) -> PartialLibrary | None:
    return first_load(find_packs(pack_dir), engine_catalog())


def options_for(pack_dir) -> AppOptions:
    return AppOptions(content_path=str(pack_dir), user="tester", clock=lambda: NOW)


def yaml_loads(monkeypatch) -> list[bool]:
    """Records each time the YAML is parsed."""
    parsed: list[bool] = []
    original_build = content_loader._Builder.build

    def build(self, pack_dirs):
        parsed.append(True)
        return original_build(self, pack_dirs)

    monkeypatch.setattr(content_loader._Builder, "build", build)
    return parsed


def test_first_load_reads_packs_and_keys_then_only_the_cards_taken(pack):
    full = load_content(pack)
    partial = first_load_of(pack)
    assert partial is not None
    assert partial.packs == full.packs and partial.cards == {}
    assert partial.card_keys == [(c.pack, c.id, c.section) for c in full.cards.values()]
    assert partial.take("q03") == full.cards["q03"]
    assert list(partial.cards) == ["q03"]
    assert partial.take("no-such-card") is None
    assert partial.complete() == full
    (entry,) = cache_files()
    entry.unlink()
    assert first_load_of(pack) is None  # no entry for these files


@pytest.mark.parametrize("edit", TAMPERINGS)
def test_a_tampered_entry_is_refused_on_the_partial_route_too(pack, edit):
    full = load_content(pack)
    (entry,) = cache_files()
    _tamper(entry, edit)
    partial = first_load_of(pack)
    if partial is None:
        return  # refused at once: the packs or a card's pack, id or section
    taken = {card_id: partial.take(card_id) for _pack, card_id, _section in partial.card_keys}
    assert all(card is None or card == full.cards[card_id] for card_id, card in taken.items())
    assert partial.complete() is None  # the other records are refused before anything studies them


def test_corrupt_or_stale_entries_give_no_partial_load(pack):
    load_content(pack)
    (entry,) = cache_files()
    data = json.loads(entry.read_text(encoding="utf-8"))
    for bad in ("[1, 2]", '{"format": 6, "key": "x"', json.dumps(dict(data, format=1))):
        entry.write_text(bad, encoding="utf-8")
        assert first_load_of(pack) is None


def test_a_tampered_card_after_the_first_never_reaches_the_session(pack, monkeypatch):
    full = load_content(pack)
    (entry,) = cache_files()
    _tamper(entry, lambda d: d["cards"][2].update(answer="\x1b]0;pwned\x07"))
    options = options_for(pack)
    partial = load_library(options, cached_only=True)
    assert isinstance(partial, PartialLibrary)
    first = peek_first_card(partial, options)  # no database yet: the content's first new card
    assert first == full.cards["q01"]
    parsed = yaml_loads(monkeypatch)
    session = open_study_session(options, partial)
    try:
        assert parsed == [True]  # the rest was refused, so the session's content is the YAML's
        assert session.library == full
        assert "\x1b" not in session.library.cards["s7.5-qk-dim"].answer
    finally:
        session.close()
        session.store.close()


def test_a_tampered_first_card_is_not_shown_from_the_cache(pack):
    full = load_content(pack)
    (entry,) = cache_files()
    _tamper(entry, lambda d: d["cards"][0].update(question="\u009b31m"))
    options = options_for(pack)
    partial = load_library(options, cached_only=True)
    assert isinstance(partial, PartialLibrary)
    assert peek_first_card(partial, options) is None  # the session's store chooses, from the YAML
    assert "q01" not in partial.cards and full.cards["q01"].question != "\u009b31m"


def test_an_untampered_partial_load_is_completed_without_the_yaml(pack, monkeypatch):
    full = load_content(pack)
    options = options_for(pack)
    partial = load_library(options, cached_only=True)
    assert isinstance(partial, PartialLibrary)
    assert peek_first_card(partial, options) == full.cards["q01"]
    parsed = yaml_loads(monkeypatch)
    session = open_study_session(options, partial)
    try:
        assert parsed == [] and session.library == full
        assert not isinstance(session.library, PartialLibrary)
    finally:
        session.close()
        session.store.close()


def test_a_section_or_custom_study_reads_every_record_first(pack):
    load_content(pack)
    options = options_for(pack)
    options.section = "7.9"
    library = load_library(options, cached_only=True)
    assert library is not None and not isinstance(library, PartialLibrary)
    options.section = "9.99"
    with pytest.raises(Exception, match=r"--section 9\.99: no cards in that section"):
        load_library(options, cached_only=True)


def test_a_bad_edit_after_a_cached_start_is_reported_with_its_file_and_line(pack):
    load_content(pack)
    q = pack / "questions.yaml"
    q.write_text(
        q.read_text(encoding="utf-8").replace("question: 为什么除 √d_k？", "question: ''"), encoding="utf-8"
    )
    options = options_for(pack)
    assert load_library(options, cached_only=True) is None  # the entry is stale: the worker loads the YAML
    with pytest.raises(ContentError, match=r"questions\.yaml:\d+: cards\[1\]\.question: must not be empty"):
        load_library(options)


async def test_the_study_screen_shows_the_cached_first_card_then_studies_the_yaml(pack, monkeypatch):
    """The screen end to end: its first question comes from the partial read, and the session it then opens
    holds the YAML's content, the tampered record refused."""
    from drill.tui.app import make_app
    from drill.tui.widgets.card_view import CardView
    from tests.tui.conftest import frozen_clock, frozen_timer, wait_until

    full = load_content(pack)
    (entry,) = cache_files()
    _tamper(entry, lambda d: d["cards"][1].update(tags=["ok", "\x00"]))
    parsed = yaml_loads(monkeypatch)
    app = make_app(
        "study",
        content_path=str(pack),
        user="tester",
        clock=frozen_clock,
        timer=frozen_timer,
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen is not None and screen.card is not None)
        assert screen.card == full.cards["q01"]
        await wait_until(pilot, lambda: app.error is not None or screen.session is not None)
        assert app.error is None, app.error
        assert parsed == [True] and screen.session.library == full
        assert screen.card.id == "q01" and screen.query_one(CardView).card is screen.card
        await app.workers.wait_for_complete()
        await pilot.press("q")


@pytest.fixture
def chapter_copy(tmp_path):
    """A copy of the shipped chapter whose first erratum's note is its own (the shipped entry does not hold it)."""
    import shutil

    from drill.content import default_content_path

    copy = tmp_path / "chapter"
    shutil.copytree(default_content_path(), copy)
    errata = copy / "errata.yaml"
    text = errata.read_text(encoding="utf-8")
    assert "  note: " in text
    errata.write_text(text.replace("  note: ", "  note: THIS COPY'S NOTE ", 1), encoding="utf-8")
    return copy


def own_note_active() -> bool:
    from drill.content.errata import active_errata

    return any(erratum.note.startswith("THIS COPY'S NOTE") for erratum in active_errata())


def test_a_cached_pack_corrects_its_cards_with_its_own_errata(chapter_copy, monkeypatch):
    """A later start of `drill study --content PACK` (its cache entry: partial, or whole with --section) has
    that pack's errata in use, from the first card shown to the session: not the shipped chapter's, which
    the errata module loads when none were registered."""
    from drill.content import errata
    from drill.content.errata import set_errata

    monkeypatch.setattr(errata, "_active", errata._active)  # the errata in use before, back after the test
    monkeypatch.setattr(errata, "_checks", dict(errata._checks))
    load_content(chapter_copy)  # builds and caches the copy
    options = options_for(chapter_copy)
    for section in (None, "7.3"):
        set_errata(())  # none in use, as in a new process
        assert not own_note_active()
        options.section = section
        library = load_library(options, cached_only=True)
        assert isinstance(library, PartialLibrary) == (section is None)
        assert own_note_active()
    options.section = None
    partial = load_library(options, cached_only=True)
    set_errata(())
    session = open_study_session(options, partial)
    try:
        assert not isinstance(session.library, PartialLibrary)
        assert own_note_active()
    finally:
        session.close()
        session.store.close()
