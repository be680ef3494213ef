"""drill.content.generated: engine-computed choice questions for every section, wrong options from named mistakes.

Oracles: PyTorch (softmax, SDPA, LayerNorm, module parameter counts, autograd), numpy arrays' nbytes, and plain
arithmetic from the chapter's formulas. The distractors are re-evaluated from the catalogue on the inputs the
question shows; the no-tells statistics are counted over 1,000 questions.
"""

from __future__ import annotations

import cmath
import math
import re
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.content import quizgen
from drill.content.generated import CHOICE, check_answer, generate_questions, parse_number, sections
from drill.engine.mistakes import MISTAKES
from drill.errors import InputError
from tests.quiz.test_template_properties import check_code

CARD_SECTIONS = [
    "7.1",
    "7.2",
    "7.3",
    "7.4",
    "7.5",
    "7.6",
    "7.7",
    "7.8",
    "7.9",
    "7.10",
    "7.11",
    "7.13",
    "7.14",
    "7.15",
    "7.16",
    "7.17",
    "7.18",
    "7.19",
    "7.20",
    "7.21",
    "7.22",
    "7.23",
]


def _t(m):
    return torch.tensor(m, dtype=torch.float64)


def _linear_params(*shapes):
    return sum(p.numel() for i, o in shapes for p in torch.nn.Linear(i, o, bias=False).parameters())


def _attention(i):
    q, k = _t(i["X"]) @ _t(i["W_Q"]), _t(i["X"]) @ _t(i["W_K"])
    return q, k, q @ k.T


def _residual(factor, layers):
    x = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    f = x
    for _ in range(layers):
        f = f * factor
    (x + f).backward()
    return float(x.grad)


def _kv_bytes(layers, heads, d_head, tokens):
    return 2 * np.zeros((layers, heads, tokens, d_head), dtype=np.float16).nbytes


def oracle(q):
    """The right value, recomputed without drill's engine."""
    i = q.inputs
    t = q.topic
    if t == "path-length":
        return 1
    if t == "layer-params":
        d = i["d_model"]
        return _linear_params((d, d), (d, d), (d, d), (d, d), (d, i["d_ff"]), (i["d_ff"], d))
    if t == "ffn-params":
        return _linear_params((i["d_model"], i["d_ff"]), (i["d_ff"], i["d_model"]))
    if t == "pe-value":
        pos, dim, d = i["pos"], i["dim"], i["d_model"]
        angle = pos / 10000 ** (2 * (dim // 2) / d)
        return math.sin(angle) if dim % 2 == 0 else math.cos(angle)
    if t == "score-growth":
        return (i["S"] * i["factor"]) ** 2 / i["S"] ** 2
    if t == "q-shape":
        return tuple((torch.zeros(i["B"], i["S"], i["d_model"]) @ torch.zeros(i["d_model"], i["d_k"])).shape)
    if t == "score-shape":
        q = torch.zeros(i["B"], i["S"], i["d_k"])
        return tuple((q @ q.transpose(-2, -1)).shape)
    if t == "cross-shape":
        q, k = torch.zeros(i["B"], i["S_dec"], i["d_k"]), torch.zeros(i["B"], i["S_enc"], i["d_k"])
        return tuple((q @ k.transpose(-2, -1)).shape)
    if t == "raw-score":
        return float(_attention(i)[2][i["i"], i["j"]])
    if t == "scaled-score":
        return float(_attention(i)[2][i["i"], i["j"]]) / math.sqrt(i["d_k"])
    if t == "softmax-weight":
        q, k, s = _attention(i)
        return float(torch.softmax(s / math.sqrt(q.shape[-1]), dim=-1)[i["i"], i["j"]])
    if t == "output-value":
        q, k, _ = _attention(i)
        v = _t(i["X"]) @ _t(i["W_V"])
        return float(torch.nn.functional.scaled_dot_product_attention(q, k, v)[i["i"], i["j"]])
    if t == "softmax-row":
        return float(torch.softmax(_t(i["scores"]), dim=-1)[i["i"], i["j"]])
    if (
        t == "additive-cost"
    ):  # FLOPs PyTorch counts running both, additive with its projections once per token
        from torch.utils.flop_counter import FlopCounterMode

        S, d = i["S"], i["d"]
        q, k, w_q, w_k, v = (
            torch.randn(S, d),
            torch.randn(S, d),
            torch.randn(d, d),
            torch.randn(d, d),
            torch.randn(d, 1),
        )

        def flops(fn):
            with FlopCounterMode(display=False) as counter:
                fn()
            return counter.get_total_flops()

        additive = flops(
            lambda: torch.tanh((q @ w_q)[:, None, :] + (k @ w_k)[None, :, :]).reshape(S * S, d) @ v
        )
        return additive / flops(lambda: q @ k.T)
    if t == "head-dim":
        return torch.nn.MultiheadAttention(i["d_model"], i["h"]).head_dim
    if t == "kv-cache-gqa":
        return _kv_bytes(i["layers"], i["G"], i["d_head"], i["tokens"])
    if t == "kv-cache-size":
        return _kv_bytes(i["layers"], i["h"], i["d_head"], i["tokens"])
    if t == "padding-mask":
        return tuple(range(i["length"], i["S"]))
    if t == "causal-mask":
        return tuple(range(i["i"] + 1, i["S"]))
    if t == "residual-gradient":
        return _residual(i["factor"], i["layers"])
    if t == "layernorm":
        x = _t(i["x"])
        return float(torch.nn.functional.layer_norm(x, (4,), eps=1e-5)[i["i"], i["j"]])
    if t == "noam-lr":
        s, d, w = i["step"], i["d_model"], i["warmup"]
        return d**-0.5 * min(s**-0.5, s * w**-1.5)
    if t == "rope-value":  # the pair as a complex number, turned by m·θ_p
        x, p = i["x"], i["k"] // 2
        z = complex(x[2 * p], x[2 * p + 1]) * cmath.exp(1j * i["m"] * 10000 ** (-2 * p / len(x)))
        return z.real if i["k"] % 2 == 0 else z.imag
    if t == "argmax-key":
        q, k, s = _attention(i)
        return int(torch.argmax(torch.softmax(s / math.sqrt(q.shape[-1]), dim=-1)[i["i"]]))
    if t == "masked-weights":  # the chapter's 7.13 lines, run by PyTorch
        scores = _t(i["scores"])
        mask = torch.triu(torch.ones(len(scores), len(scores)), 1).bool()
        return float(torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)[i["i"], i["j"]])
    raise AssertionError(f"no oracle for {t}")


def _same(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return tuple(a) == tuple(b)
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


def mistake_value(q, mid):
    """The named mistake evaluated afresh on the question's inputs, read where the question reads."""
    i, m = q.inputs, MISTAKES[mid]
    t = q.topic
    if t in ("q-shape", "score-shape"):
        return tuple(m.evaluate(i["B"], i["S"], i["d_model"], i["d_k"]))
    if t == "cross-shape":
        return tuple(m.evaluate(i["B"], i["S_dec"], i["S_enc"], i["d_model"], i["d_k"]))
    if t == "raw-score":
        return m.evaluate(i["X"], i["W_Q"], i["W_K"], i["i"], i["j"])
    if t == "scaled-score":
        return m.evaluate(float(_attention(i)[2][i["i"], i["j"]]), i["d_k"])
    if t in ("softmax-weight", "output-value"):
        x = np.array(i["X"], dtype=float)
        q_, k_ = x @ np.array(i["W_Q"]), x @ np.array(i["W_K"])
        v_ = x @ np.array(i["W_V"]) if "W_V" in i else np.eye(len(x), k_.shape[1])
        out, weights = m.evaluate(q_, k_, v_)
        return float((weights if t == "softmax-weight" else out)[i["i"], i["j"]])
    if t == "softmax-row":
        return float(m.evaluate(np.array(i["scores"]))[i["i"], i["j"]])
    if t == "layernorm":
        return float(m.evaluate(np.array(i["x"]), 1.0, 0.0)[i["i"], i["j"]])
    if t == "pe-value":
        return float(m.evaluate(i["pos"] + 1 + 5, i["d_model"])[i["pos"], i["dim"]])
    if t == "rope-value":
        return float(np.asarray(m.evaluate([i["x"]], [i["m"]]))[0, i["k"]])
    if t == "argmax-key":  # the key the mistaken scores or weights rank first
        if mid.startswith("raw_score/"):
            return int(
                np.argmax([m.evaluate(i["X"], i["W_Q"], i["W_K"], i["i"], j) for j in range(len(i["X"]))])
            )
        x = np.array(i["X"], dtype=float)
        q_, k_ = x @ np.array(i["W_Q"]), x @ np.array(i["W_K"])
        return int(np.argmax(m.evaluate(q_, k_, k_)[1][i["i"]]))
    if t == "masked-weights":  # K = I, Q = scores·√S: the mistakes' scaled scores are the given ones
        scores = np.array(i["scores"], dtype=float)
        s = len(scores)
        eye = np.eye(s)
        return float(
            m.evaluate(scores * math.sqrt(s), eye, eye, np.tril(np.ones((s, s), dtype=bool)))[1][
                i["i"], i["j"]
            ]
        )
    if t in ("padding-mask", "causal-mask"):
        value = m.evaluate([i["length"]], i["S"]) if t == "padding-mask" else m.evaluate(i["S"])
        return quizgen._mask_row(value, i["i"])
    simple = {
        "path-length": lambda: m.evaluate("attention", i["distance"], i["kernel"]),
        "layer-params": lambda: m.evaluate(i["d_model"], i["d_ff"]),
        "ffn-params": lambda: m.evaluate(i["d_model"], i["d_ff"]),
        "score-growth": lambda: m.evaluate(i["S"], i["factor"]),
        "additive-cost": lambda: m.evaluate(i["d"], i["S"]),
        "head-dim": lambda: m.evaluate(i["d_model"], i["h"]),
        "kv-cache-gqa": lambda: m.evaluate(i["layers"], i["G"], i["d_head"], i["tokens"], 2, heads=i["h"]),
        "kv-cache-size": lambda: m.evaluate(i["layers"], i["h"], i["d_head"], i["tokens"], 2),
        "residual-gradient": lambda: m.evaluate(i["factor"], i["layers"]),
        "noam-lr": lambda: m.evaluate(i["step"], i["d_model"], i["warmup"]),
    }
    return float(simple[t]())


THOUSAND = generate_questions(20261130, 1000)


def test_every_template_appears_in_a_thousand_questions():
    assert {q.topic for q in THOUSAND} == set(quizgen.TEMPLATES)


@pytest.mark.parametrize("q", THOUSAND[:300], ids=lambda q: f"{q.id}-{q.topic}")
def test_answer_equals_an_independent_recomputation_and_each_distractor_its_mistake(q):
    if (
        q.topic == "formula-code"
    ):  # code lines: each option is run by PyTorch (tests/quiz/test_template_properties)
        return check_code(q)
    fmt = quizgen.TEMPLATES[q.topic].fmt
    assert _same(q.values[q.answer], oracle(q))
    assert q.options[q.answer] == fmt(oracle(q))
    assert set(q.mistakes) == set(q.options) - {q.answer} and len(set(q.mistakes.values())) == 3
    for letter, mid in q.mistakes.items():
        assert _same(q.values[letter], mistake_value(q, mid)), mid
        assert q.options[letter] == fmt(q.values[letter]) != q.options[q.answer]
    assert len(set(q.options.values())) == 4


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), n=st.integers(min_value=1, max_value=30))
def test_any_seed_gives_right_answers_and_real_mistakes(seed, n):
    for q in generate_questions(seed, n):
        if q.topic == "formula-code":
            check_code(q)
            continue
        assert _same(q.values[q.answer], oracle(q))
        for letter, mid in q.mistakes.items():
            assert _same(q.values[letter], mistake_value(q, mid))


def test_no_tells_over_a_thousand_questions():
    k = 4
    positions = Counter(q.answer for q in THOUSAND)
    for letter in "ABCD":
        assert abs(positions[letter] / len(THOUSAND) - 1 / k) <= 0.03, positions
    longest = sum(
        1
        for q in THOUSAND
        if len(q.options[q.answer]) > max(len(t) for x, t in q.options.items() if x != q.answer)
    )
    assert longest / len(THOUSAND) <= 1 / k, longest
    assert all(list(q.options) == list("ABCD") for q in THOUSAND)  # never a fifth option
    # every option is right in some question (no option that is never right by construction): per template,
    # each mistake also appears, and the right value sits at every position
    for name in quizgen.TEMPLATES:
        of = [q for q in THOUSAND if q.topic == name]
        assert len({q.answer for q in of}) >= min(4, len(of)) - 1, name


def test_stems_name_no_matrix_with_an_option_letter():
    letter = re.compile(r"(?<![A-Za-z_])[A-D](?![A-Za-z_])")
    for q in THOUSAND:
        assert not letter.search(q.prompt), q.prompt
        assert not any(letter.search(t) for t in q.options.values()), q.options


def _written_matrix(prompt: str, name: str) -> list[list[str]] | None:
    """The cells of the matrix ``name`` as a stem writes it (``name =`` then one ``[ … ]`` line a row)."""
    lines = prompt.splitlines()
    if f"{name} =" not in lines:
        return None
    rows = []
    for line in lines[lines.index(f"{name} =") + 1 :]:
        if not line.lstrip().startswith("["):
            break
        rows.append(line.strip().strip("[]").split())
    return rows


def test_card_numbers_are_the_notation_rule_of_every_other_surface():
    """A stem's given matrices are written as the calc screen, the study pane and `drill calc --plain` write the
    same numbers (drill.engine.notation: the matrix by its own numbers, the typographic minus), read back from
    the text against the question's inputs."""
    from drill.engine.notation import number_format

    checked = negative = 0
    for q in THOUSAND:
        for name in ("X", "W_Q", "W_K", "W_V"):
            written = _written_matrix(q.prompt, name)
            if written is None or name not in q.inputs:
                continue
            rows = np.asarray(q.inputs[name]).tolist()
            fmt = number_format(rows)
            assert written == [[fmt(v) for v in row] for row in rows], (q.id, name, q.prompt)
            checked += 1
            negative += any(v < 0 for row in rows for v in row)
    assert checked > 500 and negative > 100, (checked, negative)


def test_card_numbers_against_numbers_written_by_hand():
    from drill.content.generated import format_matrix, format_scalar, format_vector

    assert format_matrix("x", [[1, -2], [0.5, 0]]) == "x =\n  [  1.000  −2.000 ]\n  [  0.500   0.000 ]"
    assert format_matrix("x", [[1, -2], [0, 3]]) == "x =\n  [  1  −2 ]\n  [  0   3 ]"
    assert format_vector([0, -1.1547]) == "[0.000, −1.155]" and format_vector([2.0, -1.0]) == "[2, −1]"
    assert format_scalar(-6.0) == "−6" and format_scalar(0.70710678) == "0.707"
    assert quizgen.base.f3(-0.5) == "−0.500" and quizgen.base.f3(-0.0004) == "0.000"


def test_stems_are_in_the_ui_language():
    """THOUSAND was generated in English (the tests' default); in Chinese the same seed gives Chinese stems
    (tests/i18n/test_generated_words.py holds both languages against the golden record)."""
    from drill.i18n import set_language

    assert not any(re.search(r"[\u4e00-\u9fff]", q.prompt) for q in THOUSAND)
    set_language("zh")
    try:
        chinese = generate_questions(20261130, 100)
    finally:
        set_language("en")
    assert all(re.search(r"[\u4e00-\u9fff]", q.prompt) for q in chinese)
    assert [q.answer for q in chinese] == [q.answer for q in THOUSAND[:100]]


@pytest.mark.parametrize("section", CARD_SECTIONS)
def test_every_card_section_has_questions_and_a_quiz_never_repeats_one(section):
    questions = generate_questions(4, 6, section=section)
    assert len(questions) == 6 and {q.section for q in questions} == {section}
    assert section in sections()
    stems = [q.prompt for q in generate_questions(9, 40)]
    assert len(stems) == len(set(stems))


def test_explanation_names_the_mistake_and_the_section_to_reread():
    q = THOUSAND[0]
    for letter, mid in q.mistakes.items():
        note = q.note_for(letter)
        assert mid in note and f"§{MISTAKES[mid].section}" in note and note in q.explanation
    assert q.note_for(q.answer) == ""


def test_deterministic_for_a_seed():
    assert generate_questions(5, 30) == generate_questions(5, 30)


def test_quiz_mistakes_cite_real_sections_and_the_chapter_words():
    from pathlib import Path

    chapter = (Path(__file__).resolve().parents[2] / "data" / "transformer-chapter-7.md").read_text(
        encoding="utf-8"
    )
    headings = set(re.findall(r"^## (7\.\d+) ", chapter, flags=re.M))
    used = {mid for q in THOUSAND for mid in q.mistakes.values()}
    for mid in used:
        assert MISTAKES[mid].section in headings
        if MISTAKES[mid].verbatim:
            assert MISTAKES[mid].wording in chapter, mid


@pytest.mark.parametrize(
    "text, value",
    [
        ("0.25", 0.25),
        (" .25 ", 0.25),
        ("25%", 0.25),
        ("1/4", 0.25),
        ("−0.5", -0.5),
        ("０．２５", 0.25),
        ("2.5e-1", 0.25),
    ],
)
def test_parse_number_accepts_what_people_type(text, value):
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "  ", "abc", "0.2.5", "1/0", "nan", "inf", "[0.2]", "0,25"])
def test_parse_number_rejects_non_numbers_with_input_error(text):
    with pytest.raises(InputError):
        parse_number(text)


def test_choice_answer_must_be_an_option():
    q = next(q for q in generate_questions(2, 8) if q.kind == CHOICE)
    with pytest.raises(InputError, match="not one of the options"):
        check_answer("Z", q)
    assert check_answer(q.answer.lower(), q)


def test_importing_the_module_does_not_import_numpy():
    code = "import sys, drill.content.generated; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_section_without_generated_questions_is_an_input_error():
    with pytest.raises(InputError, match="no generated questions for section 7.25 .*7.1, 7.2"):
        generate_questions(1, 3, section="7.25")
