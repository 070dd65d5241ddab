from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

#: A refusal for want of a right, in the interface's language, saying why.
handler403 = "server.answers.forbidden"

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("server.urls")),
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
    path("", include("live.urls")),
    path("", include("results.urls")),
    path("", include("simultaneous.urls")),
    path("", include("review.urls")),
    path("", include("training.urls")),
    path("", include("guides.urls")),
]
