"""Every code diagnosis true: `drill code TASK --check FILE` as a learner runs it (a subprocess), in English and in
Chinese, on each submission the issue found misdiagnosed. The oracle is what the submission does (written by hand
in tests/code/submissions.py or below, labelled before the run), not the catalogue's matching.

- softmax without the max on float64: the chapter's "FP16 下 e⁸⁹" is quoted with the correction beside it (float64
  overflows at e^709.78, FP16 at e^11.09);
- an inverted mask on the SDPA-convention task: the chapter's "PyTorch attn_mask 用 True=遮住" with the correction
  that SDPA's True = attend;
- a causal mask on the decoding step: drill's own wording, not the chapter's "推理时不用 causal mask";
- −1e9 instead of −∞: named mask-fill-large-negative, not "填 0";
- attending before appending to the KV cache: named append-after-attend on every step (not causal-mask-on-step at
  t = 1), and every one of the 5 steps fails (the current token always counts);
- `S = Q @ K.T` on batched input: named transpose-all-axes with the chapter's `transpose(-2, -1)`, not a bare
  numpy error;
- dividing by √S_k: named scale-by-sqrt-sk on every failing case (never scale-by-dk), first diverging step scale;
- every mismatch line states that its indices count from 1.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.code.submissions import WRONG, _attention

CORRECT_ATTENTION_SCALE = "math.sqrt(Q.shape[-1])"
SUBMISSIONS = {
    "sqrt-sk": ("attention", _attention(scale="math.sqrt(K.shape[-2])")),
    "minus-1e9": ("attention", _attention(fill="-1e9")),
    "k-dot-t": ("attention", _attention(scores="Q @ K.T")),
    "no-max": ("softmax", WRONG["softmax/no-max-subtraction"]),
    "inverted": ("attention", WRONG["attention/mask-inverted"]),
    "kv-tril": ("kv_cache_step", WRONG["kv_cache_step/causal-mask-on-step"]),
    "kv-after": ("kv_cache_step", WRONG["kv_cache_step/append-after-attend"]),
}
SEEDS = ("3", "11")


def run(tmp_path, name, lang, seed, *extra):
    task, code = SUBMISSIONS[name]
    path = tmp_path / f"{name}.py"
    path.write_text(code, encoding="utf-8")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "drill",
            "--lang",
            lang,
            "code",
            task,
            "--check",
            str(path),
            "--seed",
            seed,
            *extra,
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1, (
        r.stdout + r.stderr
    )  # a failing submission: exit 1, never a traceback of drill's
    return r.stdout


def failing(doc):
    return [c for c in doc["cases"] if c["status"] != "pass"]


@pytest.fixture(params=["en", "zh"])
def lang(request):
    return request.param


def test_softmax_without_max_quotes_fp16_with_the_float64_correction(tmp_path, lang):
    out = run(tmp_path, "no-max", lang, "3")
    assert "softmax/no-max-subtraction" in out
    assert "FP16 下 e⁸⁹ 就溢出了" in out  # the chapter's words, as written
    assert ("float64 overflows at e^709.78" if lang == "en" else "float64 在 e^709.78 才溢出") in out
    assert "e^11.09" in out


def test_inverted_mask_on_the_sdpa_task_says_sdpa_true_means_attend(tmp_path, lang):
    out = run(tmp_path, "inverted", lang, "3")
    assert "attention/mask-inverted" in out
    assert ("True = takes part in attention" if lang == "en" else "True = 参与注意力") in out


def test_causal_mask_on_the_step_is_named_in_drills_words(tmp_path, lang):
    for seed in SEEDS:
        out = run(tmp_path, "kv-tril", lang, seed)
        assert "kv_cache_step/causal-mask-on-step" in out
        assert "推理时不用 causal mask" not in out  # the chapter's (corrected) claim is not a mistake's name
        assert ("1 × (t+1)" in out) and ("prefill" in out)


@pytest.mark.parametrize("seed", SEEDS)
def test_minus_1e9_is_its_own_mistake_not_fill_zero(tmp_path, seed):
    doc = json.loads(run(tmp_path, "minus-1e9", "en", seed, "--json"))
    bad = failing(doc)
    assert [c["name"] for c in bad] == ["fully-masked-row"]  # equivalent everywhere else
    assert bad[0]["mistake"]["id"] == "attention/mask-fill-large-negative"
    assert bad[0]["step"] == "mask"


@pytest.mark.parametrize("seed", SEEDS)
def test_append_after_attend_fails_every_step_and_is_named_so(tmp_path, seed):
    doc = json.loads(run(tmp_path, "kv-after", "en", seed, "--json"))
    bad = failing(doc)
    assert [c["name"] for c in bad] == [f"step-{t}" for t in range(1, 6)]  # every step counts
    assert {c["mistake"]["id"] for c in bad} == {"kv_cache_step/append-after-attend"}


@pytest.mark.parametrize("seed", SEEDS)
def test_k_dot_t_on_batched_input_is_named_with_the_chapters_warning(tmp_path, seed, lang):
    doc = json.loads(run(tmp_path, "k-dot-t", lang, seed, "--json"))
    raised = [c for c in failing(doc) if c["status"] == "error"]
    assert raised, "no batched case raised: the test would not test the raw-error path"
    assert {c["mistake"]["id"] for c in failing(doc)} == {"attention/transpose-all-axes"}
    out = run(tmp_path, "k-dot-t", lang, seed)
    assert "transpose(-2, -1)" in out and "attention/transpose-all-axes" in out


@pytest.mark.parametrize("seed", [str(s) for s in range(1, 9)])
def test_sqrt_sk_is_never_called_scale_by_dk_and_diverges_at_scale(tmp_path, seed):
    doc = json.loads(run(tmp_path, "sqrt-sk", "en", seed, "--json"))
    bad = failing(doc)
    assert bad
    assert {c["mistake"]["id"] for c in bad} == {"attention/scale-by-sqrt-sk"}
    assert {c["step"] for c in bad} == {"scale"}


def test_every_mismatch_line_states_the_index_convention(tmp_path, lang):
    note = "(indices count from 1)" if lang == "en" else "（下标从 1 数起）"
    for name in ("sqrt-sk", "no-max", "minus-1e9", "kv-after"):
        out = run(tmp_path, name, lang, "3")
        lines = [line for line in out.splitlines() if (" differs at " in line or " 处不同" in line)]
        assert lines, name
        assert all(note in line for line in lines), (name, lines)
