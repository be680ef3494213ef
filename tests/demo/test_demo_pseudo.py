"""Every demo, and the list they are opened from, under the pseudo-locale: each word on screen is drill's own
through the catalog (inside ⟦…⟧, the engine's step titles and explanations included), the chapter's (the
demos' titles and descriptions, the pack's tokens, the words the demos quote), or an engine identifier or
symbol."""

from __future__ import annotations

import pytest

from drill.tui.app import make_app
from drill.tui.demos import DEMO_CLASSES
from tests.i18n.conftest import pseudo, pseudo_locale_dir  # noqa: F401 - the fixtures
from tests.i18n.test_screens_pseudo import screen_text, unmarked

from .conftest import opened
from .test_demo_snapshots import MOVES

CHAPTER_WORDS = ("data/transformer-chapter-7.md", "data/demos.yaml", "data/checks.yaml", "data/errata.yaml")
SYMBOLS = (
    r"\b\w*_\w*\b",  # engine names: enc_self_attn, project_q, d_model, W_Q
    r"\b(softmax|exp|max|mean|cos|log|sin|ReLU|SwiGLU|SiLU|LayerNorm|FFN|QKᵀ|KV|mha|layernorm|ffn)\b",
    r"\b[A-Za-zα-ω]\W?\b|σ²",  # one-letter symbols: x, k, γ, σ²
)


@pytest.mark.parametrize("name", sorted(DEMO_CLASSES))
async def test_demo_speaks_only_through_the_catalog(pseudo, name):  # noqa: F811
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    content = "\n".join((root / path).read_text(encoding="utf-8") for path in CHAPTER_WORDS)
    app = make_app("demo", demo=name)
    async with app.run_test(size=(160, 60)) as pilot:
        await opened(pilot, name)
        for moves in ((), MOVES[name]):
            await pilot.press(*moves)
            await pilot.pause()
            text = screen_text(app)
            assert "⟦" in text
            assert unmarked(text, content, allowed=SYMBOLS) == [], text


async def test_the_demo_list_speaks_only_through_the_catalog(pseudo):  # noqa: F811
    """The list `drill demo` opens on: its heading and footer are drill's, each row's section, name and title
    the chapter's (demos.yaml)."""
    from pathlib import Path

    from drill.tui.screens.demo import DemoListScreen
    from tests.i18n.test_screens_pseudo import shown_unmarked

    root = Path(__file__).resolve().parents[2]
    content = "\n".join((root / path).read_text(encoding="utf-8") for path in CHAPTER_WORDS)
    app = make_app("demo")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DemoListScreen) and len(app.screen.demos) == 15
        assert shown_unmarked(app, content) == []
