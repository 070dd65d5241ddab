from django.urls import path

from results import views

app_name = "results"
urlpatterns = [
    # Results: live rankings, printouts, exports, merges.
    path("parties/<int:pk>/resultats/", views.game_results, name="game_results"),
    path("parties/<int:pk>/export/<str:what>/", views.game_export, name="game_export"),
    path("tournois/<int:pk>/classement/", views.tournament_results, name="tournament_results"),
    path("tournois/<int:pk>/export/<str:what>/", views.tournament_export, name="tournament_export"),
    path("tournois/<int:pk>/impressions/", views.printout_request, name="printout_request"),
    path("impressions/<int:pk>/", views.printout_detail, name="printout_detail"),
    path("impressions/<int:pk>/pdf/", views.printout_pdf, name="printout_pdf"),
    path("fusions/nouvelle/", views.merge_create, name="merge_create"),
    path("fusions/<int:pk>/", views.merge_detail, name="merge_detail"),
    path("fusions/<int:pk>/export/<str:what>/", views.merge_export, name="merge_export"),
]
