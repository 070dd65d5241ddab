from django.urls import path

from server import converters  # noqa: F401 - registers <id:…>
from server.restore import on_the_laptop
from tournaments.player_urls import urlpatterns as player_urls
from tournaments.views import game, lists, projector, registration, resume, tried

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
    path("parties/<id:pk>/", game.game_detail, name="game_detail"),
    path("parties/<id:pk>/etat/", game.game_poll, name="game_poll"),
    path("parties/<id:pk>/bulletins/", game.game_slips, name="game_slips"),
    path("parties/<id:pk>/historique/", game.game_slip_history, name="game_slip_history"),
    path("parties/<id:pk>/classement/", lists.game_ranking, name="game_ranking"),
    path("parties/<id:pk>/absents/", lists.game_missing, name="game_missing"),
    path("parties/<id:pk>/tirage/", game.game_draw, name="game_draw"),
    path("parties/<id:pk>/terminer/", game.game_end, name="game_end"),
    path("parties/<id:pk>/abandonner/", game.game_abandon, name="game_abandon"),
    path("parties/<id:pk>/supprimer/", game.game_delete, name="game_delete"),
    path("coups/<id:pk>/chrono/", game.round_start, name="round_start"),
    path("coups/<id:pk>/top/", game.round_compute_top, name="round_compute_top"),
    path("coups/<id:pk>/top-arbitre/", game.round_top, name="round_top"),
    path("coups/<id:pk>/annuler/", game.round_cancel, name="round_cancel"),
    path("coups/<id:pk>/placer/", game.round_place, name="round_place"),
    path("coups/<id:pk>/bulletins/", game.slip_enter, name="slip_enter"),
    path("coups/<id:pk>/bulletins/annuler-correction/", game.correction_undo, name="correction_undo"),
    path("coups/<id:pk>/historique/<id:table>/", game.slip_history, name="slip_history"),
    path("coups/<id:pk>/essais/<id:claim>/accepter/", tried.tried_accept, name="tried_accept"),
    path("coups/<id:pk>/essais/<id:claim>/refuser/", tried.tried_refuse, name="tried_refuse"),
    # The projector (login required: it is opened on the arbiter's laptop).
    path("projecteur/<id:pk>/", projector.projector, name="projector"),
    path("projecteur/<id:pk>/etat/", projector.projector_poll, name="projector_poll"),
    # The player's phone: tournaments/player_urls.py.
]
if on_the_laptop():
    # An evening resumed from a copy: the laptop's alone (a server restores with pg_restore).
    urlpatterns.append(path("reprendre/", resume.evening_resume, name="evening_resume"))
urlpatterns += player_urls
