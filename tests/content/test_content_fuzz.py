"""Robustness: any mangling of a valid pack (truncation, inserted or deleted bytes, swapped lines) is either
loaded or rejected with a ContentError naming the file — never another exception (which would reach the user
as a traceback)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drill.content import load_content
from drill.errors import ContentError

MINI = Path(__file__).parent / "packs" / "mini"
FILES = ["questions.yaml", "quizzes.yaml", "checks.yaml"]
SNIPPETS = [
    b":",
    b"-",
    b" ",
    b"\n",
    b"'",
    b'"',
    b"[",
    b"]",
    b"{",
    b"}",
    b"&a",
    b"*a",
    b"!!",
    b"? ",
    b"<<: ",
    b"#",
    b"\t",
    b"\x1b",
    b"\xff",
    b"\xe4\xb8",
    b"null",
    b"1.5",
    b"id: q01\n",
    b"  - ",
    b"---\n",
    b"...",
]


@st.composite
def mangled(draw):
    name = draw(st.sampled_from(FILES))
    data = (MINI / name).read_bytes()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["truncate", "insert", "delete", "swap-lines"]))
        if action == "truncate":
            data = data[:at]
        elif action == "insert":
            data = data[:at] + draw(st.sampled_from(SNIPPETS)) + data[at:]
        elif action == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 20)) :]
        else:
            lines = data.split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
    return name, data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mangled())
def test_mangled_content_is_loaded_or_rejected_cleanly(case):
    name, data = case
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "p"
        shutil.copytree(MINI, pack)
        (pack / name).write_bytes(data)
        try:
            load_content(pack, cache=False)
        except ContentError as err:
            message = str(err)
            assert message.startswith(str(pack)), message
            assert "\n" not in message
