"""The rack announced aloud the arbiter's way (§3.3.1): the projector's voice, in the language of
the tournament's letter set (a Spanish bag is called in Spanish)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import alphabet
from engine.alphabet import FRENCH, LetterSet
from engine.draw import Rejection
from engine.notation import parse_rack
from engine.variants import Variant
from tournaments.models import Round
from tournaments.plays import reliquat_after

#: The most tiles a rack said aloud holds: eight in seven among eight (a stored rack is read whole).
LONGEST_RACK = max(variant.rack_size for variant in Variant)

#: The country table the French arbiter spells tiles with (§3.3.1).
COUNTRIES = {
    "A": "Algérie", "B": "Belgique", "C": "Canada", "D": "Danemark", "E": "Égypte", "F": "France",
    "G": "Grèce", "H": "Hongrie", "I": "Italie", "J": "Jordanie", "K": "Kenya", "L": "Luxembourg",
    "M": "Maroc", "N": "Norvège", "O": "Océanie", "P": "Portugal", "Q": "Québec", "R": "Roumanie",
    "S": "Suisse", "T": "Tunisie", "U": "Uruguay", "V": "Venezuela", "W": "Wallonie", "X": "Xénophon",
    "Y": "Yougoslavie", "Z": "Zambie",
}  # fmt: skip

#: The tiles' names in Spanish and Catalan, as said aloud (a synthetic voice reads "LL" or "NY"
#: letter by letter); a tile without a name here is said as written.
SPANISH_NAMES = {
    "A": "a", "B": "be", "C": "ce", "CH": "che", "D": "de", "E": "e", "F": "efe", "G": "ge",
    "H": "hache", "I": "i", "J": "jota", "K": "ka", "L": "ele", "LL": "elle", "M": "eme", "N": "ene",
    "Ñ": "eñe", "O": "o", "P": "pe", "Q": "cu", "R": "erre", "RR": "doble erre", "S": "ese", "T": "te",
    "U": "u", "V": "uve", "W": "uve doble", "X": "equis", "Y": "i griega", "Z": "zeta",
}  # fmt: skip
CATALAN_NAMES = {
    "A": "a", "B": "be", "C": "ce", "Ç": "ce trencada", "D": "de", "E": "e", "F": "efa", "G": "ge",
    "H": "hac", "I": "i", "J": "jota", "K": "ca", "L": "ela", "L·L": "ela geminada", "M": "ema",
    "N": "ena", "NY": "enya", "O": "o", "P": "pe", "QU": "cu", "R": "erra", "S": "essa", "T": "te",
    "U": "u", "V": "ve baixa", "W": "ve doble", "X": "ics", "Y": "i grega", "Z": "zeta",
}  # fmt: skip


@dataclass(frozen=True)
class Voice:
    """What the voice says in one language, and the language the browser speaks it in."""

    speech: str
    round: str
    kept: tuple[str, str]
    drawn: str
    rejected: str
    blank: str
    thirty: str
    time_up: str
    numbers: tuple[str, ...]
    names: dict[str, str]
    #: "Algérie A" (the French table) or the tile's name alone.
    countries: bool = False


VOICES = {
    "fr": Voice(
        "fr-FR", "Coup numéro {n}.", ("{n} lettre restante : {kept}.", "{n} lettres restantes : {kept}."),
        "Tirage :", "Rejet{why} : {n} lettres remises dans le sac.", "Joker, lettre blanche",
        "Trente secondes.", "Terminé.",
        ("zéro", "une", "deux", "trois", "quatre", "cinq", "six", "sept", "huit"),
        COUNTRIES, countries=True,
    ),
    "es": Voice(
        "es-ES", "Jugada número {n}.", ("Queda {n} ficha: {kept}.", "Quedan {n} fichas: {kept}."),
        "Nuevas fichas:", "Rechazo{why}: {n} fichas devueltas a la bolsa.", "Comodín",
        "Treinta segundos.", "Tiempo.",
        ("cero", "una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho"),
        SPANISH_NAMES,
    ),
    "ca": Voice(
        "ca-ES", "Jugada número {n}.", ("Queda {n} fitxa: {kept}.", "Queden {n} fitxes: {kept}."),
        "Noves fitxes:", "Rebuig{why}: {n} fitxes tornen a la bossa.", "Escarràs",
        "Trenta segons.", "Temps.", ("zero", "una", "dues", "tres", "quatre", "cinc", "sis", "set", "vuit"),
        CATALAN_NAMES,
    ),
    "en": Voice(
        "en-GB", "Round {n}.", ("{n} tile kept: {kept}.", "{n} tiles kept: {kept}."),
        "Drawn:", "Rejected{why}: {n} tiles back in the bag.", "Blank",
        "Thirty seconds.", "Time.", ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight"),
        {},
    ),
}  # fmt: skip

BLANK_SPOKEN = VOICES["fr"].blank
THIRTY_SECONDS = VOICES["fr"].thirty
TIME_UP = VOICES["fr"].time_up


def voice_of(letters: LetterSet = FRENCH) -> Voice:
    """The voice of a letter set: its own language's, French for a set without one."""
    return VOICES.get(letters.code, VOICES["fr"])


def spelled(code: int, letters: LetterSet = FRENCH) -> str:
    """A tile as the arbiter says it: ``Algérie A``, ``Joker, lettre blanche``; ``che`` in Spanish; a
    tile the voice has no name for by itself."""
    voice = voice_of(letters)
    if code == alphabet.BLANK:
        return voice.blank
    letter = alphabet.char(code, letters)
    name = voice.names.get(letter)
    if name is None:
        return letter
    return f"{name} {letter}" if voice.countries else name


def _count(n: int, voice: Voice) -> str:
    return voice.numbers[n] if n < len(voice.numbers) else str(n)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def rack_sentences(rack: str, letters: LetterSet = FRENCH) -> list[str]:
    """One rack as written on records (``AEI+BLRN``, ``-BONSOIR``)."""
    parsed = parse_rack(rack, letters, LONGEST_RACK)
    return _spoken_rack(parsed.reliquat, parsed.new, letters)


def _spoken_rack(reliquat, new, letters: LetterSet = FRENCH) -> list[str]:
    """The number of kept letters and the reliquat in alphabetical order (blank last), then each
    new tile in the order drawn (§3.3.1)."""
    voice = voice_of(letters)
    sentences = []
    if reliquat:
        n = len(reliquat)
        kept = ", ".join(spelled(t, letters) for t in sorted(reliquat))
        sentences.append(_sentence(voice.kept[n > 1].format(n=_count(n, voice), kept=kept)))
        sentences.append(voice.drawn)
    sentences.extend(f"{spelled(t, letters)}." for t in new)
    return sentences


def announcement(
    number: int, rack: str, rejections=(), reliquat: int = 0, reasons=(), letters: LetterSet = FRENCH
) -> list[str]:
    """The sentences the voice says for a round's rack (§3.3.1): each rejected rack as drawn (the
    first one begins with the ``reliquat`` kept letters, unless its text marks them ``AEI+BCD``),
    "rejet", why (``reasons``: ``engine.draw.Rejection`` values) and the number of letters
    returned, then the rack that stands."""
    voice = voice_of(letters)
    sentences = [voice.round.format(n=number)]
    for index, rejected in enumerate(rejections):
        written = parse_rack(rejected, letters, LONGEST_RACK)
        tiles = written.tiles
        kept = len(written.reliquat) or (reliquat if index == 0 else 0)
        sentences.extend(_spoken_rack(tiles[:kept], tiles[kept:], letters))
        why = _reason(reasons[index] if index < len(reasons) else "", letters)
        sentences.append(voice.rejected.format(why=why, n=_count(len(tiles), voice)))
    sentences.extend(rack_sentences(rack, letters))
    return sentences


def _reason(code: str, letters: LetterSet = FRENCH) -> str:
    """``, pas assez de voyelles`` said after "Rejet", in the voice's language; nothing when unknown."""
    lang = letters.code if letters.code in VOICES else "fr"
    try:
        return f", {Rejection(code).message.text(lang)}"
    except ValueError:
        return ""


def round_announcement(rnd: Round) -> list[str]:
    reliquat = 0
    if rnd.rejections and rnd.number > 1:
        previous = Round.objects.filter(
            game_id=rnd.game_id, number=rnd.number - 1, status=Round.Status.PLACED
        )
        last = previous.only("tiles", "placed").first()
        if last is not None and last.placed:
            # A joker game's blank come back is kept with the other tiles (``Round.placed``).
            reliquat = len(reliquat_after(last.tiles, last.placed, rnd.game.tournament.letter_set))
    letters = rnd.game.tournament.letter_set
    return announcement(rnd.number, rnd.rack, rnd.rejections, reliquat, rnd.rejection_reasons, letters)
