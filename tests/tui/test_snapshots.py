"""Snapshot tests of the study screen (pytest-textual-snapshot): 80×24 and 120×40, Chinese text, formulas,
a Markdown table, and a card whose text holds markup and an ESC byte. Clock, timer and database are fixed.

Regenerate with ``pytest tests/tui --snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

import pytest

from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import library_of, make_card, wait_until

FORMULA_CARD = make_card(
    "fx01",
    "写出 Scaled Dot-Product Attention 的公式，并说明每一步的形状。",
    r"""$$\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V$$

| 步骤 | 公式 | 形状 |
| --- | --- | --- |
| 打分 | $S = QK^\top$ | $[S, S]$ |
| 缩放 | $S / \sqrt{d_k}$ | $[S, S]$ |
| 归一化 | $A = \mathrm{softmax}(S)$ | $[S, S]$ |
| 加权求和 | $O = AV$ | $[S, d_v]$ |

若 $q, k$ 各分量独立、均值 $0$、方差 $1$，则 $q\cdot k=\sum_{i=1}^{d_k} q_i k_i$ 的方差为 $d_k$，
除以 $\sqrt{d_k}$ 后方差回到 $1$，softmax 不会饱和。""",
    section="7.9",
    tags=("scaling", "softmax"),
    pitfalls=(r"**不是除以 $d_k$**：除的是 $\sqrt{d_k}$（标准差），不是方差。",),
)

MARKUP_CARD = make_card(
    "esc01",
    "What does [bold]this[/] do? [@click=app.quit]click me[/] \x1b[31mred\x1b[0m",
    "Nothing: [red]markup[/red] and \x1b[2J escapes are shown as text.",
    section="7.25",
    tags=("safety",),
)


async def card_on_screen(pilot) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: getattr(app.mode_screen, "card", None) is not None)
    await app.workers.wait_for_complete()
    await wait_until(pilot, lambda: bool(app.mode_screen.query("StudyFooter")))
    await pilot.pause()


def revealed():
    async def run_before(pilot) -> None:
        app = pilot.app
        await card_on_screen(pilot)
        await pilot.press("space")
        await wait_until(pilot, lambda: app.screen.query_one(CardView).revealed)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_chinese_card(snap_compare, study_app, library, size):
    card = library.cards["q05"]
    app = study_app(library=library_of([card], library))
    assert snap_compare(app, terminal_size=size, run_before=revealed())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_formula_card(snap_compare, study_app, library, size):
    app = study_app(library=library_of([FORMULA_CARD], library))
    assert snap_compare(app, terminal_size=size, run_before=revealed())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_question_side(snap_compare, study_app, library, size):
    card = library.cards["q05"]
    app = study_app(library=library_of([card], library))

    assert snap_compare(app, terminal_size=size, run_before=card_on_screen)


def test_markup_and_escape_render_literally(snap_compare, study_app, library):
    app = study_app(library=library_of([MARKUP_CARD], library))
    assert snap_compare(app, terminal_size=(80, 24), run_before=revealed())


def test_light_theme(snap_compare, study_app, library):
    """The same screen on a light theme: every text stays legible, grade names carry the meaning."""
    card = library.cards["q07"]
    app = study_app(library=library_of([card], library))

    async def run_before(pilot) -> None:
        pilot.app.theme = "textual-light"
        await revealed()(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)
