"""The category table (§4): data shipped with the engine, or a federation's own file."""

from __future__ import annotations

import json
from itertools import pairwise

from engine.categories import Category, categories, category_label


def test_the_shipped_category_table_runs_from_poussin_to_diamant():
    table = categories()
    assert table[0].fr == "Poussin" and table[-1].fr == "Diamant"
    assert (table[-2].min_age, table[-1].min_age, table[-1].max_age) == (62, 72, None)
    assert len({category.code for category in table}) == len(table)
    # The age bands follow one another without a gap.
    assert all(a.max_age is not None and a.max_age + 1 == b.min_age for a, b in pairwise(table))


def test_category_labels_in_both_languages():
    assert category_label("V") == "Vermeil"
    assert category_label(" v ") == "Vermeil"
    assert category_label("D", lang="en") == "Diamant (72+)"
    assert category_label("Vétéran") == "Vétéran"


def test_a_category_table_can_be_read_from_another_file(tmp_path):
    path = tmp_path / "club.json"
    path.write_text(
        json.dumps([{"code": "A", "fr": "Adulte", "en": "Adult", "min_age": 18, "max_age": None}]),
        encoding="utf-8",
    )
    assert categories(path) == (Category("A", "Adulte", "Adult", 18, None),)
