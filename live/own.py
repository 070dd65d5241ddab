"""A phone's own result after a round (its slip's grade, its total, négatif, percentage, rank and
solos; once the game is over, the links to its reviews), written in Python: at a round's close the
whole room's results are made at once and each phone is sent its own (``live.broadcast``),
1,500 of them in a hall; the page and the polled status show the same (``templatetags.phone_parts``)."""

from __future__ import annotations

import functools
from html import escape

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext


def languages(tournament=None) -> list[str]:
    """The languages a room's messages and each phone's own result are made in: its sheets' and
    those its phones read (``note_language``); every interface language without a tournament.  A
    room of one language makes its 1,500 results once at a close, not once per interface language."""
    every = [code for code, _name in settings.LANGUAGES]
    if tournament is None:
        return every
    wanted = {tournament.sheet_language, *(tournament.room_languages or ())}
    return [code for code in every if code in wanted]


def note_language(tournament, lang: str) -> None:
    """A phone of the room reads ``lang``: the room's messages are made in it from now on.  Saving
    the tournament moves the room's mark, so every process writes its next state in it too."""
    if lang not in dict(settings.LANGUAGES) or lang in languages(tournament):
        return
    from tournaments.models import Tournament

    with transaction.atomic():
        row = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if lang not in row.room_languages:
            row.room_languages = [*row.room_languages, lang]
            row.save(update_fields=["room_languages"])
    tournament.room_languages = row.room_languages


#: The words every result says, looked up once per language (a close writes 1,500 results, in each).
_WORDS = (
    "0 — aucun bulletin remis.", "solo : +%(value)s", "Scores", "Total", "négatif", "rang", "solos",
    "Partie %(number)s :", "Tournoi :",
)  # fmt: skip


@functools.cache
def _words(lang: str) -> dict[str, str]:
    with translation.override(lang):
        words = {word: gettext(word) for word in _WORDS}
        words["decimal"] = formats.get_format("DECIMAL_SEPARATOR", lang)
    return words


def own_html(screen, lang: str, solo_value: int = 0) -> str:
    """What only this player's phone shows of a closed round, in ``lang``: "" before the close, or
    for a player the ranking does not hold yet (registered since)."""
    standing = screen.standing
    if standing is None or screen.player is None:
        return ""
    words = _words(lang)
    html = _line(screen, lang, solo_value, words)
    on_scores, solos = standing.on_scores, standing.solos
    if standing.game is None:
        html += _standing(standing, words, on_scores=on_scores, solos=solos)
    else:  # the game's ranking, as the room's screens show it, then the tournament's
        game = words["Partie %(number)s :"] % {"number": screen.round.game.number}
        html += _standing(standing.game, words, on_scores=on_scores, solos=None, label=game)
        html += _standing(standing, words, on_scores=on_scores, solos=solos, label=words["Tournoi :"])
    if screen.phase != "ended":
        return html
    with translation.override(lang):
        return html + _links(screen)


def _line(screen, lang: str, solo_value: int, words: dict[str, str]) -> str:
    sub, standing = screen.submission, screen.standing
    if sub is not None and sub.graded_at:
        sanction = f"sanction-{escape(sub.sanction or 'none')}"
        said = sub.said(lang)
    else:
        sanction, said = "sanction-zero", words["0 — aucun bulletin remis."]
    solo = ""
    if standing.solo_now:
        solo = f' <span class="solo">{escape(words["solo : +%(value)s"] % {"value": solo_value})}</span>'
    return f'<p class="line {sanction}">{escape(said)}{solo}</p>'


def _standing(st, words: dict[str, str], *, on_scores: bool, solos: int | None, label: str = "") -> str:
    """A ranking's line (the tournament's ``Standing``, or a game's ``GameFigures``), named by
    ``label`` when the phone shows both."""
    if on_scores:
        first = f"{escape(words['Scores'])} <b>{st.paid}</b>"
    else:
        first = f"{escape(words['Total'])} <b>{st.total}</b>"
    # Two decimals, the language's separator, no grouping: as the template's floatformat:2 wrote it.
    percent = f"{st.percent:.2f}".replace(".", words["decimal"])
    parts = [
        f"<span>{first}</span>",
        f"<span>{escape(words['négatif'])} <b>{st.negatif}</b></span>",
        f"<span><b>{percent}</b> %</span>",
        f"<span>{escape(words['rang'])} <b>{st.rank}</b>/{st.players}</span>",
    ]
    if solos is not None:
        parts.append(f"<span>{escape(words['solos'])} <b>{solos}</b></span>")
    named = f'<span class="which">{escape(label)}</span> ' if label else ""
    return f'<p class="standing">{named}{" · ".join(parts)}</p>'


def _links(screen) -> str:
    if screen.phase != "ended":
        return ""
    token, game = screen.player.token, screen.round.game_id
    review = reverse("review:player_game", kwargs={"token": token, "game": game})
    training = reverse("training:player", kwargs={"token": token, "game": game})
    ended, again, train = (
        escape(gettext(text))
        for text in ("Partie terminée.", "Revoir la partie coup par coup", "S'entraîner")
    )
    out = (
        f'<p class="note">{ended} <a class="review-link" href="{review}">{again}</a> · '
        f'<a class="review-link" href="{training}">{train}</a></p>'
    )
    if screen.earlier_games:
        links = []
        for number, pk in screen.earlier_games:
            url = reverse("review:player_game", kwargs={"token": token, "game": pk})
            said = gettext("Revoir la partie %(number)s") % {"number": number}
            links.append(f'<a class="review-link" href="{url}">{escape(said)}</a>')
        out += f'<p class="note earlier-games">{" · ".join(links)}</p>'
    return out
