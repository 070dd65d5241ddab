"""Which page of the arbiter's guide speaks of each screen: the URL's name to the page (and its
section).  The French and English guides have the same pages under docs/fr/ and docs/en/."""

from __future__ import annotations

#: The guide's pages, each a file of docs/fr/ and docs/en/ (``<slug>.md``; ``index`` its contents).
SLUGS = (
    "index",
    "install",
    "evening",
    "bag",
    "disputes",
    "printing",
    "laptop-dies",
    "simultaneous",
    "training",
    "accessibility",
    "troubleshooting",
)

SCREENS = {
    "login": "install#first-start",
    "tournaments:home": "evening#before",
    "tournaments:tournament_create": "evening#before",
    "tournaments:tournament_settings": "evening#before",
    "tournaments:tournament_detail": "evening#players",
    "tournaments:player_add": "evening#players",
    "tournaments:players_import": "evening#players",
    "tournaments:player_edit": "evening#players",
    "tournaments:player_remove": "evening#players",
    "tournaments:tournament_cards": "evening#cards",
    "tournaments:game_start": "evening#game",
    "live:game_detail": "evening#round",
    "live:game_ranking": "evening#round",
    "live:game_missing": "disputes",
    "live:game_slip_history": "disputes",
    "live:slip_history": "disputes",
    "live:projector": "evening#projector",
    "tournaments:evening_resume": "laptop-dies",
    "results:game_results": "printing",
    "results:tournament_results": "printing",
    "results:printout_detail": "printing",
    "results:tournament_import": "printing#files",
    "results:merge_create": "simultaneous#merge",
    "results:merge_detail": "simultaneous#merge",
    "simultaneous:event_list": "simultaneous",
    "simultaneous:event_create": "simultaneous",
    "simultaneous:event_detail": "simultaneous",
    "simultaneous:event_public": "simultaneous",
    "clubs:club_list": "install#accounts",
    "clubs:club_detail": "install#accounts",
    "clubs:join": "install#accounts",
}

LANGUAGES = ("fr", "en")


def page_for(url_name: str | None, language: str) -> str:
    """The guide's address for a screen: ``/aide/<language>/<slug>/#<section>``."""
    # The guides are written in French and English; the interface's other languages get English.
    language = language if language in LANGUAGES else ("fr" if language.startswith("fr") else "en")
    target = SCREENS.get(url_name or "", "index")
    slug, _, section = target.partition("#")
    path = "" if slug == "index" else f"{slug}/"
    return f"/aide/{language}/{path}" + (f"#{section}" if section else "")
