"""Settings: SQLite and in-process tasks when nothing is set; PostgreSQL (DATABASE_URL) and Redis
(REDIS_URL) with Celery workers when set.  See the README for production settings."""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from arbiter.env import env_bool, env_list, env_str
from server.files import private

BASE_DIR = Path(__file__).resolve().parent.parent
#: A source checkout (manage.py beside the rooms, ``python3 run.py``) keeps its data in var/ beside
#: them; an installed package (``pip install .``, then the ``arbiter`` command) carries the
#: translations and the reverse proxy's template inside arbiter/ (setup.py) and keeps its data in the
#: account's data folder, never inside the Python environment.
CHECKOUT = (BASE_DIR / "manage.py").is_file()
SHARE_DIR = BASE_DIR if CHECKOUT else Path(__file__).resolve().parent


def _data_folder() -> Path:
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "arbiter"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "arbiter"


VAR_DIR = Path(env_str("ARBITER_VAR_DIR", str(BASE_DIR / "var" if CHECKOUT else _data_folder())))
VAR_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
private(VAR_DIR, 0o700)  # an installation from before kept it open

DEBUG = env_bool("DJANGO_DEBUG", False)
SECURE = env_bool("DJANGO_SECURE", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY and SECURE:
    # A server's processes (and its hosts) must all sign with one key, given to each of them.
    raise ImproperlyConfigured("DJANGO_SECURE is set: set DJANGO_SECRET_KEY too (a long random value).")
if not SECRET_KEY:
    # The embedded default: a key made once per installation and kept beside the database.  Written
    # aside then linked, so processes starting together all read the first one's key, whole.
    _key_file = VAR_DIR / "secret_key"
    if not _key_file.exists():
        from django.core.management.utils import get_random_secret_key

        _draft = VAR_DIR / f"secret_key.{os.getpid()}"
        with os.fdopen(os.open(_draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as _out:
            _out.write(get_random_secret_key())
        try:
            os.link(_draft, _key_file)
        except FileExistsError:
            pass
        finally:
            _draft.unlink()
    private(_key_file, 0o600)
    SECRET_KEY = _key_file.read_text(encoding="utf-8").strip()

# Phones on the club's Wi-Fi reach the laptop by its address: every host by default on the embedded run.
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# Behind HTTPS (a reverse proxy that sets X-Forwarded-Proto): cookies only over HTTPS, plain HTTP
# redirected, and browsers told for a year (the preload list's minimum) to use nothing but HTTPS for
# this host and the names under it.  A host whose other names are not all on HTTPS, or that must not
# go on the preload list, turns the last two off.
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE
SECURE_HSTS_SECONDS = int(env_str("DJANGO_HSTS_SECONDS", "31536000")) if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
# Django's defaults, said here because the deployment check relies on them: no MIME sniffing, no
# framing by other sites, no referrer sent to other sites.
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    # The rooms, lowest first (.importlinter: a room imports only the rooms below it).
    "server",
    "clubs",
    "lexicons",
    "tournaments",
    "live",
    "results",
    "simultaneous",
    "review",
    "training",
    "guides",
]

MIDDLEWARE = [
    # Every answer marked as the application's (X-Arbiter: 1): the phone resends a slip on any other.
    "server.answers.MarkedAnswerMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The arbiter's screen's and the projector's polls that find nothing new, before the session.
    "live.pulse.ScreenPulseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A database error on a phone's request answers 503 (retry) rather than 500.
    "live.middleware.PlayerDatabaseErrorMiddleware",
    # A browser that logged in gets its device cookie (server/logins.py).
    "server.logins.DeviceCookieMiddleware",
    # Wrong passwords are counted per client address and per account (django-axes), last.
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy (django-csp): the pages run only this server's scripts (no inline script,
# no handler attribute), load nothing from elsewhere and are framed by nobody.  NoSleep.js plays a
# video it carries as a data: URI.  The admin (Django's own pages) is left out.
CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/admin/"],
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "media-src": ["'self'", "data:", "blob:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

ROOT_URLCONF = "arbiter.urls"
# A form refused for its CSRF token says so in the interface's language (a phone reloads its page).
CSRF_FAILURE_VIEW = "server.answers.csrf_failure"
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
                # The 'Aide' link of the arbiter's screens: the guide's page about this screen.
                "guides.context.help_link",
            ]
        },
    }
]

_default_db = f"sqlite:///{VAR_DIR / 'arbiter.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(env_str("DATABASE_URL", _default_db), conn_max_age=60)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers wait for each other instead of failing, and take the write lock up front so
    # two arbiter tabs cannot both read "no rack yet" and then both write one.  Write-ahead log:
    # the phones' reads never wait for a slip being written, nor a slip for them (synchronous stays
    # FULL: a slip the phone was told is received survives a power cut).
    # Each server thread keeps its connection (opening one per request costs more than the query:
    # scripts/loadbench.py).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = None
    # Tests use a file too, so they lock the way the laptop's database does; one per test run.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"arbiter-test-{os.getpid()}.sqlite3")
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a locked-out address or account before the password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
#: Wrong passwords before a lock of one account from one client address (every login page: the
#: site's and the admin's), and how long a lock lasts; a good password resets the count.  Besides,
#: LOGIN_FAILURES_PER_ADDRESS wrong passwords from one address, whatever the accounts, lock that
#: address.  A browser that already logged in to the account (its device cookie) is counted apart,
#: per account and device, with the same limit: strangers at its address never lock it out
#: (server/logins.py).
AXES_FAILURE_LIMIT = int(env_str("ARBITER_LOGIN_FAILURES", "5"))
LOGIN_FAILURES_PER_ADDRESS = int(env_str("ARBITER_LOGIN_FAILURES_PER_ADDRESS", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(env_str("ARBITER_LOGIN_LOCK_MINUTES", "5")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "server.logins.LoginHandler"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "server.addresses.client_address"
AXES_LOCKOUT_CALLABLE = "server.answers.login_locked"
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English"), ("es", "Español"), ("ca", "Català")]
LOCALE_PATHS = [SHARE_DIR / "locale"]
#: deploy/: the reverse proxy's template (server/proxy.py).
DEPLOY_DIR = SHARE_DIR / "deploy"
USE_I18N = True
TIME_ZONE = env_str("ARBITER_TIME_ZONE", "Europe/Paris")
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic gathers the static files (the scale deployment's nginx serves them from there).
STATIC_ROOT = Path(env_str("ARBITER_STATIC_ROOT") or VAR_DIR / "static")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Serve the apps' static files straight from their folders too (tests, a run before collectstatic).
WHITENOISE_USE_FINDERS = True
# Files browsers ask for at the site's root: the icon (/favicon.ico), which they fetch for every
# page and would otherwise be answered 404.
WHITENOISE_ROOT = BASE_DIR / "server" / "root"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_ROOT = VAR_DIR / "media"

REDIS_URL = env_str("REDIS_URL")
# The cache holds the join-link guess counters (server/ratelimit.py): in the memory of the one
# embedded process by default; in Redis when it is there, so every web process counts together.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "server.cache.RedisCache",  # Django's, its client kept (server/cache.py)
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "arbiter",
            # A cache answers in milliseconds: one that does not is down, and is treated so at once.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    # Training's games and best placements (training/worker.py), shared by every web process.
    CACHES["training"] = {**CACHES["default"], "KEY_PREFIX": "arbiter-training"}
else:
    # Training's games apart from the room's cache, and bounded: strangers' games never push out the
    # room's rankings or its counters (training/worker.py).
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "training": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "training",
            "OPTIONS": {"MAX_ENTRIES": 1000},
        },
    }
#: Sessions in the database alone (never ``cached_db``), on the laptop and on a server: the laptop's two
#: processes (the room's and the strangers', server/serve.py) each keep their own memory cache, and a
#: session one of them kept would outlive a logout, a password change or a resume made through the
#: other (tests/server/test_sessions_two_processes.py).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
#: Unknown join links a client address may ask for in a minute before it is answered 429 (a link that
#: names a player is always served: server/ratelimit.py).
TOKEN_GUESSES_PER_MINUTE = int(env_str("ARBITER_TOKEN_GUESSES_PER_MINUTE", "30"))
#: The header a trusted reverse proxy sets to the client's address (e.g. X-Real-IP, X-Forwarded-For),
#: believed only from TRUSTED_PROXIES (server/addresses.py); empty: REMOTE_ADDR.
CLIENT_IP_HEADER = env_str("ARBITER_CLIENT_IP_HEADER")
#: The reverse proxies (their addresses as the web process sees them, or CIDR ranges: 10.0.0.0/8)
#: whose headers are believed: X-Request-Start, when a slip arrived (server/arrival.py), and
#: CLIENT_IP_HEADER; empty: no header is believed.
TRUSTED_PROXIES = frozenset(env_list("ARBITER_TRUSTED_PROXIES", []))
#: Push instead of polling (server/push.py): where the web and worker processes publish a room's
#: changes (nginx's nchan publisher, deploy/nginx.conf), and the path the phones listen on.  Empty:
#: the phones poll every 2 s (the laptop default).
PUSH_PUBLISH_URL = env_str("ARBITER_PUSH_PUBLISH_URL")
PUSH_LISTEN_PATH = env_str("ARBITER_PUSH_LISTEN_PATH", "/push/")
#: The results outbox (results/outbox.py) sends only to public addresses; the project's own tests,
#: whose federation server runs on loopback, turn this on.  Never in production.
OUTBOX_ALLOW_PRIVATE = env_bool("ARBITER_OUTBOX_ALLOW_PRIVATE", False)
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
# Without a broker, tasks run in the process that queues them (the laptop default).
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A broker that does not answer must not hold the arbiter's request: connect within 2 s, retry the
# publish once, then give up (the screen then offers to compute the top on the laptop).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# Redis gives a message taken by a worker that died (not acked) to another worker after
# visibility_timeout.  It must exceed the longest countdown of a task (a round's close: its time and
# grace, a few minutes), or such a task would be handed out again while it waits.  A lost top does not
# wait for it: the arbiter's screen queues it again after TOP_REQUEUE_SECONDS.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(env_str("ARBITER_BROKER_VISIBILITY_TIMEOUT", "600")),
    "socket_connect_timeout": 2,
    "socket_timeout": 10,
}
TOP_REQUEUE_SECONDS = 15
# Without a broker, a printout is built in a thread of the web process so its page shows the progress;
# off, it is built inside the request that asks for it (the tests' default).
PRINTOUTS_IN_THREAD = env_bool("ARBITER_PRINTOUTS_IN_THREAD", True)
# Training alone (/entrainement/): open to anyone who reaches the server (the laptop's default, on
# the club's Wi-Fi), or with ARBITER_TRAINING_OPEN=false to the club's accounts only.
TRAINING_OPEN = env_bool("ARBITER_TRAINING_OPEN", True)
#: New training games one client (its account, or else its address) may start in a minute; one more
#: is answered 429 with Retry-After.  Each costs the worker up to a second of CPU.
TRAINING_GAMES_PER_MINUTE = int(env_str("ARBITER_TRAINING_GAMES_PER_MINUTE", "4"))
#: Training's searches in a low-priority worker process of each web process (training/worker.py);
#: off, in the request's own thread.
TRAINING_WORKER = env_bool("ARBITER_TRAINING_WORKER", True)
#: Pages for anyone, without login (a simultaneous's public results, training): the laptop's server
#: serves the room's requests before these (server/lanes.py); deploy/nginx.conf limits them per address.
STRANGER_PATHS = [r"/simultane/[^/]+/$", r"/entrainement/"]
# Seconds a web process reuses a tournament's round state for the phones' 2-second polls (this
# process's own writes are seen at once; server/memo.py).  The tests set 0.
POLL_MEMO_SECONDS = 0.5
#: How long a web process keeps a room's players (names, tables) for the phones' requests: read in one
#: query for the whole room, they change only when the arbiter edits the list (seen at once by every
#: process: an edit or a removal moves the room's mark in the shared cache, live/room.py,
#: which each process checks before using what it kept).  Reading a hall of 1,500 players afresh
#: every few seconds in each web process costs a share of each slip in the last seconds of a round
#: (measured: docs/developer/benchmarks.md): the mark keeps a longer memory true, the minute only
#: bounds what a change made outside the application (a hand-edited row) leaves unseen.
ROOM_MEMO_SECONDS = 60.0
#: How long a web process shows the same standings on a simultaneous's public page (its readers
#: refresh it; the organiser's own page is always worked out afresh).
PUBLIC_RESULTS_SECONDS = 5.0

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("ARBITER_LOG_LEVEL", "INFO")},
    # django-axes logs every failed login at INFO; the lockouts (WARNING) are what matters.
    "loggers": {"axes": {"level": "WARNING"}},
}
