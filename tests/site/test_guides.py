"""The guides (docs/, MkDocs): they build with --strict (a broken link or anchor fails), every link of
the built site leads to a page or file of it, every command they show exists, and every arbiter
screen's 'Aide' link opens its page, served by the application in French and in English."""

from __future__ import annotations

import datetime
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import pytest
from django.core.management import get_commands
from django.urls import reverse

from guides import build, pages

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("guides") / "site"
    build.build(target, strict=True)
    return target


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name):
                self.links.append(attrs[name])


def _parsed(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _target(site: Path, page: Path, link: str) -> tuple[Path, str]:
    url, fragment = urldefrag(urljoin("/" + str(page.relative_to(site)), link))
    path = site / url.lstrip("/")
    return (path / "index.html" if url.endswith("/") else path), fragment


def test_the_guides_build_strictly_with_every_page_of_each_guide(site):
    for slug in pages.SLUGS:
        for language in pages.LANGUAGES:
            assert (site / language / ("" if slug == "index" else slug) / "index.html").is_file()
    for guide in ("federation", "developer"):
        assert (site / guide / "index.html").is_file()


def test_every_link_of_the_built_guides_leads_to_a_page_and_a_section_of_them(site):
    broken = []
    for page in site.rglob("*.html"):
        for link in _parsed(page).links:
            if re.match(r"^[a-z]+:", link) or link.startswith("//"):
                broken.append((str(page.relative_to(site)), link))  # nothing from elsewhere: offline
                continue
            target, fragment = _target(site, page, link)
            if not target.is_file() or (fragment and fragment not in _parsed(target).ids):
                broken.append((str(page.relative_to(site)), link))
    assert broken == []


def test_every_screen_of_the_map_has_its_page_and_section_in_both_languages(site):
    for target in set(pages.SCREENS.values()) | {"index"}:
        slug, _, section = target.partition("#")
        for language in pages.LANGUAGES:
            page = site / language / ("" if slug == "index" else slug) / "index.html"
            assert page.is_file(), page
            assert not section or section in _parsed(page).ids, (language, target)


def _shell_lines() -> list[tuple[str, str]]:
    lines = []
    for page in sorted(DOCS.rglob("*.md")):
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for line in block.splitlines():
                line = re.sub(r"\s+#.*$", "", line.strip().replace("    ", " "))
                if line:
                    lines.append((str(page.relative_to(DOCS)), line))
    return lines


def test_every_manage_py_command_the_guides_show_exists_and_answers_its_help():
    commands = sorted(
        {m.group(1) for _, line in _shell_lines() for m in re.finditer(r"manage\.py (\w+)", line)}
    )
    assert {"build_guides", "migrate", "changepassword", "first_account", "nginx_conf"} <= set(commands)
    known = get_commands()
    assert [c for c in commands if c not in known] == []
    for command in commands:
        result = subprocess.run(
            [sys.executable, "manage.py", command, "--help"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, (command, result.stderr[-500:])


def test_every_option_of_a_command_the_guides_show_is_one_the_command_takes():
    shown = [(page, line) for page, line in _shell_lines() if re.search(r"(run\.py|manage\.py \w+)", line)]
    serve_help = subprocess.run(
        [sys.executable, "manage.py", "serve", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    wrong = []
    for page, line in shown:
        for part in re.split(r"&&|;", line):
            match = re.search(r"(run\.py|manage\.py (\w+))(.*)", part)
            if not match:
                continue
            options = re.findall(r"(?<!\S)(--[a-z][a-z-]*)", match.group(3))
            if match.group(1) == "run.py":  # run.py passes its arguments to manage.py serve
                helptext = serve_help
            else:
                helptext = subprocess.run(
                    [sys.executable, "manage.py", match.group(2), "--help"],
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                    timeout=120,
                ).stdout
            wrong += [(page, option) for option in options if option not in helptext]
    assert wrong == []


FOLDERS = "engine|arbiter|server|clubs|lexicons|tournaments|results|simultaneous|review"
FOLDERS += "|training|guides|scripts|tests"


def test_the_guides_name_only_files_of_the_repository():
    named = set()
    for page in DOCS.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        named |= set(re.findall(rf"`((?:{FOLDERS})/[\w/.-]+\.(?:py|js|conf|json))`", text))
    assert named
    assert sorted(path for path in named if not (ROOT / path).exists()) == []


ARBITER_SCREENS = [
    ("tournaments:home", []),
    ("tournaments:tournament_create", []),
    ("tournaments:tournament_detail", ["tournament"]),
    ("tournaments:tournament_settings", ["tournament"]),
    ("live:game_detail", ["game"]),
    ("live:game_ranking", ["game"]),
    ("results:game_results", ["game"]),
    ("results:tournament_results", ["tournament"]),
    ("results:tournament_import", []),
    ("results:merge_create", []),
    ("simultaneous:event_list", []),
    ("simultaneous:event_create", []),
    ("clubs:club_list", []),
]


@pytest.fixture
def evening(db):
    from django.contrib.auth.models import User

    from lexicons.loaded import lexicon_default_row
    from tournaments import services

    arbiter = User.objects.create_superuser("arbitre", password="guide-test-1")
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Mardi", date=datetime.date(2026, 11, 24)
    )
    services.player_register(tournament=tournament, name="Alice")
    game = services.game_start(tournament=tournament, seed=7)
    return arbiter, {"tournament": tournament.pk, "game": game.pk}


@pytest.mark.parametrize("language", pages.LANGUAGES)
def test_every_arbiter_screen_links_to_its_page_of_the_guide_served_in_its_language(
    client, evening, language, settings, tmp_path
):
    settings.VAR_DIR = tmp_path  # the guides built for this test, in its own folder
    arbiter, ids = evening
    client.force_login(arbiter)
    client.cookies["django_language"] = language
    word = {"fr": "Aide", "en": "Help"}[language]
    for name, args in ARBITER_SCREENS:
        html = client.get(reverse(name, args=[ids[a] for a in args])).content.decode()
        link = re.search(rf'<a class="small help" href="([^"]+)"[^>]*>{word}</a>', html)
        assert link, name
        assert link.group(1) == pages.page_for(name, language)
        page, _, section = link.group(1).partition("#")
        assert page.startswith(f"/aide/{language}/")
        answer = client.get(page)
        assert answer.status_code == 200, (name, page)
        served = b"".join(answer.streaming_content).decode()
        assert f'<html lang="{language}">' in served
        assert not section or f'id="{section}"' in served


def test_the_guide_serves_its_pictures_and_refuses_what_is_not_in_it(client, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    assert client.get("/aide/fr/img/game.png").status_code == 200
    assert client.get("/aide/guide.css").status_code == 200
    assert client.get("/aide/fr/nulle-part/").status_code == 404
    assert client.get("/aide/../arbiter.sqlite3").status_code == 404
    assert client.get("/aide/fr").status_code == 302
