"""Synthetic results for the benchmark and the tests: a real game, invented players, consistent figures.

The game is the first reference game (tests/data/reference-games/game-001.json, fr-wfrench), with two
invented rejected draws; the players' slips are drawn at random from a seed, then paid, ranked and given
solos by the rules (§3.4, §3.5, §4), so that the ranking, the game sheet and the cards agree.
"""

from __future__ import annotations

import datetime
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from engine.categories import category_label
from engine.ranking import Row, percent, rounded
from results.reports.data import (
    CardRound,
    GamePapers,
    GameRound,
    GameSheet,
    RankingSheet,
    ScoreCard,
    SheetHeader,
)

#: (rack, rejected draws, ref, word, score, tied)
GAME = (
    ("VDFIR?A", (), "H4", "FAVoRI", 30, 1),
    ("D+IBHIQE", (), "G8", "EH", 20, 1),
    ("BDIIQ+JT", (), "G3", "BIT", 15, 1),
    ("DIJQ+NRE", (), "5G", "TAJINE", 26, 1),
    ("DQR+UENA", (), "J2", "DARIQUE", 35, 1),
    ("-FESSOYT", ("SS+YTFKW",), "L4", "FESTOYES", 92, 1),
    ("SUAATSU", (), "10H", "SAUTES", 20, 2),
    ("AU+TCONI", (), "2B", "CAUTION", 78, 1),
    ("DEMOIEE", (), "1A", "DEME", 31, 3),
    ("EIO+KAAR", (), "11E", "KORE", 39, 1),
    ("AAI+REGO", (), "K8", "GATERAI", 35, 1),
    ("O+BECWML", (), "14J", "CIBLE", 30, 1),
    ("MOW+ENEH", (), "F10", "WON", 32, 1),
    ("EEHMO+XR", (), "O14", "EX", 43, 2),
    ("EHMOR+IU", (), "15F", "HOMIE", 31, 2),
    ("RU+NOOAN", (), "12B", "ROUAN", 21, 1),
    ("NNO+ESNZ", (), "B10", "ZEROS", 68, 1),
    ("-ANTMENA", ("NS+NTMNW",), "14D", "AMENA", 20, 3),
    ("NT+UVNDT", (), "3A", "DUT", 21, 1),
    ("NNTV+GLE", (), "M9", "EST", 20, 1),
    ("-?NILILR", (), "E2", "TRILLIoN", 64, 1),
    ("GNVSUPP", (), "A13", "PUS", 21, 2),
    ("GNPV+ELL", (), "12H", "EL", 18, 4),
)

NAMES = (
    "Chloé Martin", "Zoë Lefèvre", "Étienne Œhmichen", "Françoise Dubœuf", "Jean-François L'Hôte",
    "Gaëlle Brûlé", "Jürgen Groß", "Noël Cœur", "Ana Ibáñez", "Mia 🌟 Dupont", "王芳", "Björn Ångström",
    "Hélène Nguyễn", "Agnès Ç. Garçon", "Lætitia Bérard", "Yves Le Tallec", "Maëlle Kerjean", "Inès Haddad",
    "Thérèse Pâquet", "Rémi Lévêque",
    "Marie-Antoinette de la Tour d'Auvergne-Lauraguais, dite « Tonton », épouse Castelnau-Montmirail",
)  # fmt: skip
CLUBS = (
    "Montréal-Nord", "Saint-Étienne Scrabble", "Club de Besançon", "Les Mots d'Aÿ", "Scrabble Club de l'Île",
    "Association des amateurs de mots croisés et de Scrabble duplicate de Châlons-en-Champagne",
)  # fmt: skip
SERIES = ("1", "2", "3", "4A", "4B", "5", "6", "7")
#: Category codes (``engine.categories``), named in the sheet's language.
CATEGORIES = ("", "", "J", "V", "D")
SOLO_VALUE, SOLO_MIN_PLAYERS = 10, 16
WARNING_THRESHOLD, WARNING_PENALTY = 3, 5

TEXTS = {
    "fr": {
        "game": "Partie 2",
        "game_n": "Partie {n}",
        "overall": "Classement général",
        "place": "Salle des fêtes « Le Cèdre », Montréal",
        "grading": "FISF",
        "base": "total (solos et pénalités compris)",
        "tie_break": "aucun (ex æquo)",
        "warning": ("avertissement", "score annoncé {claimed}, score réel {paid}"),
        "minus5": ("-5", "référence absente ; mot et score justes"),
        "zero": ("zéro", "mot absent du lexique : {word}S (ni le mot principal ni ses rajouts ne passent)"),
        "late": ("zéro", "bulletin reçu après la fin du temps et du délai de grâce de 2 s"),
    },
    "en": {
        "game": "Game 2",
        "game_n": "Game {n}",
        "overall": "Overall ranking",
        "place": "Village hall « Le Cèdre », Montréal",
        "grading": "FISF",
        "base": "total (with solos and penalties)",
        "tie_break": "none (equal totals share a rank)",
        "warning": ("warning", "claimed {claimed}, scores {paid}"),
        "minus5": ("-5", "no reference; word and score right"),
        "zero": ("zero", "not in the lexicon: {word}S (neither the main word nor its hooks are valid)"),
        "late": ("zero", "slip received after the end of the round and the 2 s grace window"),
    },
    "es": {
        "game": "Partida 2",
        "game_n": "Partida {n}",
        "overall": "Clasificación general",
        "place": "Salón de actos «Le Cèdre», Montréal",
        "grading": "FISF",
        "base": "total con solos y penalizaciones",
        "tie_break": "ninguno: empate (mismo puesto)",
        "warning": ("advertencia", "puntuación anunciada {claimed}, puntuación real {paid}"),
        "minus5": ("-5", "sin coordenada; palabra y puntuación correctas"),
        "zero": (
            "cero",
            "palabra fuera del léxico: {word}S (ni la palabra principal ni sus añadidos son válidos)",
        ),
        "late": ("cero", "papeleta recibida tras el final del tiempo y del periodo de gracia de 2 s"),
    },
    "ca": {
        "game": "Partida 2",
        "game_n": "Partida {n}",
        "overall": "Classificació general",
        "place": "Sala d'actes «Le Cèdre», Montréal",
        "grading": "FISF",
        "base": "total amb solos i penalitzacions",
        "tie_break": "cap: els empatats comparteixen la posició",
        "warning": ("advertiment", "puntuació anunciada {claimed}, puntuació real {paid}"),
        "minus5": ("-5", "sense coordenada; paraula i puntuació correctes"),
        "zero": (
            "zero",
            "paraula fora del lèxic: {word}S (ni la paraula principal ni les seves ampliacions són vàlides)",
        ),
        "late": ("zero", "butlleta rebuda després del final del temps i del temps de gràcia de 2 s"),
    },
}


@dataclass
class _Player:
    name: str
    club: str
    series: str
    category: str
    table: int
    rounds: list[CardRound]
    warnings: int = 0
    solos: int = 0


def sample_header(lang: str = "fr") -> SheetHeader:
    texts = TEXTS[lang]
    return SheetHeader(
        tournament="Coupe du club de Montréal-Nord",
        game=texts["game"],
        date=datetime.date(2026, 11, 20),
        place=texts["place"],
        lexicon="fr-wfrench",
        lexicon_checksum="3f2a9c1b0d4e7a55c6b1e0f9d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e4f",
        grading=texts["grading"],
        grace_seconds=2,
        round_seconds=180,
        base=texts["base"],
        tie_break=texts["tie_break"],
        generated_at=datetime.datetime(2026, 11, 20, 18, 42),
        lang=lang,
    )


def sample_results(
    players: int = 40, lang: str = "fr", seed: int = 1, number: int | None = None
) -> tuple[RankingSheet, GameSheet, tuple[ScoreCard, ...]]:
    """One game (game 2 unless ``number`` says) played by ``players`` players."""
    header = sample_header(lang)
    if number is not None:
        header = replace(header, game=TEXTS[lang]["game_n"].format(n=number))
    game = sample_game(header)
    field = [_player(i, game, lang, random.Random(seed * 1000 + i)) for i in range(players)]
    solos = _award_solos(field)
    rows = _ranking_rows(field, game.total)
    cards = tuple(_card(header, p, rows, game.total) for p in sorted(field, key=lambda p: p.table))
    return RankingSheet(header, game.total, rows, solos), game, cards


def sample_evening(
    games: int = 3, players: int = 40, lang: str = "fr"
) -> tuple[RankingSheet, tuple[GamePapers, ...]]:
    """An evening of ``games`` games played by the same players (each game's slips from its own seed)
    and the tournament's ranking, the games' figures added up (§4, cumulated)."""
    numbers = range(1, games + 1)
    played = tuple(GamePapers(*sample_results(players, lang, seed=n, number=n)) for n in numbers)
    return _tournament_sheet(played, lang), played


def _tournament_sheet(played: tuple[GamePapers, ...], lang: str) -> RankingSheet:
    top = sum(papers.game.total for papers in played)
    by_table: dict[int, list[Row]] = defaultdict(list)
    for papers in played:
        for row in papers.ranking.rows:
            by_table[row.table].append(row)
    added = ("total", "paid", "solos", "warnings", "penalty")
    summed = [
        replace(rows[0], **{field: sum(getattr(r, field) for r in rows) for field in added})
        for rows in by_table.values()
    ]
    ordered = sorted(summed, key=lambda row: (-row.total, row.table))
    ranks = _shared_ranks([row.total for row in ordered])
    series_seen: Counter = Counter()
    category_seen: Counter = Counter()
    rows = []
    for rank, row in zip(ranks, ordered, strict=True):
        series_seen[row.series] += 1
        category_seen[row.category] += 1
        rows.append(
            replace(
                row,
                rank=rank,
                series_rank=series_seen[row.series],
                category_rank=category_seen[row.category] if row.category else 0,
                negatif=row.total - top,
                percent=rounded(percent(row.total, top)),
                percent_total=rounded(percent(row.total, top)),
                percent_paid=rounded(percent(row.paid, top)),
            )
        )
    header = replace(sample_header(lang), game=TEXTS[lang]["overall"])
    return RankingSheet(header, top, tuple(rows))


def sample_game(header: SheetHeader) -> GameSheet:
    rounds, cumulated = [], 0
    for number, (rack, rejected, ref, word, score, tied) in enumerate(GAME, start=1):
        cumulated += score
        rounds.append(GameRound(number, rack, rejected, ref, word, score, cumulated, tied))
    return GameSheet(header, tuple(rounds), board_of(GAME), cumulated)


def board_of(game) -> tuple[str, ...]:
    """The board after every top is placed: each word written along its reference (rules §1.3)."""
    cells = [""] * 225
    for _, _, ref, word, _, _ in game:
        horizontal = ref[0].isalpha()
        row = ord((ref[0] if horizontal else ref[-1]).upper()) - 65
        col = int(ref[1:] if horizontal else ref[:-1]) - 1
        for k, letter in enumerate(word):
            cells[row * 15 + col + k if horizontal else (row + k) * 15 + col] = letter
    return tuple(cells)


def _player(index: int, game: GameSheet, lang: str, rng: random.Random) -> _Player:
    name = NAMES[index] if index < len(NAMES) else f"Joueur {index + 1:02d} {rng.choice(NAMES[:8])}"
    player = _Player(
        name=name,
        club=CLUBS[index % len(CLUBS)],
        series=SERIES[index % len(SERIES)],
        category=category_label(CATEGORIES[index % len(CATEGORIES)], lang),
        table=index + 1,
        rounds=[],
    )
    total = 0
    for game_round in game.rounds:
        slip, paid, sanction, reason = _slip(game_round, lang, rng)
        player.warnings += sanction == TEXTS[lang]["warning"][0]
        total += paid
        top_move = f"{game_round.ref} {game_round.word}"
        player.rounds.append(
            CardRound(game_round.number, slip, paid, sanction, reason, game_round.score, top_move, total)
        )
    return player


def _slip(game_round: GameRound, lang: str, rng: random.Random) -> tuple[str, int, str, str]:
    """(slip, paid, sanction, reason) for one player and round, at random."""
    ref, word, top = game_round.ref, game_round.word, game_round.score
    draw = rng.random()
    # Few players find the scrabbles: that is where solos come from.
    if draw < (0.04 if top >= 60 else 0.55):
        return f"{ref} {word} {top}", top, "", ""
    if draw < 0.82:
        paid = max(2, int(top * rng.uniform(0.3, 0.9)))
        return f"{ref} {word[:-1] or word} {paid}", paid, "", ""
    kind = ("warning", "minus5", "zero", "late")[int((draw - 0.82) / 0.18 * 4)]
    return _sanctioned(kind, game_round, lang, rng)


def _sanctioned(kind: str, game_round: GameRound, lang: str, rng: random.Random) -> tuple[str, int, str, str]:
    ref, word, top = game_round.ref, game_round.word, game_round.score
    sanction, reason = TEXTS[lang][kind]
    slips = {
        "warning": f"{ref} {word} {top + 2}",
        "minus5": f"{word} {top}",
        "zero": f"{ref} {word}S {top + 3}",
        "late": "" if rng.random() < 0.5 else f"{ref} {word} {top}",
    }
    paid = {"warning": top, "minus5": max(0, top - 5), "zero": 0, "late": 0}[kind]
    return slips[kind], paid, sanction, reason.format(claimed=top + 2, paid=top, word=word.upper())


def _award_solos(field: list[_Player]) -> tuple[tuple[int, str], ...]:
    """The solos announced (§3.5): a score strictly higher than every other player's, 16 players or more."""
    if len(field) < SOLO_MIN_PLAYERS:
        return ()
    announced = []
    for k in range(len(field[0].rounds)):
        best = sorted(field, key=lambda p: p.rounds[k].paid, reverse=True)
        if best[0].rounds[k].paid > best[1].rounds[k].paid:
            best[0].solos += 1
            announced.append((k + 1, best[0].name))
    return tuple(announced)


def _totals(player: _Player) -> tuple[int, int, int]:
    """(paid, penalty, total) by §3.4 and §4."""
    paid = player.rounds[-1].total
    penalty = WARNING_PENALTY * max(0, player.warnings - WARNING_THRESHOLD)
    return paid, penalty, paid + SOLO_VALUE * player.solos - penalty


def _ranking_rows(field: list[_Player], top: int) -> tuple[Row, ...]:
    ordered = sorted(field, key=lambda p: -_totals(p)[2])
    ranks = _shared_ranks([_totals(p)[2] for p in ordered])
    series_seen: Counter = Counter()
    category_seen: Counter = Counter()
    rows = []
    for rank, player in zip(ranks, ordered):
        paid, penalty, total = _totals(player)
        series_seen[player.series] += 1
        category_seen[player.category] += 1
        rows.append(
            Row(
                rank=rank,
                series_rank=series_seen[player.series],
                category_rank=category_seen[player.category] if player.category else 0,
                table=player.table,
                name=player.name,
                club=player.club,
                series=player.series,
                category=player.category,
                total=total,
                paid=paid,
                negatif=total - top,
                percent=rounded(percent(total, top)),
                percent_total=rounded(percent(total, top)),
                percent_paid=rounded(percent(paid, top)),
                solos=player.solos,
                warnings=player.warnings,
                penalty=penalty,
            )
        )
    return tuple(rows)


def _shared_ranks(totals: list[int]) -> list[int]:
    """Equal totals share a rank (§4): 1, 2, 2, 4."""
    return [totals.index(total) + 1 for total in totals]


def _card(header: SheetHeader, player: _Player, rows: tuple[Row, ...], top: int) -> ScoreCard:
    row = next(r for r in rows if r.table == player.table)
    return ScoreCard(header, row, tuple(player.rounds), SOLO_VALUE * player.solos, top)
