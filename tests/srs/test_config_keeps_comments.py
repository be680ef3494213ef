"""`drill config set` / `reset` and `drill optimize` (drill.srs.config.set_values) edit drill.toml in place:
the user's comments, blank lines and untouched values stay as written (tomlkit), only the set key changes."""

from __future__ import annotations

import tomllib

from drill.srs.config import load_config, reset_value, set_value, set_values

WRITTEN = """\
# my drill settings: kept by every `drill config set`
desired_retention = 0.9  # what my exam needs

# new cards: slow while travelling
new_per_day = 5

[ui]
# Chinese for the interview practice
language = "zh"
"""


def test_set_keeps_comments_and_other_values(tmp_path):
    path = tmp_path / "drill.toml"
    path.write_text(WRITTEN, encoding="utf-8")
    set_value("new_per_day", "12", path)
    text = path.read_text(encoding="utf-8")
    for comment in (
        "# my drill settings: kept by every `drill config set`",
        "desired_retention = 0.9  # what my exam needs",
        "# new cards: slow while travelling",
        "# Chinese for the interview practice",
        'language = "zh"',
    ):
        assert comment in text, (comment, text)
    assert "new_per_day = 12" in text and "new_per_day = 5" not in text
    assert tomllib.loads(text)["new_per_day"] == 12
    assert load_config(path).new_per_day == 12


def test_many_values_reset_and_a_new_file(tmp_path):
    path = tmp_path / "drill.toml"
    path.write_text(WRITTEN, encoding="utf-8")
    set_values({"maximum_interval": 3650, "desired_retention": 0.85}, path)
    text = path.read_text(encoding="utf-8")
    assert "# my drill settings" in text and "# Chinese for the interview practice" in text
    assert load_config(path).desired_retention == 0.85
    reset_value("new_per_day", path)
    text = path.read_text(encoding="utf-8")
    assert "new_per_day" not in tomllib.loads(text) and "# my drill settings" in text
    fresh = tmp_path / "new" / "drill.toml"
    set_value("ui.language", "en", fresh)
    assert tomllib.loads(fresh.read_text(encoding="utf-8")) == {"ui": {"language": "en"}}
