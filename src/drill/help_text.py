"""`drill --help` as click renders it at 80+ columns, in each UI language, served by drill.entry without
importing click.

Generated (after the catalogs are compiled):
    python -c "from drill.cli import render_help; print({l: render_help(l) for l in ('en', 'zh')})"
tests/test_cli.py fails when it drifts from the real command line."""

HELP_TEXTS = {
    'en': "Usage: drill [OPTIONS] COMMAND [ARGS]...\n\n  Drill for Transformer interviews: spaced-repetition review, timed quizzes\n  and the attention maths step by step, from the course chapter.\n\nOptions:\n  --version       Show the version and exit.\n  --lang [en|zh]  Language of drill's own words: zh or en (default: the\n                  ui.language setting, else the locale).\n  -h, --help      Show this message and exit.\n\nCommands:\n  study     Review the cards that are due, graded 1-4.\n  quiz      Timed multiple choice, with the explanations.\n  calc      Step through the attention maths, X → softmax → A·V.\n  report    Where you stand: retention, forecast, weakest cards.\n  export    Export the cards as an Anki deck.\n  code      Write attention yourself: TASK's hidden tests grade the...\n  check     Validate content and check its printed numbers.\n  config    Show or change the settings.\n  backup    Back up the progress database.\n  restore   Restore the progress database from a backup.\n  optimize  Fit FSRS-6 weights to your review history.\n",
    'zh': "用法: drill [OPTIONS] COMMAND [ARGS]...\n\n  为 Transformer 面试练习：间隔重复复习、限时测验，以及逐步演算的注意力计算，\n  全部出自课程章节。\n\n选项:\n  --version       显示版本后退出。\n  --lang [en|zh]  drill 自身文字的语言：zh 或 en（默认：ui.language 设置，否则\n                  按系统区域设置）。\n  -h, --help      显示此帮助后退出。\n\n命令:\n  study     复习到期的卡片，按 1-4 评分。\n  quiz      限时选择题，附解析。\n  calc      逐步演算注意力：X → softmax → A·V。\n  report    学习现状：记忆保持率、预测、最薄弱的卡片。\n  export    把卡片导出为 Anki 牌组。\n  code      Write attention yourself: TASK's hidden tests grade the...\n  check     校验内容，并核对其中印出的数字。\n  config    查看或修改设置。\n  backup    备份学习进度数据库。\n  restore   从备份恢复学习进度数据库。\n  optimize  按你的复习记录拟合 FSRS-6 权重。\n",
}
