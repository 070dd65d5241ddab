"""Registration: tournaments and players one by one (a spreadsheet's CSV: ``players_csv``); their settings
and details changed when the arbiter made a mistake; a player without slips removed."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection

from clubs.access import home_club
from engine import grading as engine_grading
from engine.categories import category_code
from lexicons.models import LexiconList
from lexicons.services import lexicon_upload
from server.text import clean_text
from server.writes import ServiceError, writing
from tournaments import selectors
from tournaments.models import INTERFACE_LANGUAGES, Player, Round, Submission, Tournament, new_join_code

#: Settings a played game's slips were graded with (§3.3.3, §3.4, §6): fixed once a game has started,
#: so that no graded slip would be graded otherwise.  The others only change how results are counted
#: and ranked (computed afresh), or the rounds still to come.
LOCKED_ONCE_PLAYED = ("letters", "lexicon", "grading", "grace_seconds")


def tournament_create(
    *, created_by, lexicon: LexiconList, warning_threshold: int | None = None, owner=None, **fields
) -> Tournament:
    """A tournament of ``owner`` (a ``clubs.Club``; by default the creator's club); without a
    warning threshold, the rules' one for its round time (§3.4: three warnings are free, five in
    blitz)."""
    if warning_threshold is None:
        seconds = fields.get("round_seconds", Tournament.RoundTime.STANDARD)
        warning_threshold = engine_grading.warning_threshold(seconds)
    _same_letters(lexicon, fields.get("letters", "fr"))
    if "sheet_language" not in fields and fields.get("letters", "fr") in dict(INTERFACE_LANGUAGES):
        fields["sheet_language"] = fields.get("letters", "fr")  # a set's sheets speak its language
    return Tournament.objects.create(
        created_by=created_by,
        owner=owner or home_club(created_by),
        lexicon=lexicon,
        warning_threshold=warning_threshold,
        **fields,
    )


def tournament_create_with_list(
    *,
    created_by,
    lexicon: LexiconList | None,
    list_file: tuple[str, bytes] | None = None,
    owner=None,
    **fields,
) -> Tournament:
    """A tournament on a stored word list, or on a list the arbiter uploads with the form.  The list
    is read and its graph built before the room's write lock is taken: slips never wait for it."""
    owner = owner or home_club(created_by)
    if list_file is not None:
        name, data = list_file
        lexicon = lexicon_upload(name=name, data=data, club=owner, letters=fields.get("letters", "fr"))
    with writing():
        return tournament_create(created_by=created_by, lexicon=lexicon, owner=owner, **fields)


def _same_letters(lexicon: LexiconList, letters: str) -> None:
    """A tournament plays a list of its own letter set (``LexiconList.letters``)."""
    if lexicon.letters != letters:
        raise ServiceError("lexicon_other_letters", name=lexicon.name, letters=lexicon.letters)


def tournament_locked(tournament: Tournament) -> tuple[str, ...]:
    """The settings that can no longer change: a game has started (``LOCKED_ONCE_PLAYED``)."""
    return LOCKED_ONCE_PLAYED if tournament.games.exists() else ()


def tournament_update(*, tournament: Tournament, **fields) -> Tournament:
    """Change a tournament's settings.  Rankings follow at once (computed from the settings); the
    settings a played game was graded with are refused (``tournament_locked``)."""
    with writing():
        stored = Tournament.objects.select_for_update().get(pk=tournament.pk)
        locked = [name for name in tournament_locked(stored) if name in fields]
        changed = [name for name in locked if getattr(stored, name) != fields[name]]
        if changed:
            raise ServiceError("tournament_locked", field=changed[0])
        if "letters" in fields or "lexicon" in fields:
            _same_letters(fields.get("lexicon", stored.lexicon), fields.get("letters", stored.letters))
        if "warning_threshold" in fields and fields["warning_threshold"] is None:
            seconds = fields.get("round_seconds", stored.round_seconds)
            fields["warning_threshold"] = engine_grading.warning_threshold(seconds)
        for name, value in fields.items():
            setattr(stored, name, value)
            setattr(tournament, name, value)  # the caller's copy says the same
        stored.save(update_fields=list(fields))
        _redraw_screens(stored)
    return stored


def _redraw_screens(tournament: Tournament) -> None:
    """The phones, the projector and the arbiter's screen show standings: they redraw."""
    rnd = Round.objects.filter(game__tournament=tournament).order_by("-id").first()
    if rnd is not None:
        rnd.version += 1  # saved, not updated: the phones' memo hears of it (server/memo.py)
        rnd.save(update_fields=["version"])


def player_register(
    *, tournament: Tournament, name: str, table_number: int | None = None, **fields
) -> Player:
    """A player, on the next free table unless one is given.  Registering after rounds were played
    is allowed: the rounds before count zero for them (§3.4)."""
    fields = _player_fields(name=name, **fields)
    if table_number is None:
        used = selectors.tables_in_use(tournament)
        table_number = next(n for n in range(1, len(used) + 2) if n not in used)
    elif tournament.players.filter(table_number=table_number).exists():
        raise ServiceError("player_table_taken", table=table_number)
    return Player.objects.create(
        tournament=tournament, table_number=table_number, join_code=codes_fresh(1)[0], **fields
    )


def _player_fields(*, name: str, category: str = "", **fields) -> dict:
    """A player's details as stored: a name, and a category of the category table, by its code."""
    name = clean_text(name).strip()
    fields = {
        key: clean_text(value).strip() if isinstance(value, str) else value for key, value in fields.items()
    }
    if not name:
        raise ServiceError("player_no_name")
    code = category_code(category)
    if code is None:
        raise ServiceError("player_category", category=category.strip())
    return {"name": name, "category": code, **fields}


def player_update(*, player: Player, table_number: int, **fields) -> Player:
    """Correct a player's details (name, club, licence, series, category, table): the sheets and the
    phone follow, their slips stay theirs."""
    fields = _player_fields(**fields)
    with writing():
        if not player_held(player):
            raise ServiceError("player_gone", name=player.name)
        taken = Player.objects.filter(tournament_id=player.tournament_id, table_number=table_number)
        if taken.exclude(pk=player.pk).exists():
            raise ServiceError("player_table_taken", table=table_number)
        for name, value in {**fields, "table_number": table_number}.items():
            setattr(player, name, value)
        player.save(update_fields=[*fields, "table_number"])
        _redraw_screens(player.tournament)
    return player


def player_remove(*, player: Player) -> None:
    """Remove a player registered by mistake; one who handed in a slip stays (results keep them).

    The player's row is locked first: a slip being stored for them (``player_held``) is waited for,
    and then seen (refused: they have a slip); a slip that comes after finds them gone.  No slip
    ever points to a removed player.  Every process sees the removal at once (``live.room``:
    the room's mark), and the screens redraw without them."""
    with writing():
        rows = Player.objects.select_for_update().filter(pk=player.pk).values_list("pk", flat=True)
        if rows.first() is None:
            return  # removed meanwhile (the arbiter's other tab)
        if Submission.objects.filter(player=player).exists():
            raise ServiceError("player_has_slips", name=player.name)
        player.delete()
        _redraw_screens(player.tournament)


def player_held(player: Player) -> bool:
    """Whether ``player`` is still registered, their row held until the transaction ends (what a row
    pointing to them takes anyway: PostgreSQL's FOR KEY SHARE, which only a removal waits for; on
    SQLite the write transaction holds the whole database).  Slips and corrections call it before
    they store a row for the player (a memo's player may have been removed since)."""
    lock = " FOR KEY SHARE" if connection.vendor == "postgresql" else ""
    table = connection.ops.quote_name(Player._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s{lock}", [player.pk])
        return cursor.fetchone() is not None


def codes_fresh(count: int, *, avoid: Iterable[str] = ()) -> list[str]:
    """``count`` new codes, all different, held by no player of the installation nor in ``avoid``
    (codes about to be written beside them).  Random codes of 40 bits rarely meet: one query,
    another only for the few that did."""
    taken = set(avoid)
    codes: list[str] = []
    while len(codes) < count:
        batch = set()
        while len(batch) < count - len(codes):
            code = new_join_code()
            if code not in taken:
                batch.add(code)
        batch -= set(Player.objects.filter(join_code__in=batch).values_list("join_code", flat=True))
        codes += batch
        taken |= batch
    return codes
