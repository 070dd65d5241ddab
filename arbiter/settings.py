"""Settings: SQLite and in-process tasks when nothing is set; PostgreSQL (DATABASE_URL) and Redis
(REDIS_URL) with Celery workers when set.  See the README for production settings."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import dj_database_url

from arbiter.env import env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ARBITER_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    # The embedded default: a key made once per installation and kept beside the database.
    _key_file = VAR_DIR / "secret_key"
    if not _key_file.exists():
        from django.core.management.utils import get_random_secret_key

        _key_file.write_text(get_random_secret_key(), encoding="utf-8")
    SECRET_KEY = _key_file.read_text(encoding="utf-8").strip()

# Phones on the club's Wi-Fi reach the laptop by its address: every host by default on the embedded run.
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
SECURE = env_bool("DJANGO_SECURE", False)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE
SECURE_HSTS_SECONDS = 3600 if SECURE else 0
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "arbiter.urls"
WSGI_APPLICATION = "arbiter.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ]
        },
    }
]

_default_db = f"sqlite:///{VAR_DIR / 'arbiter.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(env_str("DATABASE_URL", _default_db), conn_max_age=60)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers wait for each other instead of failing, and take the write lock up front so
    # two arbiter tabs cannot both read "no rack yet" and then both write one.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Tests use a file too, so they lock the way the laptop's database does; one per test run.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"arbiter-test-{os.getpid()}.sqlite3")
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("ARBITER_TIME_ZONE", "Europe/Paris")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
# Serve the apps' static files straight from their folders too (tests, a run before collectstatic).
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_ROOT = VAR_DIR / "media"

REDIS_URL = env_str("REDIS_URL")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
# Without a broker, tasks run in the process that queues them (the laptop default).
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Without a broker, a printout is built in a thread of the web process so its page shows the progress;
# off, it is built inside the request that asks for it (the tests' default).
PRINTOUTS_IN_THREAD = env_bool("ARBITER_PRINTOUTS_IN_THREAD", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("ARBITER_LOG_LEVEL", "INFO")},
}
