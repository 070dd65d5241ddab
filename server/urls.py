from django.urls import path

from server import copies

app_name = "server"
urlpatterns = [
    path("copies/dossier/", copies.backup_folder, name="backup_folder"),
]
