from django.urls import path

from results import transfer_views, views
from server import converters  # noqa: F401 - registers <id:…>

app_name = "results"
urlpatterns = [
    # Results: live rankings, printouts, exports, merges.
    path("parties/<id:pk>/resultats/", views.game_results, name="game_results"),
    path("parties/<id:pk>/export/<str:what>/", views.game_export, name="game_export"),
    path("parties/<id:pk>/envoi/", views.game_send, name="game_send"),
    path("tournois/<id:pk>/classement/", views.tournament_results, name="tournament_results"),
    path("tournois/<id:pk>/export/<str:what>/", views.tournament_export, name="tournament_export"),
    path("tournois/<id:pk>/fichier/", transfer_views.tournament_file, name="tournament_file"),
    path("tournois/importer/", transfer_views.tournament_import, name="tournament_import"),
    path("tournois/<id:pk>/impressions/", views.printout_request, name="printout_request"),
    path("impressions/<id:pk>/", views.printout_detail, name="printout_detail"),
    path("impressions/<id:pk>/pdf/", views.printout_pdf, name="printout_pdf"),
    path("fusions/nouvelle/", views.merge_create, name="merge_create"),
    path("fusions/<id:pk>/", views.merge_detail, name="merge_detail"),
    path("fusions/<id:pk>/export/<str:what>/", views.merge_export, name="merge_export"),
]
