"""Fixture packs for the content tests (the shipped chapter is tested too, in test_shipped_content.py)."""

from __future__ import annotations

import shutil
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


@pytest.fixture
def pack(tmp_path) -> Path:
    """A copy of the mini pack that a test may edit (the content cache tests)."""
    shutil.copytree(PACKS / "mini", tmp_path / "mini")
    return tmp_path / "mini"
