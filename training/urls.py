from django.urls import path

from server import converters  # noqa: F401 - registers <id:…>
from training import views

app_name = "training"
urlpatterns = [
    # Training alone (open to anyone when TRAINING_OPEN is on, the laptop's default).
    path("entrainement/", views.training_home, name="home"),
    # A player's own game, from their join link (open even when training is closed to accounts).
    path("entrainement/j/<str:token>/<id:game>/", views.training_player, name="player"),
    path("entrainement/coup/", views.training_round, name="round"),
    path("entrainement/bulletin/", views.training_slip, name="slip"),
    path("entrainement/passer/", views.training_give_up, name="give_up"),
    path("entrainement/suivant/", views.training_next, name="next"),
    path("entrainement/arreter/", views.training_quit, name="quit"),
    path("entrainement/fin/", views.training_end, name="end"),
    path("entrainement/fin/<id:number>/", views.training_review, name="review"),
]
