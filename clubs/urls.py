from django.urls import path

from clubs import views
from server import converters  # noqa: F401 - registers <id:…>

app_name = "clubs"
urlpatterns = [
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/<id:pk>/", views.club_detail, name="club_detail"),
    path("membres/<id:pk>/retirer/", views.member_remove, name="member_remove"),
    path("invitation/<str:token>/", views.join, name="join"),
]
