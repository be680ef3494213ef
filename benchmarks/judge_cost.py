"""What the answer judge adds to the rubric's appearance: ctrl+d -> the rubric painted, with the judge's ticks
and without them (the judge switched off), interleaved, medians of N rounds each.

    python benchmarks/judge_cost.py [N]

Measured in-process with Textual's headless pilot (not a pty: the time from the key to the rubric's first
refresh, which is all the judge can change; the process start and the typing are the same in both), on the
shipped content, a Chinese and an English answer to bank card q07 (section 7.9). jieba's dictionary is loaded
while the learner types (InterviewScreen.warm_up_judge); the "cold" column judges in a process where it was not
loaded yet (an answer finished in under half a second), printed for information.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ANSWERS = {
    "zh": "q·k 是 d_k 个独立项之和，方差是 d_k、标准差 √dₖ。不缩放的话 softmax 饱和成 one-hot，梯度消失。"
    "除以 √d_k 方差归一到 1。其实缩放也是为了计算更快。",
    "en": "The dot product sums d_k terms, so its variance is d_k and its std sqrt(dk). Without scaling the "
    "softmax saturates into a one-hot and gradients vanish; dividing by √d_k brings the variance to 1.",
}


async def one(library, store, text: str, judged: bool) -> float:
    from tests.interview.pilot import interview_app, phase
    from textual.widgets import TextArea

    import drill.tui.screens.interview as screen_module

    real = screen_module.judge_into
    screen_module.judge_into = real if judged else (lambda rubric, text: None)
    try:
        app = interview_app(library, store, questions=1, section="7.9", seed=1)
        async with app.run_test(size=(120, 40)) as pilot:
            await phase(pilot, "asking")
            screen = app.mode_screen
            screen.query_one("#iv-answer", TextArea).load_text(text)
            await app.workers.wait_for_complete()  # the warm-up worker (jieba) done, as after typing
            await pilot.pause()
            start = time.perf_counter()
            await pilot.press("ctrl+d")
            while screen.phase != "rubric":
                await asyncio.sleep(0)
            await pilot.pause()  # the rubric's refresh
            took = time.perf_counter() - start
            assert screen.rubric.judged == judged
            return took
    finally:
        screen_module.judge_into = real


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    import os

    os.environ.setdefault("DRILL_DATA_DIR", tempfile.mkdtemp(prefix="judge-bench-"))
    os.environ.setdefault("DRILL_CONFIG_DIR", tempfile.mkdtemp(prefix="judge-bench-"))
    from drill.content import load_content
    from drill.store import open_store

    library = load_content()
    cold_start = time.perf_counter()
    from drill.judge.match import _jieba

    _jieba()
    cold = time.perf_counter() - cold_start
    print(
        f"jieba's dictionary, loaded once per process (the cold cost the warm-up hides): {cold * 1000:.0f} ms"
    )
    print(f"{'answer':6} {'rounds':>6} {'without judge':>14} {'with judge':>11} {'ratio':>6}  (goal <= 1.2)")
    for lang, text in ANSWERS.items():
        times: dict[bool, list[float]] = {False: [], True: []}
        for i in range(n):
            for judged in (False, True) if i % 2 == 0 else (True, False):  # interleaved, order alternating
                with tempfile.TemporaryDirectory() as tmp:
                    store = open_store(f"sqlite:///{tmp}/b.db", "bench")
                    try:
                        times[judged].append(asyncio.run(one(library, store, text, judged)))
                    finally:
                        store.close()
        base, judged = statistics.median(times[False]), statistics.median(times[True])
        print(f"{lang:6} {n:6} {base * 1000:11.1f} ms {judged * 1000:8.1f} ms {judged / base:6.2f}")


if __name__ == "__main__":
    main()
