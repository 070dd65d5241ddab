"""The phone's receipt written without the template engine: the answer to a slip
(``views.player.slip_answer``), and the page's and the poll's (``_player_receipt.html`` calls it:
one markup), at a fraction of the cost; and the screen it needs without the board nor the results."""

from __future__ import annotations

from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import gettext, ngettext

from live import phone, room, tried
from live.phone import typed_slip


def receipt_screen(player, stored=None, *, answered: bool = False) -> phone.Screen:
    """What the receipt shows of ``phone.player_screen``, and nothing else (no board, no results):
    the room's round as remembered, the player's slip (``stored``, else read), the refusal kept.
    ``answered``: the answer to the sending that ``stored`` holds, which says what became of it (a
    refusal kept before it is older than it; no shared-cache read in the last seconds' rush)."""
    rnd = room.current_round_recent(player.tournament_id)
    phase = phone._phase(rnd)
    sub = phone.round_slip(player, rnd, phase, stored)
    claims = phone.round_claims(player, rnd, phase)
    refusal = ""
    if rnd is not None and not (answered and stored is not None):
        refusal = phone.kept_refusal(rnd, player.pk, sub, claims)
    return phone.Screen(
        player=player, round=rnd, phase=phase, signature="", rack=[], remaining=None,
        submission=sub, board=[], refusal=refusal, claims=claims,
    )  # fmt: skip


def receipt_html(
    screen: phone.Screen, *, error: str | None = None, sent: bool = False, oob: bool = False
) -> str:
    """``live/partials/_player_receipt.html`` as Django renders it (its markup, classes, ARIA
    attributes and keys: ``tests/tournaments/test_slipgate.py`` compares them), written here at a
    fraction of the cost (HTML-escaped as the template is).  The slip the server holds is in its
    ``data-slip-ref`` and ``data-slip-word`` (jokers in lower case): the phone draws it on its board
    from them, as the answer to a slip carries no board."""
    attrs = f' aria-label="{escape(gettext("Accusé de réception"))}"'
    if sent:
        attrs += " data-fresh"
    if not error or error == screen.refusal:
        attrs += f' data-key="{screen.receipt_key}"'
    sub = screen.submission
    if sub:
        attrs += f' data-slip-ref="{escape(sub.ref)}" data-slip-word="{escape(sub.word)}"'
    if oob:
        attrs += ' hx-swap-oob="true"'
    parts = [f'<div id="player-receipt" class="receipt" role="status" aria-live="polite"{attrs}>\n  ']
    if error:
        parts.append(f'<p class="error" role="alert">{escape(error)}</p>')
    elif screen.refusal:
        parts.append(f'<p class="error">{escape(screen.refusal)}</p>')
    shown = tried.claims_shown(screen.claims)
    accepted = shown.accepted if sub else None
    for claim in (shown.accepted if not sub else None, shown.other):
        if claim is not None:
            parts.append(f'<p class="tried {claim.status}">{escape(claim_sentence(claim))}</p>')
    parts.append("\n  ")
    if sub:
        parts.append(_sent_line(screen, sub, accepted))
    parts.append("\n</div>\n")
    return "".join(parts)


def claim_sentence(claim) -> str:
    """What the phone says of a slip it tried to send during an outage, received late: waiting for
    the arbiter, refused, or accepted (said on its slip's line when the slip is there)."""
    said = {
        "slip": typed_slip(claim.text), "tried": tried.clock_text(claim.tried_at),
        "received": tried.clock_text(claim.received_at),
        "decided": tried.clock_text(claim.decided_at) if claim.decided_at else "",
    }  # fmt: skip
    if claim.status == "pending":
        text = gettext(
            "Bulletin tenté à %(tried)s (heure du téléphone) pendant la coupure : %(slip)s, reçu à "
            "%(received)s, après la fin du coup. En attente de la décision de l'arbitre."
        )
    elif claim.status == "refused":
        text = gettext(
            "Bulletin tenté à %(tried)s (heure du téléphone) pendant la coupure : %(slip)s. Refusé par "
            "l'arbitre à %(decided)s : il ne compte pas."
        )
    else:
        text = gettext(
            "Bulletin tenté à %(tried)s (heure du téléphone) pendant la coupure : %(slip)s. Accepté par "
            "l'arbitre à %(decided)s."
        )
    return text % said


def accepted_when(claim) -> str:
    """The slip's line of an accepted claim: when the arbiter took it, when the phone tried it."""
    return gettext("accepté par l'arbitre à %(decided)s (tenté à %(tried)s à l'heure du téléphone)") % {
        "decided": tried.clock_text(claim.decided_at), "tried": tried.clock_text(claim.tried_at),
    }  # fmt: skip


def _sent_line(screen: phone.Screen, sub, accepted=None) -> str:
    """The slip the server holds, and when it came: received at, or accepted by the arbiter (a slip
    tried during an outage, received late: ``accepted``, its claim)."""
    running = screen.phase == phone.Phase.RUNNING
    time = escape(timezone.localtime(sub.received_at).strftime("%H:%M:%S"))
    letters = "".join(
        f'<span class="joker">{escape(letter)}</span>' if joker else escape(letter)
        for letter, joker in screen.slip_letters
    )
    claimed = f" {sub.claimed}" if sub.claimed is not None else ""
    past = gettext("reçu à %(time)s") % {"time": time}
    when = gettext("reçu à %(time)s, modifiable jusqu'à la fin") % {"time": time} if running else past
    if accepted is not None and accepted.decided_at is not None:
        past = when = escape(accepted_when(accepted))
    when = f'<span class="when">{when}</span>'
    jokers = screen.slip_jokers
    if jokers:
        joined = escape(", ").join(escape(letter) for letter in jokers)
        said = ngettext("joker : %(letters)s", "jokers : %(letters)s", len(jokers)) % {"letters": joined}
        when += f' · <span class="jokers" aria-hidden="true">{said}</span>'
    return (
        f'\n  <p class="sent{"" if running else " past"}" data-past="{past}">'
        f'<span class="sr">{escape(screen.slip_understood)}'
        f'</span><b aria-hidden="true">{escape(sub.ref or "-")} {letters}{claimed}</b> — {when}</p>\n  '
    )
