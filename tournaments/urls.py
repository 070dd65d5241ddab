from django.urls import path

from tournaments.views import arbiter

app_name = "tournaments"
urlpatterns = [
    path("", arbiter.home, name="home"),
]
