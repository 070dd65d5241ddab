"""Registration: tournaments and players, one by one or from a spreadsheet's CSV."""

from __future__ import annotations

import csv
import io

from engine import grading as engine_grading
from lexicons.models import LexiconList
from lexicons.services import lexicon_upload
from server.writes import ServiceError, writing
from tournaments.models import Player, Tournament


def tournament_create(
    *, created_by, lexicon: LexiconList, warning_threshold: int | None = None, **fields
) -> Tournament:
    """A tournament; without a warning threshold, the rules' one for its round time (§3.4: three
    warnings are free, five in blitz)."""
    if warning_threshold is None:
        seconds = fields.get("round_seconds", Tournament.RoundTime.STANDARD)
        warning_threshold = engine_grading.warning_threshold(seconds)
    return Tournament.objects.create(
        created_by=created_by, lexicon=lexicon, warning_threshold=warning_threshold, **fields
    )


def tournament_create_with_list(
    *, created_by, lexicon: LexiconList | None, list_file: tuple[str, bytes] | None = None, **fields
) -> Tournament:
    """A tournament on a stored word list, or on a list the arbiter uploads with the form."""
    with writing():
        if list_file is not None:
            name, data = list_file
            lexicon = lexicon_upload(name=name, data=data)
        return tournament_create(created_by=created_by, lexicon=lexicon, **fields)


def player_register(
    *, tournament: Tournament, name: str, table_number: int | None = None, **fields
) -> Player:
    """A player, on the next free table unless one is given.  Registering after rounds were played
    is allowed: the rounds before count zero for them (§3.4)."""
    name = name.strip()
    if not name:
        raise ServiceError("player_no_name")
    if table_number is None:
        used = set(tournament.players.values_list("table_number", flat=True))
        table_number = next(n for n in range(1, len(used) + 2) if n not in used)
    elif tournament.players.filter(table_number=table_number).exists():
        raise ServiceError("player_table_taken", table=table_number)
    return Player.objects.create(tournament=tournament, name=name, table_number=table_number, **fields)


CSV_FIELDS = ("name", "club", "licence", "series", "category", "table_number")

_CSV_HEADERS = {
    "nom": "name", "name": "name", "club": "club", "licence": "licence", "license": "licence",
    "série": "series", "serie": "series", "series": "series", "catégorie": "category",
    "categorie": "category", "category": "category", "table": "table_number",
}  # fmt: skip


def players_import_csv(*, tournament: Tournament, data: bytes) -> list[Player]:
    """Players from a spreadsheet's CSV (comma or semicolon, UTF-8 or Latin-1); all or nothing."""
    with writing():
        return _players_import(tournament, data)


def _players_import(tournament: Tournament, data: bytes) -> list[Player]:
    text = _decode_csv(data)
    dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t")
    reader = csv.reader(io.StringIO(text), dialect)
    rows = [row for row in reader if any(cell.strip() for cell in row)]
    if not rows:
        raise ServiceError("csv_empty")
    header = [_CSV_HEADERS.get(cell.strip().lower()) for cell in rows[0]]
    if "name" not in header:
        header, body = ["name", "club", "licence", "series", "category", "table_number"], rows
    else:
        body = rows[1:]
    players = []
    for line, row in enumerate(body, 2 if body is not rows else 1):
        fields = {key: cell.strip() for key, cell in zip(header, row) if key}
        table = fields.pop("table_number", "")
        if table and not table.isdigit():
            raise ServiceError("csv_table", line=line, value=table)
        players.append(
            player_register(tournament=tournament, table_number=int(table) if table else None, **fields)
        )
    return players


def _decode_csv(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
