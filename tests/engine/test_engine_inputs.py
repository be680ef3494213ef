"""Bad input raises InputError naming the matrix and the shapes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from drill.engine.attention import attention_trace, cross_attention_trace
from drill.engine.parse import parse_mask, parse_matrix
from drill.engine.trace import Step, Trace, from_jsonable
from drill.errors import InputError

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
I2 = np.eye(2)


def test_parse_matrix_forms():
    np.testing.assert_array_equal(parse_matrix("1,0;0,1;1,1", "X"), X)
    np.testing.assert_array_equal(parse_matrix("1 0\n0 1\n1 1\n", "X"), X)
    np.testing.assert_array_equal(parse_matrix(" -1.5e0, 2 ", "X"), [[-1.5, 2]])


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "X: empty matrix"),
        ("   ", "X: empty matrix"),
        (" ; ", r"X: no values between the separators in ';'"),
        (";\n;", "X: no values between the separators"),
        ("1,,2", r"X, row 1 \('1,,2'\): a value is missing between commas"),
        ("1,0;0,1,", r"X, row 2 \('0,1,'\): a value is missing"),
        (",", r"X, row 1 \(','\): a value is missing"),
        ("1,0;0", r"X is ragged: row 2 has 1 values but row 1 has 2 \(a \[2, 2\] matrix"),
        ("1,a", r"X \[1, 2\], row 1, column 2: 'a' is not a number"),
        ("1,nan", r"X \[1, 2\], row 1, column 2 is 'nan'"),
        ("1;inf", r"X \[2, 1\], row 2, column 1 is 'inf'"),
        ("1,-inf", "must be finite"),
    ],
)
def test_parse_matrix_errors(text, fragment):
    with pytest.raises(InputError, match=fragment):
        parse_matrix(text, "X")


def test_parse_mask():
    np.testing.assert_array_equal(parse_mask("1,1,0", 3), [True, True, False])
    assert parse_mask("1,1,0;1,0,0", 3).shape == (2, 3)
    with pytest.raises(InputError, match="has 2 values per row but the sequence has 3 tokens"):
        parse_mask("1,1", 3)
    with pytest.raises(InputError, match="use 1 \\(keep\\) or 0"):
        parse_mask("1,2,0", 3)
    with pytest.raises(InputError, match="empty mask"):
        parse_mask("", 3)


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        (dict(wq=np.eye(3)), r"X is \[3, 2\] \(d_model = 2\) but W_Q is \[3, 3\]"),
        (dict(wk=np.ones((3, 2))), r"W_K is \[3, 2\]: W_K's height must equal X's width \(2\)"),
        (dict(wk=np.ones((2, 3))), r"W_K must be \[2, 2\]"),
        (
            dict(wq=np.ones((2, 3)), wk=np.ones((2, 3)), wv=np.ones((2, 3)), heads=2),
            r"width 3 .* not divisible by heads h = 2",
        ),
        (
            dict(wq=np.ones((2, 4)), wk=np.ones((2, 4)), wv=np.ones((2, 4)), heads=4, kv_heads=3),
            "kv heads G = 3 must divide",
        ),
        (dict(wo=np.ones((3, 2))), r"W_O is \[3, 2\] but the concatenated heads are .* 2 wide"),
        (dict(pad=[1, 1]), r"pad mask is \[2\] but the sequence has 3 key tokens"),
        (dict(pad=[1, 2, 0]), "only 1 \\(keep\\) and 0"),
        (dict(pad=[[1, 1, 0], [1, 1, 1]]), "X has no batch axis"),
        (dict(x=np.zeros((0, 2))), r"X is empty \(\[0, 2\]\)"),
        (dict(x=[[1.0, np.nan]]), r"X \[1, 2\] holds nan at element \(1, 2\), counted from 1"),
        (dict(wv=[[np.inf, 0], [0, 1]]), "W_V .* must be finite"),
        (dict(x=np.ones(2)), r"X must be \[S, d_model\] or \[B, S, d_model\], got \[2\]"),
        (dict(heads=0), "heads must be a positive"),
    ],
)
def test_attention_shape_errors(kwargs, fragment):
    args = dict(x=X, wq=I2, wk=I2, wv=I2)
    args.update(kwargs)
    x, wq, wk, wv = args.pop("x"), args.pop("wq"), args.pop("wk"), args.pop("wv")
    with pytest.raises(InputError, match=fragment):
        attention_trace(x, wq, wk, wv, **args)


def test_batched_pad_batch_mismatch():
    with pytest.raises(InputError, match="batch has B = 2"):
        attention_trace(np.stack([X, X]), I2, I2, I2, pad=np.ones((3, 3)))


def test_cross_attention_width_mismatch():
    with pytest.raises(InputError, match="X_enc is \\[3, 3\\]"):
        cross_attention_trace(X, np.ones((3, 3)), I2, I2, I2)


def test_trace_json_carries_infinities_as_strings():
    trace = attention_trace(X, I2, I2, I2, causal=True)
    data = json.loads(trace.to_json())  # strict JSON: no bare Infinity
    masked = next(s for s in data["steps"] if s["name"] == "masked")
    assert masked["values"][0][1] == "-inf"
    np.testing.assert_array_equal(from_jsonable(masked["values"]), trace["masked"].output)
    assert masked["dims"] == [3, 3] and masked["shape"] == "[S, S]"
    assert data["inputs"]["X"] == X.tolist()


def test_trace_lookup_and_duplicates():
    trace = attention_trace(X, I2, I2, I2)
    assert trace["softmax"].name == "softmax" and "softmax" in trace and len(trace) == len(trace.names())
    with pytest.raises(KeyError, match="no step 'nope'"):
        trace["nope"]
    step = trace.steps[0]
    with pytest.raises(ValueError, match="duplicate step names"):
        Trace("t", (step, step))
    assert isinstance(step, Step)
