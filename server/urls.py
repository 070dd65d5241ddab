from django.urls import path

from server import copies
from server.restore import on_the_laptop

app_name = "server"
urlpatterns = []
if on_the_laptop():
    # The folder the laptop copies its evening to: a server has no such folder to choose.
    urlpatterns.append(path("copies/dossier/", copies.backup_folder, name="backup_folder"))
