from django.urls import path

from server import converters  # noqa: F401 - registers <id:…>
from simultaneous import views

app_name = "simultaneous"
urlpatterns = [
    path("simultanes/", views.event_list, name="event_list"),
    path("simultanes/nouveau/", views.event_create, name="event_create"),
    path("simultanes/<id:pk>/", views.event_detail, name="event_detail"),
    path("simultanes/<id:pk>/rejoindre/", views.event_join, name="event_join"),
    # The organiser's: its centres registered and withdrawn, a centre's file withdrawn.
    path("simultanes/<id:pk>/centres/", views.centre_register, name="centre_register"),
    path(
        "simultanes/<id:pk>/centres/<id:registration>/retirer/", views.centre_withdraw, name="centre_withdraw"
    ),
    path("simultanes/<id:pk>/envois/<id:upload>/retirer/", views.upload_withdraw, name="upload_withdraw"),
    # Public: the results page, without login.
    path("simultane/<str:key>/", views.event_public, name="event_public"),
    # Public, with the club's token: a centre's laptop sends its results file.
    path("simultane/<str:key>/envoi/", views.event_upload, name="event_upload"),
]
