"""Tables of a row per player, written in Python: drawn by the template language, a room's rows are
most of each redraw of the arbiter's game screen (the slips: a form, two links and a token a row;
the ranking), and on the laptop's one process every phone waits meanwhile (measured:
docs/developer/benchmarks.md).  The rows are the ones the templates would write."""

from __future__ import annotations

import secrets
from html import escape

from django import template
from django.middleware.csrf import get_token
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from live import tried
from live.phone import WRITTEN_TILE, typed_slip
from live.tried import clock_text
from server import memo
from tournaments.models import PercentBase

register = template.Library()

#: A table number that no room has, put in the history link's address and replaced by each row's.
_TABLE = 987654321


#: The slips panel's rows written lately, under the rows' list (``room.round_slips`` gives the same
#: one while nothing in it changed), the language, time zone and addresses; each answer's own CSRF
#: token put in their place: writing a hall's 1,500 rows afresh at each redraw of the panel is dear.
_slips_written: memo.Derived[str] = memo.Derived(16)
#: Where a row's CSRF token goes in the rows written once.
_TOKEN_HERE = f"csrf-{secrets.token_hex(16)}"


@register.simple_tag(takes_context=True)
def slip_rows(context, rows, rnd, start=0, stop=None) -> SafeString:
    """``rows``: ``selectors.SlipRow`` of ``rnd``, by table; those of ``rows[start:stop]`` written (a
    hall's panel shows a page of them)."""
    token = escape(get_token(context.request)) if context.get("request") is not None else ""
    enter = escape(reverse("live:slip_enter", args=[rnd.pk]))
    start, stop = start or 0, stop or None
    also = (translation.get_language(), timezone.get_current_timezone_name(), enter, start, stop)
    written = _slips_written.of(rows, also, lambda: _slip_rows(rows[start:stop], rnd, enter))
    return mark_safe(written.replace(_TOKEN_HERE, token))


def _slip_rows(rows, rnd, enter: str) -> str:
    csrf = f'<input type="hidden" name="csrfmiddlewaretoken" value="{_TOKEN_HERE}">'
    history = _history_address(rnd)
    lang = translation.get_language()
    words = {
        "by_arbiter": escape(gettext("saisi par l’arbitre")),
        "none": escape(gettext("aucun bulletin")),
        "correct": escape(gettext("Corriger")),
        "history": escape(gettext("historique")),
        "label": escape(gettext("Bulletin de la table %(table)s")),
    }
    return "".join(_row(row, csrf, enter, history, lang, words) for row in rows)


def _history_address(rnd) -> tuple[str, str]:
    """A slip's history link's address around its table number (the last number in it)."""
    address = escape(reverse("live:slip_history", args=[rnd.pk, _TABLE]))
    head, tail = address.rsplit(str(_TABLE), 1)
    return head, tail


@register.filter
def jokers_marked(text: str) -> SafeString:
    """A slip in the record's notation with each joker (a lower-case letter) marked, so that the
    arbiter sees at a glance how a slip was read: ``H4 CABLoT 26``, the ``o`` marked."""
    text = str(text)
    if not any(char.islower() for char in text):
        return mark_safe(escape(text))
    joker = f'<mark class="joker" title="{escape(gettext("joker"))}">'
    # A tile of several letters is written in brackets (``CO[ch]E``): marked whole.
    tiles = WRITTEN_TILE.findall(text)
    marked = (f"{joker}{escape(tile)}</mark>" if tile.islower() else escape(tile) for tile in tiles)
    return mark_safe("".join(marked))


@register.simple_tag
def missing_tables(tables, rnd) -> SafeString:
    """The tables whose slip has not come yet, each a link to its slip's history: while a round
    runs the arbiter's screen redraws every second, and a hall of 1,500 starts with 1,500 of them."""
    history = _history_address(rnd)
    word = escape(gettext("table"))
    return mark_safe(", ".join(_history_link(history, table, f"{word} {table}") for table in tables))


def _history_link(history: tuple[str, str], table: int, text: str, css_class: str = "") -> str:
    """The link that opens the slip's history of ``table`` beside the table (``_history_address``)."""
    address = f"{history[0]}{table}{history[1]}"
    css = f' class="{css_class}"' if css_class else ""
    return f'<a{css} href="{address}" hx-get="{address}" hx-target="#slip-history">{text}</a>'


def _row(row, csrf: str, enter: str, history: tuple[str, str], lang: str, words: dict) -> str:
    sub, player = row.submission, row.player
    table = player.table_number
    if sub is None:
        css, slip, paid, reason, value = "missing", f"<em>{words['none']}</em>", "0", "", ""
    else:
        css = "zero" if sub.sanction == "zero" else "sanctioned" if sub.sanction != "none" else ""
        text = sub.slip_text()
        # Corrected as typed (``H4 JOINTA? 34``): the field is read back as the phone reads it.
        value = escape(typed_slip(text))
        slip = jokers_marked(text)
        if sub.entered_by_id:
            slip += f' <small title="{words["by_arbiter"]}">✎</small>'
        paid = str(sub.paid)
        reason = escape(sub.said(lang))
    label = words["label"] % {"table": table}
    grace = ""
    if row.in_grace:
        at = timezone.localtime(sub.received_at).strftime("%H:%M:%S")
        said = escape(gettext("reçu à %(time)s, dans le délai de grâce") % {"time": at})
        grace = f'<small class="grace">{said}</small>'
    grace += _claim_note(row.claims)
    link = _history_link(history, table, words["history"], "history-link")
    return (
        f'\n      <tr class="{css}">'
        f'<td class="num">{table}</td><td>{escape(player.name)}</td><td class="slip">{slip}</td>'
        f'<td class="num">{paid}</td><td>{escape(str(row.sanction))}</td><td class="reason">{reason}</td>'
        f'<td><form method="post" action="{enter}" hx-post="{enter}" hx-sync="#live:replace" class="correct">'
        f'{csrf}<input type="hidden" name="table_number" value="{table}">'
        f'<input type="text" name="text" value="{value}" required autocomplete="off" spellcheck="false"'
        f' aria-label="{label}"><button type="submit">{words["correct"]}</button></form></td>'
        f'<td class="arrival">{grace} {link}</td></tr>'
    )


def _claim_note(claims: tuple) -> str:
    """What became of the player's slips tried during an outage, as their phone says it: accepted
    (the slip in the row is the one it wrote in), waiting, or refused."""
    shown = tried.claims_shown(claims)
    notes = []
    if shown.accepted is not None:
        notes.append(
            gettext("tenté à %(tried)s (heure du téléphone), accepté à %(decided)s")
            % {"tried": clock_text(shown.accepted.tried_at), "decided": clock_text(shown.accepted.decided_at)}
        )
    other = shown.other
    if other is not None and other.status == "pending":
        said = gettext("tenté à %(tried)s (heure du téléphone) : à décider")
        notes.append(said % {"tried": clock_text(other.tried_at)})
    elif other is not None:
        notes.append(
            gettext("tenté à %(tried)s (heure du téléphone), refusé à %(decided)s")
            % {"tried": clock_text(other.tried_at), "decided": clock_text(other.decided_at)}
        )
    return "".join(f'<small class="tried-note">{escape(note)}</small>' for note in notes)


@register.simple_tag
def ranking_caption(rows, limit=None, whole="") -> SafeString:
    """What the ranking is on, said above it (§4): "Base : scores seuls" or "Base : total avec solos et
    pénalités"; the main column shows that figure (``Row.score``).  A ranking longer than ``limit``
    shows its first rows: the caption says how many of how many, with a link to the ``whole`` one."""
    if not rows:
        return mark_safe("")
    said = escape(gettext("Base : %(base)s") % {"base": PercentBase(rows[0].base.value).label})
    if limit and len(rows) > limit:
        first = gettext("les %(shown)s premiers sur %(count)s") % {
            "shown": formats.number_format(limit, force_grouping=True),
            "count": formats.number_format(len(rows), force_grouping=True),
        }
        said += f' · <span class="ranking-first">{escape(first)}</span>'
        if whole:
            link = escape(gettext("classement complet"))
            said += f' · <a class="ranking-whole" href="{escape(whole)}">{link}</a>'
    return mark_safe(f'<caption class="base">{said}</caption>')


#: Rows written lately, under the rows object and the language: a ranking kept by its process
#: (``standings.game_rows_shared``) is shown by the arbiter's screen and the projector at each redraw
#: (a hall's 1,500 rows each time).
_written: memo.Derived[SafeString] = memo.Derived(16)


@register.simple_tag
def ranking_rows(rows, limit=None) -> SafeString:
    """A ranking's rows (``engine.ranking.Row``): rank, name and table, the figure ranked on (the
    total, or the paid scores on the "scores seuls" base, §4), négatif, percentage (two decimals, in
    the language's notation), solos and warnings when there are any; the first ``limit`` of them."""
    if not rows:
        return mark_safe(f'<tr><td colspan="7" class="empty">{escape(gettext("Aucun joueur."))}</td></tr>')
    limit = limit or None
    return _written.of(rows, (translation.get_language(), limit), lambda: _ranking_rows(rows[:limit]))


def _ranking_rows(rows) -> SafeString:
    out = []
    for row in rows:
        percent = formats.number_format(row.percent, 2)
        out.append(
            f'\n    <tr><td class="num">{row.rank}</td>'
            f"<td>{escape(row.name)} <small>({row.table})</small></td>"
            f'<td class="num">{row.score}</td><td class="num">{row.negatif}</td>'
            f'<td class="num">{percent}</td><td class="num">{row.solos or ""}</td>'
            f'<td class="num">{row.warnings or ""}</td></tr>'
        )
    return mark_safe("".join(out))


#: The results pages' rows written lately, as ``_written``: under the rows object, the language
#: and the main column.  A hall's tournament ranking (1,500 rows) drawn by the template language at
#: each view is dear (measured: docs/developer/benchmarks.md).
_results_written: memo.Derived[SafeString] = memo.Derived(16)


@register.simple_tag
def results_rows(rows, games, main: str) -> SafeString:
    """The results page's rows (``engine.ranking.Row``): ranks in the ranking, its series and its
    category, table, name, club, each part (a round's or a game's score, where ``games`` are shown),
    the paid scores, solos' points, penalty, total, négatif, percentage and warnings; the figure
    ranked on (``main``) in bold."""
    if not rows:
        return mark_safe(f'<tr><td colspan="13" class="empty">{escape(gettext("Aucun joueur."))}</td></tr>')
    also = (translation.get_language(), main, bool(games))
    return _results_written.of(
        rows, also, lambda: mark_safe("".join(_results_row(row, bool(games), main) for row in rows))
    )


def _results_row(row, games: bool, main: str) -> str:
    def cell(value, bold: bool = False) -> str:
        return f'<td class="num"><strong>{value}</strong></td>' if bold else f'<td class="num">{value}</td>'

    series = f"{row.series_rank}<small> ({escape(row.series)})</small>" if row.series else ""
    category = f"{row.category_rank}<small> ({escape(row.category)})</small>" if row.category else ""
    parts = "".join(cell(part) for part in row.parts) if games else ""
    solos = f"+{row.solo_points}" if row.solo_points else ""
    penalty = f"−{row.penalty}" if row.penalty else ""
    percent = cell(floatformat(row.percent, 2), main == "percent")
    return (
        f'\n      <tr><td class="num">{row.rank}</td><td>{series}</td><td>{category}</td>'
        f'<td class="num">{row.table}</td><td>{escape(row.name)}</td><td>{escape(row.club)}</td>{parts}'
        f"{cell(row.paid, main == 'paid')}{cell(solos)}{cell(penalty)}{cell(row.total, main == 'total')}"
        f"{cell(row.negatif)}{percent}{cell(row.warnings or '')}</tr>"
    )
