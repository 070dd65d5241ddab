"""The player's routes: a join link per player (``/j/<token>/``) and ``/moi/`` for a phone that
opened one before.  No account: the token is the whole sign-in."""

from django.urls import path

from tournaments.views import player, tried

urlpatterns = [
    path("j/<str:token>/", player.player_page, name="player_page"),
    path("j/<str:token>/etat/", player.player_status, name="player_status"),
    path("j/<str:token>/bulletin/", player.player_submit, name="player_submit"),
    path("j/<str:token>/essai/", tried.player_tried, name="player_tried"),
    path("moi/", player.player_me, name="player_me"),
]
