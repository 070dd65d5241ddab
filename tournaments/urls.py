from django.urls import path

from tournaments.player_urls import urlpatterns as player_urls
from tournaments.views import game, projector, registration

app_name = "tournaments"
urlpatterns = [
    # The arbiter's laptop (login required).
    path("", registration.home, name="home"),
    path("tournois/nouveau/", registration.tournament_create, name="tournament_create"),
    path("tournois/<int:pk>/", registration.tournament_detail, name="tournament_detail"),
    path("tournois/<int:pk>/cartes/", registration.tournament_cards, name="tournament_cards"),
    path("tournois/<int:pk>/joueurs/", registration.player_add, name="player_add"),
    path("tournois/<int:pk>/joueurs/csv/", registration.players_import, name="players_import"),
    path("tournois/<int:pk>/parties/", registration.game_start, name="game_start"),
    path("tournois/<int:pk>/reglages/", registration.tournament_settings, name="tournament_settings"),
    path("joueurs/<int:pk>/", registration.player_edit, name="player_edit"),
    path("joueurs/<int:pk>/retirer/", registration.player_remove, name="player_remove"),
    path("parties/<int:pk>/", game.game_detail, name="game_detail"),
    path("parties/<int:pk>/etat/", game.game_poll, name="game_poll"),
    path("parties/<int:pk>/tirage/", game.game_draw, name="game_draw"),
    path("parties/<int:pk>/terminer/", game.game_end, name="game_end"),
    path("parties/<int:pk>/abandonner/", game.game_abandon, name="game_abandon"),
    path("parties/<int:pk>/supprimer/", game.game_delete, name="game_delete"),
    path("coups/<int:pk>/chrono/", game.round_start, name="round_start"),
    path("coups/<int:pk>/top/", game.round_compute_top, name="round_compute_top"),
    path("coups/<int:pk>/top-arbitre/", game.round_top, name="round_top"),
    path("coups/<int:pk>/annuler/", game.round_cancel, name="round_cancel"),
    path("coups/<int:pk>/placer/", game.round_place, name="round_place"),
    path("coups/<int:pk>/bulletins/", game.slip_enter, name="slip_enter"),
    path("coups/<int:pk>/bulletins/annuler-correction/", game.correction_undo, name="correction_undo"),
    path("coups/<int:pk>/historique/<int:table>/", game.slip_history, name="slip_history"),
    # The projector (login required: it is opened on the arbiter's laptop).
    path("projecteur/<int:pk>/", projector.projector, name="projector"),
    path("projecteur/<int:pk>/etat/", projector.projector_poll, name="projector_poll"),
    # The player's phone: tournaments/player_urls.py.
]
urlpatterns += player_urls
