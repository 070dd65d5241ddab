"""The live room's routes: the arbiter's screen of a game under way (login required), the projector
(opened on the arbiter's laptop, login required), and the players' phones: a join link per player
(``/j/<token>/``) and ``/moi/`` for a phone that opened one before (no account: the token is the
whole sign-in)."""

from django.urls import path

from live.views import game, lists, player, projector, tried
from server import converters  # noqa: F401 - registers <id:…>

app_name = "live"
urlpatterns = [
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
    path("projecteur/<id:pk>/", projector.projector, name="projector"),
    path("projecteur/<id:pk>/etat/", projector.projector_poll, name="projector_poll"),
    path("j/<str:token>/", player.player_page, name="player_page"),
    path("j/<str:token>/etat/", player.player_status, name="player_status"),
    path("j/<str:token>/bulletin/", player.player_submit, name="player_submit"),
    path("j/<str:token>/essai/", tried.player_tried, name="player_tried"),
    path("moi/", player.player_me, name="player_me"),
]
