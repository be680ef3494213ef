"""The hostile-input corpus (issue 11, items 11-14): every case runs the real `drill` in a new process.

Each case asserts what a learner sees: a non-zero exit, exactly one ``drill: error:`` line naming the problem,
and no ``Traceback`` — or, for a reader that closes the pipe early, a quiet exit 0. The machine's own refusals
are real ones: ``/dev/full``, a pipe whose reading end is closed, a read-only filesystem (a tmpfs mounted
read-only in a private mount namespace, or a mode-0555 directory for a non-root user), an address-space
limit. Cases are data (``CASES``) so the corpus grows by one line per case.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from drill.content.latex import MAX_NESTING
from drill.content.yamlio import MAX_FIELD_CHARS, MAX_FILE_BYTES

SHIPPED = Path(__file__).resolve().parents[2] / "data"
TIMEOUT_S = 180
HUGE_INT = "9" * 5000  # past Python's 4,300-digit limit for int(text)


def run_drill(*args: str, stdout=subprocess.PIPE, env=None, preexec_fn=None, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "drill", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=TIMEOUT_S,
        env=env,
        preexec_fn=preexec_fn,
        cwd=cwd,
    )


def assert_one_error_line(out, *fragments: str) -> str:
    """Non-zero exit, exactly one line on stderr, ``drill: error: …``, no traceback; returns the line."""
    assert out.returncode != 0, out
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("drill: error: "), out.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------------------------------------- content packs


def write_pack(root: Path, *, answer: str = "自注意力。", bank: str | None = None, extra: str = "") -> Path:
    pack = root / "pack"
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "questions.yaml").write_text(
        "pack: hostile\n"
        "title: Hostile pack\n"
        "cards:\n"
        "  - id: q01\n"
        '    section: "7.1"\n'
        + (f"    bank: {bank}\n" if bank is not None else "")
        + "    tags: [attention]\n"
        "    question: 为什么需要 Attention？\n"
        f"    answer: {answer}\n" + extra,
        encoding="utf-8",
    )
    return pack


def nested_frac(depth: int) -> str:
    return "\\frac{" * depth + "x" + "}{2}" * depth


@dataclass
class PackCase:
    """A pack built by ``make(tmp_path)``; `drill check` must refuse it naming ``fragments``."""

    make: object
    fragments: list[str] = field(default_factory=list)


PACK_CASES = {
    "5000-digit integer": PackCase(
        lambda tmp: write_pack(tmp, bank=HUGE_INT),
        ["questions.yaml:6:", "cards[0].bank", "5,000 characters", "too long"],
    ),
    "frac nested 1000 deep": PackCase(
        lambda tmp: write_pack(tmp, answer=f"'${nested_frac(1000)}$'"),
        ["questions.yaml:8:", "cards[0].answer", "nests 1000 levels", f"at most {MAX_NESTING}"],
    ),
    "braces nested 5000 deep": PackCase(
        lambda tmp: write_pack(tmp, answer="'$" + "{" * 5000 + "x" + "}" * 5000 + "$'"),
        ["questions.yaml:8:", "cards[0].answer", "nests 5000 levels"],
    ),
    "left nested 300 deep": PackCase(
        lambda tmp: write_pack(tmp, answer="'$" + "\\left(" * 300 + "x" + "\\right)" * 300 + "$'"),
        ["questions.yaml:8:", "cards[0].answer", "nests 300 levels"],
    ),
    "environments nested 40 deep": PackCase(
        lambda tmp: write_pack(
            tmp, answer="'$" + "\\begin{pmatrix}" * 40 + "x" + "\\end{pmatrix}" * 40 + "$'"
        ),
        ["questions.yaml:8:", "cards[0].answer", "nests 40 levels"],
    ),
    "a field over the length cap": PackCase(
        lambda tmp: write_pack(tmp, answer="答" * (MAX_FIELD_CHARS + 1)),
        ["questions.yaml:8:", "cards[0].answer", f"over the limit of {MAX_FIELD_CHARS:,}"],
    ),
    "a file over the size cap": PackCase(
        lambda tmp: write_pack(tmp, extra="# " + "x" * MAX_FILE_BYTES + "\n"),
        ["questions.yaml:", f"larger than {MAX_FILE_BYTES // 2**20} MB"],
    ),
}


@pytest.mark.parametrize("case", sorted(PACK_CASES))
def test_a_hostile_pack_is_one_line_naming_file_line_and_field(case, tmp_path):
    spec = PACK_CASES[case]
    pack = spec.make(tmp_path)
    out = run_drill("check", str(pack))
    assert_one_error_line(out, str(pack / "questions.yaml"), *spec.fragments)
    assert out.returncode == 2


def _address_space_limit(limit: int):
    def set_limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return set_limit


def test_a_sparse_8_gb_content_file_is_refused_without_being_read(tmp_path):
    """The 8 GB file of the issue (sparse: no disk used); before, drill read it whole and died of MemoryError.
    The child may map at most 2 GB, so a regression fails this test instead of exhausting the machine."""
    pack = write_pack(tmp_path)
    with (pack / "questions.yaml").open("r+b") as stream:
        stream.truncate(8 * 2**30)
    out = run_drill("check", str(pack), preexec_fn=_address_space_limit(2 * 2**30))
    assert_one_error_line(out, "questions.yaml", f"larger than {MAX_FILE_BYTES // 2**20} MB")


def test_the_nesting_bound_is_far_above_the_shipped_chapter():
    """The bound refuses nothing real: the shipped pack loads, and a formula at the bound is accepted."""
    out = run_drill("check", str(SHIPPED))
    assert out.returncode == 0, out.stderr


def test_a_formula_at_the_nesting_bound_is_accepted(tmp_path):
    pack = write_pack(tmp_path, answer=f"'${nested_frac(MAX_NESTING)}$'")
    out = run_drill("check", str(pack))
    assert "Traceback" not in out.stderr
    assert "nests" not in out.stderr
    assert out.returncode == 0, out.stderr


# ------------------------------------------------------------------------------------ what the machine refuses


def test_output_to_dev_full_is_one_line(tmp_path):
    for args in (["calc", "--plain"], ["calc", "--json"], ["check", str(SHIPPED)], ["--help"]):
        with open("/dev/full", "w") as full:
            out = run_drill(*args, stdout=full)
        assert_one_error_line(out, "No space left on device")


def _progress_db(tmp_path: Path) -> str:
    from drill.content import load_content
    from drill.store import open_store

    url = f"sqlite:///{tmp_path / 'progress.sqlite3'}"
    with open_store(url, "tester") as store:
        store.sync_content(load_content(SHIPPED))
        for i, card in enumerate(("q01", "q02", "q03")):
            store.grade(card, 3, datetime(2026, 3, 2, 9, i, tzinfo=UTC))
    return url


@pytest.mark.parametrize(
    "args",
    [
        ["report"],
        ["report", "--format", "json"],
        ["check", str(SHIPPED)],
        ["calc", "--plain"],
        ["calc", "--json"],
        ["--help"],
    ],
)
def test_a_closed_pipe_ends_drill_quietly_with_exit_0(args, tmp_path):
    env = {**os.environ, "DRILL_DB_URL": _progress_db(tmp_path)} if args[0] == "report" else None
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "w") as stdout:
        out = run_drill(*args, stdout=stdout, env=env)
    assert out.stderr == ""
    assert out.returncode == 0


def test_report_into_head_1_is_quiet(tmp_path):
    """The shell's own pipeline, as the issue ran it (whether head closes before drill writes or not)."""
    env = {**os.environ, "DRILL_DB_URL": _progress_db(tmp_path)}
    shell = f"{sys.executable} -m drill report | head -1 > /dev/null; echo ${{PIPESTATUS[0]}} >&2"
    out = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
    assert out.stderr.strip() == "0", out.stderr


def _read_only_target(tmp_path: Path) -> tuple[list[str], Path]:
    """A directory drill cannot write to: a read-only tmpfs for root (who ignores file modes), else mode 0555."""
    target = tmp_path / "readonly"
    target.mkdir()
    if os.geteuid() != 0:
        target.chmod(0o555)
        return [], target
    unshare = shutil.which("unshare")
    assert unshare, "root without unshare(1): no way to make a read-only filesystem here"
    return [unshare, "-m", "sh", "-c", f'mount -t tmpfs -o ro tmpfs "{target}" && exec "$0" "$@"'], target


def test_export_anki_onto_a_read_only_filesystem_is_one_line(tmp_path):
    wrapper, target = _read_only_target(tmp_path)
    apkg = target / "deck.apkg"
    out = subprocess.run(
        [*wrapper, sys.executable, "-m", "drill", "export", "--anki", str(apkg)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    line = assert_one_error_line(out, str(target))
    assert "Read-only file system" in line or "Permission denied" in line
    assert not apkg.exists()


MEMORY_CHILD = """
import resource, sys
from drill.cli import main

def run(args):
    try:
        main(args)
    except SystemExit as done:
        return done.code

assert run(["check", sys.argv[1]]) == 0  # every module check needs is imported: only the load is left
with open("/proc/self/statm") as f:
    used = int(f.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (used + 24 * 2**20, resource.RLIM_INFINITY))
sys.exit(run(["check", sys.argv[2]]))
"""


def test_memory_error_is_one_line(tmp_path):
    """A pack under every cap that still needs more memory than the process may have: MemoryError is one line."""
    small = write_pack(tmp_path / "small")
    big = tmp_path / "big"
    big.mkdir()
    cards = ["pack: big\ntitle: Big\ncards:\n"]
    answer = "答" * (MAX_FIELD_CHARS - 1)
    for i in range(30):
        cards.append(
            f'  - id: c{i}\n    section: "7.1"\n    tags: [a]\n    question: q{i}\n    answer: {answer}\n'
        )
    (big / "questions.yaml").write_text("".join(cards), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD, str(small), str(big)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert_one_error_line(out, "out of memory")


# ------------------------------------------------------------------------------------------------ drill calc

CALC_MATRIX_CASES = {
    "1e308 (scores would overflow)": ("1e308,1;1,1", ["row 1, column 1", "magnitude at most 1e+15"]),
    "1e308*10 (reads as inf)": ("1e309,1", ["'1e309'", "magnitude at most 1e+15"]),
    "nan": ("nan,1;1,1", ["'nan'", "must be finite"]),
    "-inf": ("1,-inf", ["'-inf'", "must be finite"]),
    "Arabic-Indic digits": ("١,٢;٣,٤", ["U+0661 ARABIC-INDIC DIGIT ONE", "not an ASCII digit"]),
    "Arabic-Indic zero that looks like a dot": ("1٠5", ["U+0660 ARABIC-INDIC DIGIT ZERO"]),
    "5000-digit value": (HUGE_INT, ["'99999999999999999999…'", "magnitude at most"]),
}


@pytest.mark.parametrize("case", sorted(CALC_MATRIX_CASES))
@pytest.mark.parametrize("output", ["--plain", "--json"])
def test_calc_refuses_a_hostile_matrix_in_one_line(case, output):
    text, fragments = CALC_MATRIX_CASES[case]
    out = run_drill("calc", output, "--x", text)
    line = assert_one_error_line(out, "X (--x)", *fragments)
    assert out.returncode == 2 and out.stdout == ""
    assert "RuntimeWarning" not in out.stderr and len(line) < 400


def assert_usage_error(out, option: str, *fragments: str) -> None:
    """click's refusal of an option value, in drill's format: exit 2, one "drill: error: <command>: Invalid
    value for '--x': …" line and nothing else, no traceback, and the value never echoed whole."""
    assert out.returncode == 2, out
    line = assert_one_error_line(out, f"Invalid value for '{option}': ", *fragments)
    assert len(line) < 600, line


@pytest.mark.parametrize(
    "option,value,fragments",
    [
        pytest.param("--tokens", HUGE_INT, ["has 5,000 digits; at most 18"], id="tokens-5000-digits"),
        pytest.param("--seed", HUGE_INT, ["has 5,000 digits"], id="seed-5000-digits"),
        pytest.param("--d-model", HUGE_INT, ["has 5,000 digits"], id="d-model-5000-digits"),
        pytest.param("--decimals", HUGE_INT, ["has 5,000 digits"], id="decimals-5000-digits"),
        pytest.param("--tokens", "٣", ["U+0663 ARABIC-INDIC DIGIT THREE"], id="tokens-arabic-indic"),
        pytest.param("--heads", "३", ["U+0969 DEVANAGARI DIGIT THREE"], id="heads-devanagari"),
        pytest.param("--decimals", "١", ["U+0661 ARABIC-INDIC DIGIT ONE"], id="decimals-arabic-indic"),
        pytest.param("--seed", "-1", ["-1 is not in the range x>=0"], id="seed-negative"),
    ],
)
def test_calc_refuses_a_hostile_numeric_option(option, value, fragments):
    out = run_drill("calc", "--plain", option, value)
    assert_usage_error(out, option, *fragments)


@pytest.mark.parametrize(
    "command,option",
    [
        (("quiz",), "--count"),
        (("quiz",), "--seed"),
        (("study",), "--limit"),
        (("interview",), "--questions"),
        (("interview",), "--seed"),
        (("backup",), "--keep"),
        (("code", "scaled-dot-product"), "--seed"),
    ],
)
@pytest.mark.parametrize(
    "value,fragment",
    [(HUGE_INT, "has 5,000 digits"), ("\u0663", "U+0663 ARABIC-INDIC DIGIT THREE")],
    ids=["5000-digits", "arabic-indic"],
)
def test_every_commands_whole_number_options_use_the_one_rule(command, option, value, fragment):
    """Not only drill calc: every integer option reads typed numbers by drill.engine.parse's rule (before,
    `drill quiz --count ٣` was silently read as 3 by click's int)."""
    out = run_drill(*command, option, value)
    assert_usage_error(out, option, fragment)


def test_full_width_input_is_read_as_ascii_deliberately():
    """A Chinese input method's full-width digits and separators, and drill's own U+2212 minus, give exactly
    the trace of the ASCII text."""
    ascii_run = run_drill("calc", "--json", "--x", "1,-0.5;0,1;1,1", "--heads", "2")
    wide_run = run_drill("calc", "--json", "--x", "１，−０．５；０，１；１，１", "--heads", "２")
    assert ascii_run.returncode == 0 and wide_run.returncode == 0, wide_run.stderr
    assert wide_run.stdout == ascii_run.stdout
    assert wide_run.stderr == ""
    ascii_random = run_drill("calc", "--json", "--seed", "7", "--tokens", "3", "--d-model", "4")
    wide_random = run_drill("calc", "--json", "--seed", "７", "--tokens", "３", "--d-model", "４")
    assert ascii_random.returncode == 0 and wide_random.stdout == ascii_random.stdout


def test_values_at_the_cap_give_no_nan_and_no_numpy_warning():
    big = "1e15"
    x = f"{big},-{big};{big},{big}"
    out = run_drill("calc", "--json", "--x", x, "--wq", x, "--wk", x, "--wv", x, "--causal")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""  # no RuntimeWarning on the terminal
    assert "NaN" not in out.stdout and "Infinity" not in out.stdout.replace("-Infinity", "")


def test_a_5000_digit_port_in_a_db_url_is_one_line():
    out = run_drill("report", "--db", f"postgresql+psycopg://u@localhost:{HUGE_INT}/drill")
    assert_one_error_line(out, "--db", "port must be a number")
