"""Shared engine fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def chapter_checks() -> list[dict]:
    """data/checks.yaml as plain dicts (the engine's verifier accepts dicts or Check objects)."""
    return yaml.safe_load((REPO / "data" / "checks.yaml").read_text(encoding="utf-8"))["checks"]
