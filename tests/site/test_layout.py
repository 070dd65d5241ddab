"""The house's shape: no module over 600 lines, and every room on the map (the developer guide's layout, the
import contract's layers, the installed apps).  The contract itself runs in ./scripts/test
(``lint-imports``)."""

from __future__ import annotations

import configparser
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
#: The engine, the project and the rooms: every top-level package but the tests'.
PACKAGES = sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")
MAX_LINES = 600


def test_no_module_of_the_engine_or_the_application_is_over_600_lines():
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    assert sizes, "no module found"
    assert {path: lines for path, lines in sizes.items() if lines > MAX_LINES} == {}


def test_every_package_is_a_layer_of_the_import_contract_and_on_the_map():
    contract = configparser.ConfigParser()
    contract.read(ROOT / ".importlinter", encoding="utf-8")
    layers = contract["importlinter:contract:rooms"]["layers"].split()
    assert sorted(layers) == PACKAGES
    layout = (ROOT / "docs" / "developer" / "layout.md").read_text(encoding="utf-8")
    assert [p for p in PACKAGES if f"\n{p}/" not in layout] == []


def test_the_rooms_are_installed_lowest_first_as_the_contract_stacks_them():
    contract = configparser.ConfigParser()
    contract.read(ROOT / ".importlinter", encoding="utf-8")
    layers = contract["importlinter:contract:rooms"]["layers"].split()
    rooms = [app for app in settings.INSTALLED_APPS if app in layers]
    assert rooms == [layer for layer in reversed(layers) if layer in rooms]
    assert set(rooms) == set(layers) - {"engine", "arbiter"}
