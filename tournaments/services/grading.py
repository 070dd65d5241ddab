"""Slips graded by the tournament's setting against the round's top (§3.4), and their grades stored."""

from __future__ import annotations

from django.utils import timezone

from engine.grading import Grade, Mode, grade_text
from engine.messages import languages
from engine.movegen import Position
from tournaments.models import Round, Submission
from tournaments.services.tops import position_of, round_compute_top


def grade(rnd: Round, position: Position, slip_text: str) -> Grade:
    """A slip graded by the tournament's setting against the round's top (§3.4)."""
    return grade_text(position, slip_text, Mode(rnd.game.tournament.grading), top=rnd.top_score)


def grade_fields(result: Grade) -> dict:
    return {
        "paid": result.paid,
        "sanction": result.sanction.value,
        "reason": result.reason.value if result.reason else "",
        "message": result.message.text("fr")[:300],
        "message_en": result.message.text("en")[:300],
        "message_more": {
            lang: result.message.text(lang)[:300] for lang in languages() if lang not in ("fr", "en")
        },
        "graded_at": timezone.now(),
    }


def store_grade(sub: Submission, result: Grade) -> None:
    fields = grade_fields(result)
    for key, value in fields.items():
        setattr(sub, key, value)
    sub.save(update_fields=list(fields))


def grade_all(rnd: Round) -> None:
    if rnd.top_state != Round.TopState.READY:
        rnd = round_compute_top(round_id=rnd.pk)
    position = position_of(rnd.game, rnd)
    grades: dict[str, Grade] = {}  # many players hand in the same slip (the top): grade it once
    for sub in rnd.submissions.filter(graded_at__isnull=True):
        text = sub.slip_text()
        if text not in grades:
            grades[text] = grade(rnd, position, text)
        store_grade(sub, grades[text])
