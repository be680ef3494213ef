"""Property: any C0/C1 control character (other than newline and tab) placed anywhere in a card's text is
rejected at load time with the file, the line and the field — whether written raw or as a YAML escape."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from drill.content.yamlio import parse_yaml
from drill.errors import ContentError

BAD_CHARS = [chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"] + [chr(c) for c in range(0x7F, 0xA0)]
FIELDS = ["question", "answer"]


def doc(question: str, answer: str) -> str:
    return f"cards:\n  - id: q01\n    question: {question}\n    answer: {answer}\n"


@settings(max_examples=150, deadline=None)
@given(
    char=st.sampled_from(BAD_CHARS),
    field=st.sampled_from(FIELDS),
    prefix=st.text(alphabet="abc 注意力", max_size=8),
    escaped=st.booleans(),
)
def test_control_characters_are_rejected_with_line_and_field(char, field, prefix, escaped):
    value = f'"{prefix}\\x{ord(char):02x}z"' if escaped else f"{prefix.strip() or 'a'}{char}z"
    values = {"question": "plain", "answer": "plain"}
    values[field] = value
    text = doc(values["question"], values["answer"])
    try:
        parse_yaml(text, Path("t.yaml"))
    except ContentError as err:
        message = str(err)
    else:  # pragma: no cover - the assertion below reports it
        message = "accepted"
    line = 3 if field == "question" else 4
    assert message.startswith(f"t.yaml:{line}: cards[0].{field}: control character U+{ord(char):04X}"), (
        message
    )


def test_newline_and_tab_are_fine():
    data = parse_yaml(doc('"a\\tb"', '"one\\ntwo"'), Path("t.yaml")).data
    assert data["cards"][0]["question"] == "a\tb"
    assert data["cards"][0]["answer"] == "one\ntwo"
