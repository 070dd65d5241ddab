"""The category table (§4): data shipped with the engine, or a federation's own file."""

from __future__ import annotations

import json
from itertools import pairwise

from engine.categories import Category, categories, category_code, category_label


def test_the_shipped_category_table_runs_from_poussin_to_diamant():
    table = categories()
    assert table[0].fr == "Poussin" and table[-1].fr == "Diamant"
    assert (table[-2].min_age, table[-1].min_age, table[-1].max_age) == (62, 72, None)
    assert len({category.code for category in table}) == len(table)
    # The age bands follow one another without a gap.
    assert all(a.max_age is not None and a.max_age + 1 == b.min_age for a, b in pairwise(table))


def test_category_labels_in_every_language():
    assert category_label("V") == "Vermeil"
    assert category_label(" v ") == "Vermeil"
    assert category_label("D", lang="en") == "Diamant (72+)"
    assert category_label("D", lang="es") == "Diamante (72+)"
    assert category_label("S", lang="ca") == "Sènior"
    assert category_label("P", lang="es") == category_label("P", lang="ca") == "Sub-11"
    assert category_label("S", lang="de") == "Senior"  # a language the table does not name: French
    assert category_label("Vétéran") == "Vétéran"


def test_every_shipped_category_is_named_in_every_language_and_read_back_to_its_code():
    for category in categories():
        for lang in ("fr", "en", "es", "ca"):
            name = category.label(lang)
            assert name and getattr(category, lang) == name, (category.code, lang)
            assert category_code(name) == category_code(name.upper()) == category.code, name


def test_a_category_given_by_its_name_in_catalan_or_spanish_is_its_code():
    assert category_code("Sènior") == category_code("Sénior") == category_code("senior") == "S"
    assert category_code(" júnior ") == "J"
    assert category_code("Diamante (72+)") == "D"
    assert category_code("sub-25") == "E"
    assert category_code("Veterà") is None and category_code("") == ""


def test_a_category_table_can_be_read_from_another_file(tmp_path):
    path = tmp_path / "club.json"
    path.write_text(
        json.dumps([{"code": "A", "fr": "Adulte", "en": "Adult", "min_age": 18, "max_age": None}]),
        encoding="utf-8",
    )
    assert categories(path) == (Category("A", "Adulte", "Adult", 18, None),)
    # A file that names a category in French and English only: its French name stands in.
    assert categories(path)[0].label("ca") == "Adulte" and categories(path)[0].label("en") == "Adult"


def test_a_category_file_may_name_spanish_and_catalan(tmp_path):
    path = tmp_path / "club.json"
    adult = {"code": "A", "fr": "Adulte", "en": "Adult", "es": "Adulto", "ca": "Adult", "min_age": 18}
    path.write_text(json.dumps([{**adult, "max_age": None}]), encoding="utf-8")
    (category,) = categories(path)
    assert (category.label("es"), category.label("ca")) == ("Adulto", "Adult")
    assert category.names() == ("Adulte", "Adult", "Adulto", "Adult")
