from django.urls import path

from guides import views

app_name = "guides"

urlpatterns = [
    path("aide/", views.guide, name="home"),
    path("aide/<path:path>", views.guide, name="page"),
]
