from django.urls import path

from server import converters  # noqa: F401 - registers <id:…>
from server.restore import on_the_laptop
from tournaments.views import registration, resume

app_name = "tournaments"
urlpatterns = [
    # The arbiter's laptop (login required).
    path("", registration.home, name="home"),
    path("tournois/nouveau/", registration.tournament_create, name="tournament_create"),
    path("tournois/<id:pk>/", registration.tournament_detail, name="tournament_detail"),
    path("tournois/<id:pk>/cartes/", registration.tournament_cards, name="tournament_cards"),
    path("tournois/<id:pk>/joueurs/", registration.player_add, name="player_add"),
    path("tournois/<id:pk>/joueurs/csv/", registration.players_import, name="players_import"),
    path("tournois/<id:pk>/parties/", registration.game_start, name="game_start"),
    path("tournois/<id:pk>/reglages/", registration.tournament_settings, name="tournament_settings"),
    path("joueurs/<id:pk>/", registration.player_edit, name="player_edit"),
    path("joueurs/<id:pk>/retirer/", registration.player_remove, name="player_remove"),
    # A game under way, its projector and the players' phones: live/urls.py.
]
if on_the_laptop():
    # An evening resumed from a copy: the laptop's alone (a server restores with pg_restore).
    urlpatterns.append(path("reprendre/", resume.evening_resume, name="evening_resume"))
