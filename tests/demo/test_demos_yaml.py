"""data/demos.yaml: the chapter's 15 demos, word for word, and the loader's file:line errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from drill.content.demos import load_demos
from drill.errors import ContentError

CHAPTER = Path(__file__).resolve().parents[2] / "data" / "transformer-chapter-7.md"  # shipped in the pack


def test_fifteen_demos_in_chapter_order():
    demos = load_demos()
    assert len(demos) == 15
    assert [d.name for d in demos][:3] == ["attention", "transformer-block", "qkv-matrix"]


def test_titles_are_the_chapters_words():
    lines = CHAPTER.read_text(encoding="utf-8").splitlines()
    blocks = {}
    for i, line in enumerate(lines):
        m = re.match(r":::demo (\S+) (.*)$", line)
        if m:
            blocks[m.group(1)] = (m.group(2), lines[i + 1])
    assert {d.name: (d.title, d.description) for d in load_demos()} == blocks


@pytest.mark.parametrize(
    "text, where",
    [
        ("demos:\n  - name: a\n    section: '7.1'\n    title: t\n", "demos.yaml:2: demos[0]: `description`"),
        (
            "demos:\n  - name: A B\n    section: '7.1'\n    title: t\n    description: d\n",
            ":2: demos[0].name",
        ),
        ("demos:\n  - name: a\n    section: '8'\n    title: t\n    description: d\n", ":3: demos[0].section"),
        (
            "demos:\n  - name: a\n    section: '7.1'\n    title: t\n    description: d\n    x: 1\n",
            ":6: demos[0].x",
        ),
        ("demo: []\n", ":1: demos"),
    ],
)
def test_errors_name_file_line_and_field(tmp_path, text, where):
    path = tmp_path / "demos.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_demos(path)
    assert where in str(err.value)


def test_attention_block_loads():
    from drill.content.demos import load_attention

    data = load_attention()
    assert "it" in data.tokens and "animal" in data.tokens
    assert all(abs(sum(row) - 1) <= 0.01 + 1e-9 for row in data.weights)


@pytest.mark.parametrize(
    "block, where",
    [
        (
            "attention:\n  tokens: [a, b]\n  weights:\n    - [0.5, 0.5]\n",
            ":3: attention.weights: expected one row",
        ),
        (
            "attention:\n  tokens: [a, b]\n  weights:\n    - [0.5, 0.5]\n    - [0.5, 0.6]\n",
            ":5: attention.weights[1]: the weights of 'b' sum to 1.100",
        ),
        (
            "attention:\n  tokens: [a, b]\n  weights:\n    - [0.5, 0.5]\n    - [1.5, x]\n",
            ":5: attention.weights[1][0]: a weight is a number in [0, 1]",
        ),
        ("attention:\n  tokens: []\n  weights: []\n", ":2: attention.tokens"),
    ],
)
def test_attention_errors_name_file_line_and_field(tmp_path, block, where):
    from drill.content.demos import load_attention

    path = tmp_path / "demos.yaml"
    path.write_text("demos: []\n" + block, encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_attention(path)
    assert where.replace(":3:", ":4:").replace(":5:", ":6:").replace(":2:", ":3:") in str(err.value)
