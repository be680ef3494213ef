"""Fixture packs for the content tests (the shipped chapter is tested too, in test_shipped_content.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent
PACKS = HERE / "packs"
BAD = HERE / "bad"


@pytest.fixture
def packs_dir() -> Path:
    return PACKS


@pytest.fixture
def mini_pack() -> Path:
    return PACKS / "mini"
