"""The answer judge against the hand-written labels (tests/judge/labels), per set and language.

    python benchmarks/judge_accuracy.py [-v]

Prints, for the tuning set and the held-out set, per language: point-label agreement (goal >= 0.85), the false
"covered" rate among points labelled not covered (<= 0.10), misconception recall (>= 0.8) and the share of
answers with a false alarm (<= 0.05). -v lists every answer the judge and the label disagree on.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.judge.labelled import GOALS, SETS, figures, load


def main() -> int:
    verbose = "-v" in sys.argv
    print(
        f"{'set':8} {'lang':4} {'answers':>7} {'agreement':>9} {'false cov':>9} {'recall':>7} {'false al':>8}  goals: "
        f">= {GOALS['agreement']}, <= {GOALS['false_covered']}, >= {GOALS['recall']}, <= {GOALS['false_alarms']}"
    )
    ok = True
    for name in SETS:
        for lang, f in sorted(figures(load(name)).items(), reverse=True):
            ok &= f.meets_goals()
            print(
                f"{name:8} {lang:4} {f.answers:7} {f.agreement:9.3f} {f.false_covered_rate:9.3f} "
                f"{f.recall:7.3f} {f.false_alarm_rate:8.3f}  {'ok' if f.meets_goals() else 'BELOW GOAL'}"
            )
            if verbose:
                for miss in f.misses:
                    print("    " + miss)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
