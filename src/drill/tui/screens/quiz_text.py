"""What `drill quiz` shows of a question, as text: its meta line, its sentence and givens, and the feedback once
it is answered (the verdict, the named mistake or drill's note on the option chosen, the explanation, and drill's
note on each other wrong option). The screen (tui/screens/quiz.py) owns the state and puts these on screen."""

from __future__ import annotations

from rich.text import Text

from drill.i18n import _
from drill.tui.models.quiz import WORK_NAMES, QuizItem, Result
from drill.tui.text import visible


def meta_text(item: QuizItem) -> Text:
    """The line above the question: its section, id, and whether it is the chapter's or generated (and its
    kind of work)."""
    meta = Text(no_wrap=True, overflow="ellipsis")
    meta.append(f"§{visible(item.section)}", style="bold")
    meta.append(f" · {visible(item.id)}")
    meta.append(" · " + (_("chapter quiz") if item.kind == "chapter" else _("generated from the engine")))
    if item.work is not None:
        meta.append(" · " + _(WORK_NAMES[item.work]))
    return meta


def stem_parts(stem: str) -> tuple[Text, Text | None]:
    """The question's sentence in bold, and the givens after its first blank line (a generated question's
    matrices) plain, or None when there are none."""
    question, sep, givens = visible(stem).partition("\n\n")
    return Text(question, style="bold"), (Text(givens) if sep else None)


def why_not_text(item: QuizItem, key: str) -> Text:
    """drill's note on why a chapter quiz's option is wrong, marked as drill's, then the words of the chapter's
    explanation it rests on (in 「」, marked as the chapter's) when it quotes them."""
    note, quote = item.why_wrong.get(key, ("", None))
    option = item.option_by_key(key)
    text = Text()
    text.append(_("Why not {letter} (drill): ").format(letter=option.letter if option else key), style="bold")
    text.append(visible(note))
    if quote:
        text.append(
            "\n  " + _("the chapter's explanation: 「{quote}」").format(quote=visible(quote)), style="dim"
        )
    return text


def feedback_text(result: Result, *, save_error: str | None, last: bool) -> Text:
    """The feedback on an answer; ``save_error`` (the store's, when the answer is not on disk) is shown under
    the verdict, and the last line says what enter does (the score, when ``last``)."""
    item = result.item
    feedback = Text()
    if result.correct:
        feedback.append(_("✓ Right."), style="bold")
        if item.numeric:
            feedback.append("  " + _("The answer is {answer}.").format(answer=item.answer_text()))
    elif result.timed_out:
        feedback.append(_("⏱ Time's up"), style="bold")
        feedback.append(
            " " + _("(counts as wrong). The answer is {answer}.").format(answer=visible(item.answer_text()))
        )
    else:
        feedback.append(_("✗ Wrong."), style="bold")
        if item.numeric:
            feedback.append("  " + _("You typed {answer}.").format(answer=visible(result.chosen or "")))
        feedback.append("  " + _("The answer is {answer}.").format(answer=visible(item.answer_text())))
        note = item.why_not(result.chosen or "")
        if note and item.question is not None:  # the named mistake behind the option, the section to reread
            feedback.append("\n")
            feedback.append(_("Your option is what this mistake gives: "), style="bold")
            feedback.append(visible(note))
        elif note:  # a chapter quiz: drill's note on the option chosen, and the chapter's words it rests on
            feedback.append("\n")
            feedback.append_text(why_not_text(item, result.chosen or ""))
    if save_error is not None:
        feedback.append("\n")
        feedback.append("⚠ " + _("Not saved: {error}").format(error=visible(save_error)), style="bold")
    feedback.append("\n\n")
    feedback.append(visible(item.explanation))
    others = [o for o in item.options if o.key != item.answer and o.key != result.chosen]
    if item.question is None and any(item.why_wrong.get(o.key) for o in others):
        feedback.append("\n\n")
        heading = (
            _("The other wrong options:") if result.chosen in item.why_wrong else _("The wrong options:")
        )
        feedback.append(heading, style="bold")
        for option in others:
            feedback.append("\n")
            feedback.append_text(why_not_text(item, option.key))
    feedback.append("\n\n")
    feedback.append("enter  " + (_("see your score") if last else _("next question")), style="dim")
    return feedback
