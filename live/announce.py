"""The rack announced aloud the arbiter's way (§3.3.1): the projector's voice."""

from __future__ import annotations

from engine import alphabet
from engine.alphabet import FRENCH, LetterSet
from engine.draw import Rejection
from engine.notation import parse_rack
from tournaments.models import Round

#: The country table the arbiter spells tiles with (§3.3.1).
COUNTRIES = {
    "A": "Algérie", "B": "Belgique", "C": "Canada", "D": "Danemark", "E": "Égypte", "F": "France",
    "G": "Grèce", "H": "Hongrie", "I": "Italie", "J": "Jordanie", "K": "Kenya", "L": "Luxembourg",
    "M": "Maroc", "N": "Norvège", "O": "Océanie", "P": "Portugal", "Q": "Québec", "R": "Roumanie",
    "S": "Suisse", "T": "Tunisie", "U": "Uruguay", "V": "Venezuela", "W": "Wallonie", "X": "Xénophon",
    "Y": "Yougoslavie", "Z": "Zambie",
}  # fmt: skip

BLANK_SPOKEN = "Joker, lettre blanche"

_NUMBERS = ("zéro", "une", "deux", "trois", "quatre", "cinq", "six", "sept")

THIRTY_SECONDS = "Trente secondes."

TIME_UP = "Terminé."


def spelled(code: int, letters: LetterSet = FRENCH) -> str:
    """A tile as the arbiter says it: ``Algérie A``, ``Joker, lettre blanche``; a tile the country
    table does not spell (``CH``, ``Ñ``, ``L·L``) by its name."""
    if code == alphabet.BLANK:
        return BLANK_SPOKEN
    letter = alphabet.char(code, letters)
    country = COUNTRIES.get(letter)
    return f"{country} {letter}" if country else letter


def _count(n: int) -> str:
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return word[:1].upper() + word[1:]


def rack_sentences(rack: str, letters: LetterSet = FRENCH) -> list[str]:
    """One rack as written on records (``AEI+BLRN``, ``-BONSOIR``)."""
    parsed = parse_rack(rack, letters)
    return _spoken_rack(parsed.reliquat, parsed.new, letters)


def _spoken_rack(reliquat, new, letters: LetterSet = FRENCH) -> list[str]:
    """The number of kept letters and the reliquat in alphabetical order (blank last), then each
    new tile in the order drawn (§3.3.1)."""
    sentences = []
    if reliquat:
        n = len(reliquat)
        kept = ", ".join(spelled(t, letters) for t in sorted(reliquat))
        plural = "s" if n > 1 else ""
        sentences.append(f"{_count(n)} lettre{plural} restante{plural} : {kept}.")
        sentences.append("Tirage :")
    sentences.extend(f"{spelled(t, letters)}." for t in new)
    return sentences


def announcement(
    number: int, rack: str, rejections=(), reliquat: int = 0, reasons=(), letters: LetterSet = FRENCH
) -> list[str]:
    """The sentences the voice says for a round's rack (§3.3.1): each rejected rack as drawn (the
    first one begins with the ``reliquat`` kept letters, unless its text marks them ``AEI+BCD``),
    "rejet", why (``reasons``: ``engine.draw.Rejection`` values) and the number of letters
    returned, then the rack that stands."""
    sentences = [f"Coup numéro {number}."]
    for index, rejected in enumerate(rejections):
        written = parse_rack(rejected, letters)
        tiles = written.tiles
        kept = len(written.reliquat) or (reliquat if index == 0 else 0)
        sentences.extend(_spoken_rack(tiles[:kept], tiles[kept:], letters))
        why = _reason(reasons[index] if index < len(reasons) else "")
        sentences.append(f"Rejet{why} : {_count(len(tiles)).lower()} lettres remises dans le sac.")
    sentences.extend(rack_sentences(rack, letters))
    return sentences


def _reason(code: str) -> str:
    """``, pas assez de voyelles`` said after "Rejet" (the voice speaks French); nothing when unknown."""
    try:
        return f", {Rejection(code).message.text('fr')}"
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
            reliquat = len(last.tiles) - len(last.placed["tiles"])
    letters = rnd.game.tournament.letter_set
    return announcement(rnd.number, rnd.rack, rnd.rejections, reliquat, rnd.rejection_reasons, letters)
