"""The sheets' fixed labels in French, English, Spanish and Catalan, and text made safe for the
standard PDF fonts.

The sheets use Helvetica, whose WinAnsi encoding (Windows-1252) covers French (é è ê à ç œ Œ « »),
Spanish (á í ñ ó ú ü ¿ ¡ º) and Catalan (à è í ï ò ó ú ç and the "l·l" middle dot).
Anything else in a player's name is transliterated when it has a Latin base letter ("ő" → "o"),
dropped when it is a symbol (an emoji) and printed as "?" otherwise, so a name never breaks a sheet.
"""

from __future__ import annotations

import datetime
import functools
import re
import unicodedata

from reportlab.pdfbase.pdfmetrics import stringWidth

LABELS: dict[str, dict[str, str]] = {
    "fr": {
        "ranking": "Classement",
        "game_sheet": "Feuille de partie",
        "score_card": "Fiche du joueur",
        "date": "Date",
        "place": "Lieu",
        "lexicon": "Lexique",
        "grading": "Arbitrage",
        "grace": "Délai de grâce",
        "round_time": "Temps par coup",
        "base": "Base",  # of the ranking, the négatif and the % (§4)
        "tie_break": "Départage",
        "variant": "Variante",  # an original game's, named in the sheet's language
        "printed": "Imprimé le",
        "top": "Top",
        "players": "Joueurs",
        "rounds": "Coups",
        "page": "page {n} / {total}",
        "at": "à",
        "col_rank": "Rg",
        "col_series_rank": "Rg\nsérie",
        "col_category_rank": "Rg\ncat.",
        "col_table": "Table",
        "col_name": "Nom",
        "col_club": "Club",
        "col_series": "Série",
        "col_category": "Catégorie",
        "col_total": "Total",
        "col_paid": "Scores",
        "col_negatif": "Négatif",
        "col_percent": "%",
        "col_percent_total": "%\ntotal",
        "col_percent_paid": "%\nscores",
        "col_solos": "Solos",
        "col_warnings": "Avert.",
        "col_penalty": "Pénal.",
        "solos": "Solos",
        "solo_item": "coup {round} : {name}",
        "game_solo_item": "partie {game}, coup {round} : {name}",
        "col_centre": "Centre",
        "time_game": "partie {game}",
        "time_round": "coup {first}",
        "time_rounds": "coups {first}\u2013{last}",
        "no_solo": "Aucun solo.",
        "col_round": "N°",
        "col_rack": "Tirage",
        "col_ref": "Réf.",
        "col_word": "Mot",
        "col_score": "Points",
        "col_cumulated": "Cumul",
        "col_tied": "Tops\nex æquo",
        "game_total": "Top de la partie",
        "rack_legend": "Tirage barré : rejeté ; barré et « annulé » : coup annulé par l'arbitre, "
        "tiré à nouveau. Mot : minuscule rouge = joker.",
        "cancelled": "annulé",
        "board": "Grille finale",
        "tw": "MT",
        "dw": "MD",
        "tl": "LT",
        "dl": "LD",
        "tw_long": "mot compte triple",
        "dw_long": "mot compte double",
        "tl_long": "lettre compte triple",
        "dl_long": "lettre compte double",
        "blank_long": "joker (minuscule)",
        "col_slip": "Bulletin",
        "col_paid_round": "Payé",
        "col_sanction": "Sanction",
        "col_reason": "Motif",
        "col_top": "Top",
        "col_top_move": "Coup du top",
        "col_running": "Cumul",
        "no_slip": "(pas de bulletin)",
        "no_slip_reason": "pas de bulletin",
        "sum_paid": "Scores payés",
        "sum_solos": "Solos",
        "sum_solo_points": "Points de solo",
        "sum_warnings": "Avertissements",
        "sum_penalty": "Pénalité",
        "sum_total": "Total",
        "sum_top": "Top",
        "sum_percent": "%",
        "sum_rank": "Rang",
        "no_card": "Aucune fiche.",
        "file_ranking": "classement",
        "file_game": "feuille-de-partie",
        "file_cards": "fiches",
        "file_bundle": "resultats",
        "file_evening": "soiree",
    },
    "en": {
        "ranking": "Ranking",
        "game_sheet": "Game sheet",
        "score_card": "Score card",
        "date": "Date",
        "place": "Place",
        "lexicon": "Lexicon",
        "grading": "Grading",
        "grace": "Grace window",
        "round_time": "Time per round",
        "base": "Base",
        "tie_break": "Tie-break",
        "variant": "Variant",
        "printed": "Printed",
        "top": "Top",
        "players": "Players",
        "rounds": "Rounds",
        "page": "page {n} / {total}",
        "at": "at",
        "col_rank": "Rank",
        "col_series_rank": "Series\nrank",
        "col_category_rank": "Cat.\nrank",
        "col_table": "Table",
        "col_name": "Name",
        "col_club": "Club",
        "col_series": "Series",
        "col_category": "Category",
        "col_total": "Total",
        "col_paid": "Scores",
        "col_negatif": "Below\ntop",
        "col_percent": "%",
        "col_percent_total": "%\ntotal",
        "col_percent_paid": "%\nscores",
        "col_solos": "Solos",
        "col_warnings": "Warn.",
        "col_penalty": "Penalty",
        "solos": "Solos",
        "solo_item": "round {round}: {name}",
        "game_solo_item": "game {game}, round {round}: {name}",
        "col_centre": "Centre",
        "time_game": "game {game}",
        "time_round": "round {first}",
        "time_rounds": "rounds {first}\u2013{last}",
        "no_solo": "No solo.",
        "col_round": "No.",
        "col_rack": "Rack",
        "col_ref": "Ref.",
        "col_word": "Word",
        "col_score": "Score",
        "col_cumulated": "Total",
        "col_tied": "Tied\ntops",
        "game_total": "Top of the game",
        "rack_legend": "Struck-through rack: rejected; struck through and \u201ccancelled\u201d: round "
        "cancelled by the arbiter, drawn again. Word: red lower case = blank.",
        "cancelled": "cancelled",
        "board": "Final board",
        "tw": "TW",
        "dw": "DW",
        "tl": "TL",
        "dl": "DL",
        "tw_long": "triple word",
        "dw_long": "double word",
        "tl_long": "triple letter",
        "dl_long": "double letter",
        "blank_long": "blank (lower case)",
        "col_slip": "Slip",
        "col_paid_round": "Paid",
        "col_sanction": "Sanction",
        "col_reason": "Reason",
        "col_top": "Top",
        "col_top_move": "Top move",
        "col_running": "Total",
        "no_slip": "(no slip)",
        "no_slip_reason": "no slip",
        "sum_paid": "Paid scores",
        "sum_solos": "Solos",
        "sum_solo_points": "Solo points",
        "sum_warnings": "Warnings",
        "sum_penalty": "Penalty",
        "sum_total": "Total",
        "sum_top": "Top",
        "sum_percent": "%",
        "sum_rank": "Rank",
        "no_card": "No score card.",
        "file_ranking": "ranking",
        "file_game": "game-sheet",
        "file_cards": "score-cards",
        "file_bundle": "results",
        "file_evening": "evening",
    },
    "es": {
        "ranking": "Clasificación",
        "game_sheet": "Hoja de partida",
        "score_card": "Planilla del jugador",
        "date": "Fecha",
        "place": "Lugar",
        "lexicon": "Léxico",
        "grading": "Arbitraje",
        "grace": "Periodo de gracia",
        "round_time": "Tiempo por jugada",
        "base": "Base",
        "tie_break": "Desempate",
        "variant": "Variante",
        "printed": "Impreso",
        "top": "Top",
        "players": "Jugadores",
        "rounds": "Jugadas",
        "page": "página {n} / {total}",
        "at": "a las",
        "col_rank": "Pos.",
        "col_series_rank": "Pos.\nserie",
        "col_category_rank": "Pos.\ncat.",
        "col_table": "Mesa",
        "col_name": "Nombre",
        "col_club": "Club",
        "col_series": "Serie",
        "col_category": "Categoría",
        "col_total": "Total",
        "col_paid": "Puntos",
        "col_negatif": "Negativo",
        "col_percent": "%",
        "col_percent_total": "%\ntotal",
        "col_percent_paid": "%\npuntos",
        "col_solos": "Solos",
        "col_warnings": "Adv.",
        "col_penalty": "Penal.",
        "solos": "Solos",
        "solo_item": "jugada {round}: {name}",
        "game_solo_item": "partida {game}, jugada {round}: {name}",
        "col_centre": "Centro",
        "time_game": "partida {game}",
        "time_round": "jugada {first}",
        "time_rounds": "jugadas {first}\u2013{last}",
        "no_solo": "Ningún solo.",
        "col_round": "N.º",
        "col_rack": "Atril",
        "col_ref": "Coord.",
        "col_word": "Palabra",
        "col_score": "Puntos",
        "col_cumulated": "Acum.",
        "col_tied": "Tops\nempat.",
        "game_total": "Top de la partida",
        "rack_legend": "Atril tachado: rechazado; tachado y «anulado»: jugada anulada por el árbitro, "
        "letras sacadas de nuevo. Palabra: minúscula roja = comodín.",
        "cancelled": "anulado",
        "board": "Tablero final",
        "tw": "PT",
        "dw": "PD",
        "tl": "LT",
        "dl": "LD",
        "tw_long": "palabra triple",
        "dw_long": "palabra doble",
        "tl_long": "letra triple",
        "dl_long": "letra doble",
        "blank_long": "comodín (minúscula)",
        "col_slip": "Papeleta",
        "col_paid_round": "Anot.",
        "col_sanction": "Sanción",
        "col_reason": "Motivo",
        "col_top": "Top",
        "col_top_move": "Jugada del top",
        "col_running": "Acum.",
        "no_slip": "(sin papeleta)",
        "no_slip_reason": "sin papeleta",
        "sum_paid": "Puntos anotados",
        "sum_solos": "Solos",
        "sum_solo_points": "Puntos de solo",
        "sum_warnings": "Advertencias",
        "sum_penalty": "Penalización",
        "sum_total": "Total",
        "sum_top": "Top",
        "sum_percent": "%",
        "sum_rank": "Puesto",
        "no_card": "Ninguna planilla.",
        "file_ranking": "clasificacion",
        "file_game": "hoja-de-partida",
        "file_cards": "planillas",
        "file_bundle": "resultados",
        "file_evening": "velada",
    },
    "ca": {
        "ranking": "Classificació",
        "game_sheet": "Full de partida",
        "score_card": "Full de puntuació",
        "date": "Data",
        "place": "Lloc",
        "lexicon": "Lèxic",
        "grading": "Arbitratge",
        "grace": "Temps de gràcia",
        "round_time": "Temps per jugada",
        "base": "Base",
        "tie_break": "Desempat",
        "variant": "Variant",
        "printed": "Imprès",
        "top": "Top",
        "players": "Jugadors",
        "rounds": "Jugades",
        "page": "pàgina {n} / {total}",
        "at": "a les",
        "col_rank": "Pos.",
        "col_series_rank": "Pos.\nsèrie",
        "col_category_rank": "Pos.\ncat.",
        "col_table": "Taula",
        "col_name": "Nom",
        "col_club": "Club",
        "col_series": "Sèrie",
        "col_category": "Categoria",
        "col_total": "Total",
        "col_paid": "Punts",
        "col_negatif": "Negatiu",
        "col_percent": "%",
        "col_percent_total": "%\ntotal",
        "col_percent_paid": "%\npunts",
        "col_solos": "Solos",
        "col_warnings": "Adv.",
        "col_penalty": "Penal.",
        "solos": "Solos",
        "solo_item": "jugada {round}: {name}",
        "game_solo_item": "partida {game}, jugada {round}: {name}",
        "col_centre": "Centre",
        "time_game": "partida {game}",
        "time_round": "jugada {first}",
        "time_rounds": "jugades {first}\u2013{last}",
        "no_solo": "Cap solo.",
        "col_round": "N.",
        "col_rack": "Faristol",
        "col_ref": "Coord.",
        "col_word": "Paraula",
        "col_score": "Punts",
        "col_cumulated": "Acum.",
        "col_tied": "Tops\nempatats",
        "game_total": "Top de la partida",
        "rack_legend": "Faristol ratllat: rebutjat; ratllat i «anul·lat»: jugada anul·lada per l'àrbitre, "
        "lletres tretes de nou. Paraula: minúscula vermella = escarràs.",
        "cancelled": "anul·lat",
        "board": "Tauler final",
        "tw": "PT",
        "dw": "PD",
        "tl": "LT",
        "dl": "LD",
        "tw_long": "paraula triple",
        "dw_long": "paraula doble",
        "tl_long": "lletra triple",
        "dl_long": "lletra doble",
        "blank_long": "escarràs (minúscula)",
        "col_slip": "Butlleta",
        "col_paid_round": "Punt.",
        "col_sanction": "Sanció",
        "col_reason": "Motiu",
        "col_top": "Top",
        "col_top_move": "Jugada del top",
        "col_running": "Acum.",
        "no_slip": "(sense butlleta)",
        "no_slip_reason": "sense butlleta",
        "sum_paid": "Punts obtinguts",
        "sum_solos": "Solos",
        "sum_solo_points": "Punts de solo",
        "sum_warnings": "Advertiments",
        "sum_penalty": "Penalització",
        "sum_total": "Total",
        "sum_top": "Top",
        "sum_percent": "%",
        "sum_rank": "Posició",
        "no_card": "Cap full de puntuació.",
        "file_ranking": "classificacio",
        "file_game": "full-de-partida",
        "file_cards": "fulls-de-puntuacio",
        "file_bundle": "resultats",
        "file_evening": "vetllada",
    },
}

#: Characters WinAnsi lacks that have an obvious stand-in.
_SUBSTITUTES = {"\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2043": "-", "\u2032": "'", "\u2033": '"'}
_ELLIPSIS = "…"


def labels(lang: str) -> dict[str, str]:
    """The fixed labels of one language; French for any language the sheets do not have."""
    return LABELS.get(lang, LABELS["fr"])


def label_value(lang: str, label: str) -> str:
    """The label before a value: "Lieu : " in French (a space before the colon), "Place: ",
    "Lugar: " and "Lloc: " in English, Spanish and Catalan."""
    return f"{label}\u00a0: " if lang == "fr" else f"{label}: "


@functools.cache
def _safe_char(ch: str) -> str:
    if ch in _SUBSTITUTES:
        return _SUBSTITUTES[ch]
    kind = unicodedata.category(ch)
    if kind in ("Cc", "Zl", "Zp"):
        return " "
    if kind in ("Cf", "Mn", "Me"):
        return ""
    if _encodable(ch):
        return ch
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if base and _encodable(base):
        return base
    # An emoji is decoration and is dropped; a letter of another script stays visible as "?".
    return "" if kind.startswith("S") else "?"


def _encodable(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def pdf_text(text: str) -> str:
    """``text`` with only characters the standard fonts print."""
    safe = "".join(_safe_char(ch) for ch in unicodedata.normalize("NFC", text))
    return re.sub(r"  +", " ", safe)


def markup(text: str) -> str:
    """``text`` made safe for the fonts and escaped for a reportlab ``Paragraph``."""
    return pdf_text(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, "…" marking a cut: a table row must fit on one page."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + _ELLIPSIS


def fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` shortened with "…" so that it fits ``width`` points (for one-line cells and footers)."""
    text = pdf_text(text)
    if stringWidth(text, font, size) <= width:
        return text
    # No Helvetica glyph is narrower than 0.19 of the size: cut first what cannot fit anyway.
    text = text[: int(width / (size * 0.19)) + 1]
    while text and stringWidth(text + _ELLIPSIS, font, size) > width:
        text = text[:-1]
    return text.rstrip() + _ELLIPSIS


#: The languages written with a decimal point ("96.45"); the others write a comma ("96,45").
DECIMAL_POINT = frozenset({"en"})


def decimal_mark(lang: str) -> str:
    return "." if lang in DECIMAL_POINT else ","


def percent(value: float, lang: str) -> str:
    """Two decimals with the decimal mark of ``lang``: "96,45" in French, Spanish and Catalan."""
    return f"{value:.2f}".replace(".", decimal_mark(lang))


def signed(value: int) -> str:
    """A négatif or a bonus: "-35", "0", "+5" (an ASCII hyphen: WinAnsi has no minus sign)."""
    return f"{value:+d}" if value else "0"


def duration(seconds: int) -> str:
    """Thinking time as announced: "3 min", "2 min 30 s", "45 s"."""
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


def day(value: datetime.date, lang: str) -> str:
    """ "14/05/2026" (day first, as French, Spanish and Catalan write it); "2026-05-14" in English."""
    return value.isoformat() if lang == "en" else value.strftime("%d/%m/%Y")


def moment(value: datetime.datetime, lang: str) -> str:
    return f"{day(value.date(), lang)} {labels(lang)['at']} {value:%H:%M}"


def slug(text: str) -> str:
    """ASCII file-name part: "Coupe du Club (été)" → "coupe-du-club-ete"."""
    spelled = text.replace("Œ", "OE").replace("œ", "oe").replace("Æ", "AE").replace("æ", "ae")
    ascii_text = unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:60].strip("-")
