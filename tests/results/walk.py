"""The arbiter's walk through one tournament's pages: from its page, each same-site ``href`` (and the
polls' ``hx-get``) of every page it reaches that belongs to the tournament (its games, rounds,
printouts, projector, reviews, the phones' pages), and every printout form sent with each of its
buttons; the PDFs made, read back as text."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.test import Client
from pypdf import PdfReader

from tournaments.models import Tournament


class Page(HTMLParser):
    """The links of a page (``href``, ``hx-get``) and its printout forms (hidden fields, buttons)."""

    def __init__(self):
        super().__init__()
        #: (address, whether htmx asks for it: a poll's partial)
        self.links: list[tuple[str, bool]] = []
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "hx-get"):
            if attrs.get(name):
                self.links.append((attrs[name], name == "hx-get"))
        if tag == "form":
            self.forms.append({"action": attrs.get("action") or "", "fields": {}, "buttons": []})
        elif self.forms and tag == "input" and attrs.get("type") == "hidden" and attrs.get("name"):
            self.forms[-1]["fields"][attrs["name"]] = attrs.get("value") or ""
        elif self.forms and tag == "button" and attrs.get("name"):
            self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value") or ""))


def same_site(base: str, href: str) -> str | None:
    """The path (and query) ``href`` opens on this server, None for another site or no page."""
    if href.startswith(("#", "mailto:", "javascript:", "data:")):
        return None
    parts = urlsplit(urljoin(base, href))
    if parts.scheme not in ("", "http", "https") or parts.netloc not in ("", "testserver"):
        return None
    if parts.path.startswith(("/static/", "/media/", "/admin/")):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


class Walk:
    """The arbiter's walk through one tournament: every answer kept by its address."""

    def __init__(self, client: Client, tournament: Tournament):
        self.client = client
        games = list(tournament.games.values_list("pk", flat=True))
        ids = "|".join(str(pk) for pk in games)
        #: The pages whose own links are followed: the tournament's, its games', rounds', printouts',
        #: projector's, reviews' and phones' (anything else is opened, not explored).
        self.ours = re.compile(
            rf"^/(tournois/{tournament.pk}/|parties/({ids})/|projecteur/({ids})/|coups/\d+/"
            r"|impressions/\d+/|j/)"
        )
        self.answers: dict[str, int] = {}

    def run(self, *start: str) -> None:
        todo = [(url, False) for url in start]
        while todo:
            url, htmx = todo.pop(0)
            if url in self.answers:
                continue
            response = self.client.get(url, headers={"HX-Request": "true"} if htmx else {})
            self.answers[url] = response.status_code
            if response.status_code in (301, 302):
                target = same_site(url, response["Location"])
                todo.extend([(target, False)] if target else [])
            elif self._explored(url, response):
                page = Page()
                page.feed(response.content.decode())
                todo.extend((link, htmx) for href, htmx in page.links if (link := same_site(url, href)))
                todo.extend((link, False) for link in self._printouts(url, page.forms))

    def _explored(self, url: str, response) -> bool:
        """A page of the tournament's, whose links are followed in turn."""
        is_html = response.get("Content-Type", "").startswith("text/html")
        return response.status_code == 200 and is_html and bool(self.ours.match(url))

    def _printouts(self, url: str, forms: list[dict]) -> list[str]:
        """Each printout form sent with each of its buttons; the printout's page to walk next."""
        found = []
        for form in forms:
            action = same_site(url, form["action"])
            if not action or not action.endswith("/impressions/"):
                continue
            for name, value in form["buttons"]:
                sent = f"POST {action} game={form['fields'].get('game', '')} {name}={value}"
                if sent in self.answers:
                    continue
                response = self.client.post(action, {**form["fields"], name: value})
                self.answers[sent] = response.status_code
                if response.status_code == 302:
                    found.append(same_site(action, response["Location"]))
        return [link for link in found if link]

    def errors(self) -> dict[str, int]:
        return {url: status for url, status in self.answers.items() if status >= 500}

    def tournament(self, tournament: Tournament) -> None:
        """From the tournament's page and its overall ranking (linked once a game is started)."""
        self.run(f"/tournois/{tournament.pk}/", f"/tournois/{tournament.pk}/classement/")


def pdf_text(data: bytes, layout: bool = False) -> str:
    """A PDF's text, page after page; ``layout``: laid out as printed, a table's row on one line."""
    mode = "layout" if layout else "plain"
    return "\n".join(page.extract_text(extraction_mode=mode) for page in PdfReader(io.BytesIO(data)).pages)
