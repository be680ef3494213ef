"""The shipped content's entry, validated when drill is built (hatch_build.py -> drill.content.cache.SHIPPED):
a first-ever start reads it instead of the YAML, but only when the pack files are byte for byte the ones it was
built from, and only through the same field rules as any cache entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from drill.content import cache as content_cache
from drill.content import load_content
from drill.content.cache import PartialLibrary, first_load, write_shipped
from drill.content.loader import engine_catalog, find_packs
from drill.errors import ContentError
from drill.tui.models.study import load_library
from drill.tui.options import AppOptions
from tests.content.test_content_cache import TAMPERINGS, _tamper, cache_files
from tests.content.test_content_cache_partial import yaml_loads

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def shipped(pack, tmp_path, monkeypatch) -> Path:
    """The mini pack's shipped entry, built as hatch_build.py builds drill's, where drill looks for it."""
    target = write_shipped(
        tmp_path / "shipped" / "shipped-content.json",
        find_packs(pack),
        engine_catalog(),
        load_content(pack, cache=False),
    )
    monkeypatch.setattr(content_cache, "SHIPPED", target)
    return target


def test_a_first_start_reads_the_shipped_entry_not_the_yaml(pack, shipped, monkeypatch):
    expected = load_content(pack, cache=False)
    parsed = yaml_loads(monkeypatch)
    assert load_content(pack) == expected
    assert parsed == [] and cache_files() == []  # nothing parsed, no user cache needed
    assert "shipped-content" not in str(expected.packs[0].path)


def test_the_shipped_entry_serves_the_same_files_wherever_they_are(pack, shipped, tmp_path, monkeypatch):
    moved = tmp_path / "elsewhere" / "mini"
    shutil.copytree(pack, moved)
    expected = load_content(moved, cache=False)
    parsed = yaml_loads(monkeypatch)
    library = load_content(moved)
    assert parsed == [] and library == expected
    assert library.packs[0].path == moved  # a pack gets the directory it is loaded from


def test_an_edited_file_is_parsed_and_a_bad_edit_reported_with_its_line(pack, shipped, monkeypatch):
    q = pack / "questions.yaml"
    q.write_text(
        q.read_text(encoding="utf-8").replace("防止 softmax 饱和。", "改过的答案。"), encoding="utf-8"
    )
    parsed = yaml_loads(monkeypatch)
    assert load_content(pack).cards["q03"].bank_answer == "改过的答案。"
    assert parsed == [True]
    q.write_text(
        q.read_text(encoding="utf-8").replace("question: 为什么除 √d_k？", "question: ''"), encoding="utf-8"
    )
    with pytest.raises(ContentError, match=r"questions\.yaml:\d+: cards\[1\]\.question: must not be empty"):
        load_content(pack)


@pytest.mark.parametrize("edit", TAMPERINGS)
def test_a_tampered_shipped_entry_is_not_used(pack, shipped, monkeypatch, edit):
    expected = load_content(pack, cache=False)
    _tamper(shipped, edit)
    partial = first_load(find_packs(pack), engine_catalog())
    assert partial is None or partial.complete() is None
    parsed = yaml_loads(monkeypatch)
    assert load_content(pack) == expected
    assert parsed == [True]


def test_the_study_screen_starts_from_it_on_a_first_ever_start(pack, shipped):
    expected = load_content(pack, cache=False)
    options = AppOptions(content_path=str(pack), user="tester")
    partial = load_library(options, cached_only=True)
    assert isinstance(partial, PartialLibrary)
    assert partial.take("q01") == expected.cards["q01"] and partial.complete() == expected


def test_hatch_build_validates_the_shipped_data_into_an_entry_drill_uses(tmp_path, monkeypatch):
    """hatch_build.build_content (the build hook's step) on the repository's data/: the entry it writes is the
    one drill reads for that content, equal to the YAML's."""
    from tests.i18n.pseudo import _hatch_build

    target = _hatch_build().build_content(ROOT, tmp_path / "shipped-content.json")
    monkeypatch.setattr(content_cache, "SHIPPED", target)
    data = ROOT / "data"
    partial = first_load(find_packs(data), engine_catalog())
    assert partial is not None
    assert partial.complete() == load_content(data, cache=False)
