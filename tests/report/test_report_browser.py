"""The HTML report in real headless Chromium: it loads from a file:// URL, renders, and is not blank.

Skipped only where no chromium binary exists (`.ci/run` installs Debian's chromium).
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib

import numpy as np
import pytest

from drill.report.html import to_html
from tests.chromium import CHROMIUM, measured
from tests.report.report_history import compute_report


def decode_png(data: bytes) -> np.ndarray:
    """RGB(A) pixels of an 8-bit truecolour PNG (what Chromium writes), shape (height, width, channels)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8)
    stride = width * channels
    rows = raw.reshape(height, stride + 1)
    out = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:]
        if kind == 0:
            cur = line.copy()
        elif kind == 1:  # Sub: a running sum per channel
            cur = (
                (np.cumsum(line.reshape(width, channels).astype(np.int64), axis=0) % 256)
                .astype(np.uint8)
                .ravel()
            )
        elif kind == 2:  # Up
            cur = line + previous
        else:  # Average (3) or Paeth (4): each byte depends on the one to its left
            cur_list = [0] * stride
            src, up = line.tolist(), previous.tolist()
            for i in range(stride):
                left = cur_list[i - channels] if i >= channels else 0
                if kind == 3:
                    value = src[i] + ((left + up[i]) >> 1)
                else:
                    upleft = up[i - channels] if i >= channels else 0
                    p = left + up[i] - upleft
                    pa, pb, pc = abs(p - left), abs(p - up[i]), abs(p - upleft)
                    value = src[i] + (left if pa <= pb and pa <= pc else up[i] if pb <= pc else upleft)
                cur_list[i] = value & 0xFF
            cur = np.array(cur_list, dtype=np.uint8)
        out[y] = cur
        previous = cur
    return out.reshape(height, width, channels)


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_the_html_report_renders_in_headless_chromium(tmp_path, history, library):
    from sqlalchemy import create_engine

    engine = create_engine(history.url)
    page = tmp_path / "report.html"
    page.write_text(to_html(compute_report(engine, library, user="alice", cohort=True)), encoding="utf-8")
    engine.dispose()
    shot = tmp_path / "shot.png"
    profile = tmp_path / "profile"
    result = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            f"--screenshot={shot}",
            "--window-size=1200,2000",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shot.is_file(), result.stderr[-2000:]
    pixels = decode_png(shot.read_bytes())
    assert pixels.shape[:2] == (2000, 1200)
    rgb = pixels[..., :3].reshape(-1, 3)
    colours = np.unique(rgb.astype(np.uint32) @ np.array([1 << 16, 1 << 8, 1], dtype=np.uint32))
    # A blank or error page has a handful of colours; the report has text, a heatmap, bars and charts.
    assert len(colours) > 200
    # The page background is the report's (#f4f6f8), not Chromium's white error page, and the heatmap's
    # greens are on screen.
    assert (rgb == [0xF4, 0xF6, 0xF8]).all(axis=1).mean() > 0.2
    for green in ([0x17, 0x60, 0x2D], [0x6C, 0xC3, 0x6B]):
        assert (rgb == green).all(axis=1).any(), green


MEASURE = """<script>
addEventListener("load", () => {
  const root = document.documentElement;
  const sizes = [...document.querySelectorAll("svg text")].map(
    (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a
  );
  const wide = [...document.querySelectorAll("section, .kpi, header")]
    .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
    .map((e) => e.tagName + "." + e.className);
  parent.postMessage(JSON.stringify({
    viewport: innerWidth, page: root.scrollWidth, body: document.body.scrollWidth,
    smallest_chart_text: Math.min(...sizes), chart_texts: sizes.length, wide: wide,
  }), "*");
});
</script>"""
# Chromium's headless window is at least 500 px wide: a phone's 390 px is an iframe of that width.
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="{src}" style="width:{width}px;height:900px;border:0"></iframe>
<script>
addEventListener("message", (event) => {{
  const out = document.createElement("pre");
  out.id = "measure";
  out.textContent = event.data;
  document.body.appendChild(out);
}});
</script></body></html>"""


def _measure(page_html: str, tmp_path, width: int) -> dict:
    """Load the report at ``width`` CSS px in headless Chromium and measure it with a script added to a copy
    (the report itself has none and forbids them: the copy drops its Content-Security-Policy)."""
    import re

    probe = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page_html)
    probe = probe.replace("</body>", MEASURE + "</body>")
    page = tmp_path / f"probe-{width}.html"
    page.write_text(probe, encoding="utf-8")
    path = tmp_path / f"frame-{width}.html"
    path.write_text(FRAME.format(src=page.name, width=width), encoding="utf-8")
    return measured(path, tmp_path / f"profile-{width}", "--hide-scrollbars", "--window-size=1400,1000")


def with_mock_interviews(history, tmp_path) -> str:
    """A copy of the history's database with alice's mock interviews added by the store (drill interview's
    scorecards), one of whose missed points is a long unbroken string; its URL."""
    from datetime import timedelta

    from drill.store import open_store
    from drill.store.interviews import InterviewAnswerRecord
    from tests.report.report_history import NOW

    path = tmp_path / "with-interviews.sqlite3"
    shutil.copyfile(history.url.removeprefix("sqlite:///"), path)
    url = f"sqlite:///{path}"
    cards = [cid for cid, _section, _q in history.cards if cid != history.retired][:6]
    sections = dict((cid, section) for cid, section, _q in history.cards)
    with open_store(url, "alice") as store:
        for day in range(4):
            started = NOW - timedelta(days=10 - 2 * day)
            session = store.start_interview(started, {"questions": 3})
            for n, card in enumerate(cards[day : day + 3], 1):
                store.record_interview_answer(
                    session,
                    InterviewAnswerRecord(
                        position=n,
                        card_id=card,
                        section=sections[card],
                        follow_up=False,
                        mode="typed",
                        answer="…",
                        duration_ms=(60 + 40 * n + 7 * day) * 1000,
                        budget_ms=180_000,
                        timed_out=n == 3,
                        points_total=4,
                        points_covered=tuple(range(n)),
                        points_missed=("w" * 150, "注意力权重矩阵" * 12)[: 4 - n],
                        traps_hit=(),
                        coverage=n / 4,
                        proposed=1,
                        rating=1,
                        answered_at=started + timedelta(minutes=n),
                    ),
                )
            store.finish_interview(session, started + timedelta(minutes=12))
    return url


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_is_never_wider_than_the_screen(tmp_path, history, library, width):
    """Issue 13: at 390 px (a phone) the report scrolled sideways to 734 px and chart text shrank to 5-7 px.
    Now wide tables and charts scroll inside their cards, charts keep their 11 px text, and the page is no
    wider than the viewport, on a phone and on a desktop — the mock-interview section (issue 15) included,
    with a long unbroken point in it."""
    from dataclasses import replace

    from sqlalchemy import create_engine

    url = with_mock_interviews(history, tmp_path)
    engine = create_engine(url)
    data = compute_report(engine, library, user="alice", cohort=True)
    engine.dispose()
    assert data.interview_scores is not None and len(data.interview_scores.interviews) == 4
    # A long unbroken name as a planted one could be: it must wrap, not widen the page.
    data = replace(data, user="m" * 120)
    m = _measure(to_html(data), tmp_path, width)
    assert m["viewport"] == width, m
    assert m["page"] <= width and m["body"] <= width, m  # (scrollWidth: the page's whole width)
    assert m["wide"] == [], m
    assert m["chart_texts"] > 20 and m["smallest_chart_text"] >= 11 - 1e-6, m
