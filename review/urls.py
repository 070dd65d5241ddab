from django.urls import path

from review import views
from server import converters  # noqa: F401 - registers <id:…>

app_name = "review"
urlpatterns = [
    # A player's review, from their join link, once the game is over.
    path("j/<str:token>/revue/<id:game>/", views.player_review, name="player_game"),
    path("j/<str:token>/revue/<id:game>/<id:number>/", views.player_review, name="player_round"),
    # The arbiter's, with the room.
    path("parties/<id:pk>/revue/", views.arbiter_review, name="game_review"),
    path("parties/<id:pk>/revue/<id:number>/", views.arbiter_review, name="game_review_round"),
]
