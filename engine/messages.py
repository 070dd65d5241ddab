"""Sentences for players and arbiters, French first, English second.

Engine results carry a ``Message`` (a code and its parameters) rather than
text, so the application can show it in the interface's language.  Each
module registers the sentences of its own codes with ``register``, in French
and English; other languages come as catalogues of their own (``add_language``:
the application reads them from its locale files), each sentence under its
code, with the French sentence it translates.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LANGUAGES = ("fr", "en")
_CATALOGUE: dict[str, dict[str, str]] = {}
#: The sentences of further languages, by language and code.
_MORE: dict[str, dict[str, str]] = {}


def known(code: str) -> bool:
    """Whether ``code`` has its sentences registered."""
    return code in _CATALOGUE


def register(entries: dict[str, dict[str, str]]) -> None:
    for code, texts in entries.items():
        missing = [lang for lang in LANGUAGES if lang not in texts]
        if missing:
            raise ValueError(f"message {code!r} lacks {missing}")
        _CATALOGUE[code] = texts


def add_language(lang: str, texts: dict[str, str]) -> None:
    """The sentences of ``lang``, by code, for the codes registered in French and English."""
    _MORE.setdefault(lang, {}).update(texts)


def languages() -> tuple[str, ...]:
    """Every language with sentences: French, English and those added."""
    return (*LANGUAGES, *(lang for lang in _MORE if lang not in LANGUAGES))


def catalogue() -> dict[str, dict[str, str]]:
    """Every registered code's French and English sentences (a copy)."""
    return {code: dict(texts) for code, texts in _CATALOGUE.items()}


@dataclass(frozen=True)
class Message:
    code: str
    params: dict = field(default_factory=dict)

    def text(self, lang: str = "fr") -> str:
        texts = _CATALOGUE[self.code]
        template = texts.get(lang) or _MORE.get(lang, {}).get(self.code)
        if template is None:
            return texts["fr"].format(**self.params)
        if lang in LANGUAGES:
            return template.format(**self.params)
        # A parameter given per language (``reason_fr``, ``reason_en``) is named ``reason_<lang>`` in
        # a further language's sentence; one given in French and English only is said in French.
        said = {f"{name[:-3]}_{lang}": value for name, value in self.params.items() if name.endswith("_fr")}
        return template.format(**{**said, **self.params})

    def __str__(self) -> str:
        return self.text("fr")


register(
    {
        "not_text": {"fr": "Ce n'est pas un texte.", "en": "This is not text."},
        "too_long": {
            "fr": "Texte trop long (au plus {limit} caractères).",
            "en": "Text too long (at most {limit} characters).",
        },
        "ref_empty": {"fr": "Référence manquante.", "en": "The reference is missing."},
        "ref_syntax": {
            "fr": "Référence « {ref} » illisible : une ligne A à O et une colonne 1 à 15, "
            "comme H4 (horizontal) ou 4H (vertical).",
            "en": "Cannot read the reference '{ref}': a row A to O and a column 1 to 15, "
            "like H4 (across) or 4H (down).",
        },
        "ref_row": {
            "fr": "Référence « {ref} » : la ligne doit être entre A et O.",
            "en": "Reference '{ref}': the row must be between A and O.",
        },
        "ref_column": {
            "fr": "Référence « {ref} » : la colonne doit être entre 1 et 15.",
            "en": "Reference '{ref}': the column must be between 1 and 15.",
        },
        "rack_plus": {
            "fr": "Un tirage n'a qu'un seul « + ».",
            "en": "A rack has a single '+'.",
        },
        "rack_reject_reliquat": {
            "fr": "Après un rejet le tirage n'a pas de reliquat (« - » et « + » ensemble).",
            "en": "A rack drawn after a rejection has no kept letters ('-' with '+').",
        },
        "rack_char": {
            "fr": "Le tirage contient « {char} » : seulement des lettres et « ? » pour un joker.",
            "en": "The rack holds '{char}': only letters and '?' for a blank.",
        },
        "rack_size": {
            "fr": "Un tirage a au plus 7 lettres (ici {size}).",
            "en": "A rack has at most 7 tiles (here {size}).",
        },
        "rack_size_most": {
            "fr": "Un tirage a au plus {most} lettres dans cette partie (ici {size}).",
            "en": "A rack has at most {most} tiles in this game (here {size}).",
        },
        "word_empty": {"fr": "Le mot est vide.", "en": "The word is empty."},
        "word_char": {
            "fr": "Le mot contient « {char} », qui n'est pas une lettre.",
            "en": "The word holds '{char}', which is not a letter.",
        },
        "word_length": {
            "fr": "Un mot a de 2 à 15 lettres (ici {length}).",
            "en": "A word has 2 to 15 letters (here {length}).",
        },
        "slip_empty": {"fr": "Le bulletin est vide.", "en": "The slip is empty."},
        "slip_syntax": {
            "fr": "Bulletin illisible : écrivez la référence, le mot, puis le score (H4 MOT 24).",
            "en": "Cannot read the slip: write the reference, the word, then the score (H4 WORD 24).",
        },
        "board_rows": {
            "fr": "Une grille a 15 lignes de 15 cases.",
            "en": "A board has 15 rows of 15 cells.",
        },
        "board_char": {
            "fr": "Caractère « {char} » inattendu dans la grille.",
            "en": "Unexpected character '{char}' on the board.",
        },
    }
)
