from django.urls import path

from tournaments.player_urls import urlpatterns as player_urls
from tournaments.views import arbiter, results

app_name = "tournaments"
urlpatterns = [
    # The arbiter's laptop (login required).
    path("", arbiter.home, name="home"),
    path("tournois/nouveau/", arbiter.tournament_create, name="tournament_create"),
    path("tournois/<int:pk>/", arbiter.tournament_detail, name="tournament_detail"),
    path("tournois/<int:pk>/cartes/", arbiter.tournament_cards, name="tournament_cards"),
    path("tournois/<int:pk>/joueurs/", arbiter.player_add, name="player_add"),
    path("tournois/<int:pk>/joueurs/csv/", arbiter.players_import, name="players_import"),
    path("tournois/<int:pk>/parties/", arbiter.game_start, name="game_start"),
    path("parties/<int:pk>/", arbiter.game_detail, name="game_detail"),
    path("parties/<int:pk>/etat/", arbiter.game_poll, name="game_poll"),
    path("parties/<int:pk>/tirage/", arbiter.game_draw, name="game_draw"),
    path("coups/<int:pk>/chrono/", arbiter.round_start, name="round_start"),
    path("coups/<int:pk>/top/", arbiter.round_compute_top, name="round_compute_top"),
    path("coups/<int:pk>/annuler/", arbiter.round_cancel, name="round_cancel"),
    path("coups/<int:pk>/placer/", arbiter.round_place, name="round_place"),
    path("coups/<int:pk>/bulletins/", arbiter.slip_enter, name="slip_enter"),
    path("coups/<int:pk>/bulletins/annuler-correction/", arbiter.correction_undo, name="correction_undo"),
    # The projector (login required: it is opened on the arbiter's laptop).
    path("projecteur/<int:pk>/", arbiter.projector, name="projector"),
    path("projecteur/<int:pk>/etat/", arbiter.projector_poll, name="projector_poll"),
    # Results: live rankings, printouts, exports, merges.
    path("parties/<int:pk>/resultats/", results.game_results, name="game_results"),
    path("parties/<int:pk>/export/<str:what>/", results.game_export, name="game_export"),
    path("tournois/<int:pk>/classement/", results.tournament_results, name="tournament_results"),
    path("tournois/<int:pk>/export/<str:what>/", results.tournament_export, name="tournament_export"),
    path("tournois/<int:pk>/impressions/", results.printout_request, name="printout_request"),
    path("impressions/<int:pk>/", results.printout_detail, name="printout_detail"),
    path("impressions/<int:pk>/pdf/", results.printout_pdf, name="printout_pdf"),
    path("fusions/nouvelle/", results.merge_create, name="merge_create"),
    path("fusions/<int:pk>/", results.merge_detail, name="merge_detail"),
    path("fusions/<int:pk>/export/<str:what>/", results.merge_export, name="merge_export"),
    # -- The player's phone: routes from tournaments.views.player (merged by the lead). --
]
urlpatterns += player_urls
