"""The JSON cache of validated content: same Library back, invalidated by edits, bypassed when unusable,
never holding a load that failed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from drill.content import load_content
from drill.content import loader as content_loader
from drill.errors import ContentError


def cache_files() -> list[Path]:
    return sorted(Path(os.environ["DRILL_CACHE_DIR"]).glob("content-*.json"))


def no_parsing(monkeypatch):
    def fail(self, pack_dirs):
        raise AssertionError("parsed the YAML although the cache is valid")

    monkeypatch.setattr(content_loader._Builder, "build", fail)


def test_second_load_comes_from_the_cache_and_is_equal(pack, monkeypatch):
    first = load_content(pack)
    (entry,) = cache_files()
    assert json.loads(entry.read_text(encoding="utf-8"))["cards"][0]["id"] == "q01"
    no_parsing(monkeypatch)
    second = load_content(pack)
    assert second == first
    assert second.cards["q03"].steps == ("worked/scale", "worked/softmax")  # tuples, as loaded from YAML
    assert second.checks[0].index == (0, 0)


def test_editing_a_file_invalidates_the_cache(pack):
    load_content(pack)
    q = pack / "questions.yaml"
    q.write_text(
        q.read_text(encoding="utf-8").replace("防止 softmax 饱和。", "改过的答案。"), encoding="utf-8"
    )
    assert load_content(pack).cards["q03"].bank_answer == "改过的答案。"


def test_a_new_bad_edit_is_reported_not_served_from_the_cache(pack):
    load_content(pack)
    q = pack / "questions.yaml"
    q.write_text(
        q.read_text(encoding="utf-8").replace("question: 为什么除 √d_k？", "question: ''"), encoding="utf-8"
    )
    for _ in range(2):
        with pytest.raises(ContentError, match=r"cards\[1\]\.question: must not be empty"):
            load_content(pack)


def test_corrupt_cache_is_ignored(pack):
    expected = load_content(pack)
    (entry,) = cache_files()
    entry.write_text('{"format": 2, "key": "x", "cards": [', encoding="utf-8")
    assert load_content(pack) == expected
    entry.write_text(json.dumps({"format": 2, "key": entry.stem.removeprefix("content-"), "cards": [{}]}))
    assert load_content(pack) == expected


def test_the_cache_lives_in_the_cache_directory_not_the_data_directory(pack, monkeypatch, tmp_path):
    load_content(pack)
    assert len(cache_files()) == 1
    assert not (Path(os.environ["DRILL_DATA_DIR"]) / "cache").exists()
    monkeypatch.delenv("DRILL_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # platformdirs' user cache dir on Linux
    from drill import paths

    assert paths.cache_dir() == tmp_path / "xdg" / "drill"


def _tamper(entry: Path, edit) -> None:
    data = json.loads(entry.read_text(encoding="utf-8"))
    edit(data)
    entry.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


# Edits of a cache entry that the field rules refuse (shared with test_content_cache_partial.py).
TAMPERINGS = [
    lambda d: d["cards"][0].update(answer="\x1b]0;pwned\x07\x1b[2J"),  # a terminal escape
    lambda d: d["cards"][0].update(question="\u009b31m"),  # a C1 control (CSI)
    lambda d: d["cards"][0].update(tags=["ok", "\x00"]),
    lambda d: d["quizzes"][0]["options"].update(A="\x1b[31mred"),
    lambda d: d["packs"][0].update(title="x\x1b"),
    lambda d: d["cards"][0].update(bank="1"),  # a wrong type
    lambda d: d["cards"][0].update(id="../../etc"),  # an id the rules refuse
    lambda d: d["cards"][0].update(surprise=1),  # a field no record has
    lambda d: d["cards"][0].pop("pack"),
    lambda d: d["checks"][0].update(claimed=float("nan")),
    lambda d: d["quizzes"][0].update(answer="Z"),
]


@pytest.mark.parametrize("edit", TAMPERINGS)
def test_a_tampered_cache_is_not_used(pack, monkeypatch, edit):
    expected = load_content(pack)
    (entry,) = cache_files()
    _tamper(entry, edit)
    parsed = []
    original_build = content_loader._Builder.build

    def build(self, pack_dirs):
        parsed.append(True)
        return original_build(self, pack_dirs)

    monkeypatch.setattr(content_loader._Builder, "build", build)
    assert load_content(pack) == expected
    assert parsed == [True]  # read from the YAML again, not from the edited cache


def test_unwritable_cache_dir_still_loads(pack, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv("DRILL_CACHE_DIR", str(blocker))
    assert load_content(pack).cards["q01"].bank == 1


def test_drill_check_never_uses_the_cache(pack, monkeypatch):
    from click.testing import CliRunner

    from drill.cli import cli

    load_content(pack)
    no_parsing(monkeypatch)
    result = CliRunner().invoke(cli, ["check", str(pack)])
    assert result.exit_code != 0 and "parsed the YAML" in repr(result.exception)


def test_a_cached_start_does_not_import_yaml(pack):
    import subprocess
    import sys

    code = (
        "import sys; from drill.content import load_content; lib = load_content(sys.argv[1]);"
        "print(len(lib.cards), 'yaml' in sys.modules)"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code, str(pack)], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert runs[0].stdout.split() == ["3", "True"]  # parsed, cache written
    assert runs[1].stdout.split() == ["3", "False"]  # served from the cache
