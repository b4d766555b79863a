"""Dossier settings: one file, every value read from the environment (see README.md)."""

import re
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("DOSSIER_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env(
    DEBUG=(bool, False),
    ALLOWED_HOSTS=(list, ["127.0.0.1", "localhost"]),
    CSRF_TRUSTED_ORIGINS=(list, []),
    SECURE_SSL_REDIRECT=(bool, None),
    SHEET_RENDER_DEADLINE_SECONDS=(int, 300),
)

DEBUG = env("DEBUG")
if DEBUG:
    SECRET_KEY = env.str("SECRET_KEY", default="dossier-development-key-not-for-production-use-0123456789")
else:
    # No default: a production start without a secret key must fail loudly.
    SECRET_KEY = env.str("SECRET_KEY")

# The roll log's tree heads are signed with this Ed25519 key (campaigns/table/rolllog.py, docs/fair-dice.md):
# DICE_LOG_KEY, 64 hex digits (the private key's seed; the same on every node), else the file
# DICE_LOG_KEY_FILE, made with a fresh key on first use if missing (make run: var/dice-log.key).
DICE_LOG_KEY = env.str("DICE_LOG_KEY", default="")
DICE_LOG_KEY_FILE = env.str("DICE_LOG_KEY_FILE", default=str(VAR_DIR / "dice-log.key"))

ALLOWED_HOSTS = env("ALLOWED_HOSTS")
# Demo mode: the login page names the demo accounts that `manage.py seed_demo` made. Only with
# DEBUG (development), so a production site never prints passwords; DEMO_MODE=0 turns it off.
DEMO_MODE = DEBUG and env.bool("DEMO_MODE", default=True)
# With DEBUG, a 404 still shows the product's own page (config/not_found.py); TECHNICAL_404=1 shows
# Django's technical page with the URL patterns instead, for a developer.
TECHNICAL_404 = DEBUG and env.bool("TECHNICAL_404", default=False)
CSRF_TRUSTED_ORIGINS = env("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_htmx",
    "characters",
    "campaigns",
    "sheets",
    "systems.timemaster",
    "systems.time_to_kill",
    "systems.tempo",
    "systems.d6",
    "archive",
]

MIDDLEWARE = [
    # Request counts and latency by view (django-prometheus; its After middleware closes the list).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    # Next: its request id and its log line cover everything below, redirects and errors included.
    "config.logs.RequestLogMiddleware",
    # Before SecurityMiddleware and WhiteNoise, so their redirects and files carry the policy too;
    # on every answer, error pages included (config/middleware.py).
    "config.middleware.SecurityHeadersEverywhereMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Just outside WhiteNoise: its files (and any FileResponse) stream async under ASGI.
    "config.async_files.AsyncFileStreamsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A campaign's pages show times in the group's time zone; the API keeps UTC (kernel/zones.py).
    "kernel.zones.TimeZonePerRequestMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Under DEBUG (`make run`) a 404 is the product's page, not Django's technical one
    # (config/not_found.py; TECHNICAL_404=1 brings that back). Inside the session, user and htmx.
    "config.not_found.ProductNotFoundMiddleware",
    # After CSRF and authentication, so their refusals come first (config/middleware.py).
    "config.middleware.InputBoundaryMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
    # Last: it turns a login that axes refused into the lockout answer (kernel/abuse.py).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
# Django's form renderer with <select> written in Python (kernel/form_renderer.py: long selects
# spent most of a page's rendering in per-option template includes).
FORM_RENDERER = "kernel.form_renderer.SelectRenderer"

# --- database ---------------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'dossier.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Write transactions in turn through a file lock (config/sqlite3/base.py says why).
    DATABASES["default"]["ENGINE"] = "config.sqlite3"
    # WAL, immediate transactions and a busy timeout: without them concurrent writers get
    # "database is locked" (measured, ARCHITECTURE.md "Facts").
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests on an in-memory database, as Django does for SQLite when no test name is given (said
    # outright: pytest-django would otherwise not know the backend for SQLite and name a file).
    # The browser tests (make e2e) name a file instead: their servers' threads each open a
    # connection of their own, and an in-memory database's shared cache fails a write that meets
    # another connection's transaction at once ("database table is locked"), where a file database
    # in WAL waits its turn as the product's does (docs/testing.md).
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", env.str("DOSSIER_TEST_DATABASE", default=":memory:")
    )
else:
    # PostgreSQL through psycopg's connection pool (Django's "pool" option), not persistent
    # connections: under ASGI every request's synchronous code runs in a thread of its own, and
    # CONN_MAX_AGE kept a connection per thread, so a busy node ran PostgreSQL out of connections
    # ("too many clients": bench/live.py, 2,000 clients and two workers; Django's docs advise a pool
    # under ASGI). A request borrows a connection and gives it back; past DB_POOL_MAX it waits up to
    # DB_POOL_TIMEOUT seconds. Per process: keep workers x DB_POOL_MAX under max_connections.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=2),
        "max_size": env.int("DB_POOL_MAX", default=20),
        "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Axes first: it refuses a locked-out username/address before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign-list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- static and media files ----------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
# Rendered PDFs go through STORAGES["default"] only (sheets/storage.py): the local folder by default,
# an S3-compatible object store with DOSSIER_STORAGE=s3 (django-storages; every node shares it).
DOSSIER_STORAGE = env.str("DOSSIER_STORAGE", default="local")
if DOSSIER_STORAGE == "s3":
    DEFAULT_FILE_STORAGE_CONFIG = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": env.str("AWS_STORAGE_BUCKET_NAME"),
            "endpoint_url": env.str("AWS_S3_ENDPOINT_URL", default="") or None,
            "region_name": env.str("AWS_S3_REGION_NAME", default="") or None,
            "access_key": env.str("AWS_ACCESS_KEY_ID", default="") or None,
            "secret_key": env.str("AWS_SECRET_ACCESS_KEY", default="") or None,
            "location": env.str("AWS_LOCATION", default=""),
            # Names are unique per render; a rerun of the same job replaces its object in one PUT.
            "file_overwrite": True,
            "default_acl": None,
            "querystring_auth": True,
            # Downloads larger than this spool to a temporary file instead of memory.
            "max_memory_size": 8 * 1024 * 1024,
        },
    }
elif DOSSIER_STORAGE == "local":
    DEFAULT_FILE_STORAGE_CONFIG = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
else:
    raise ValueError(f"DOSSIER_STORAGE must be 'local' or 's3', not {DOSSIER_STORAGE!r}")
# Object stores only: answer a download with a redirect to a signed URL valid this many seconds,
# instead of streaming the bytes through Dossier (the access check happens first either way).
SHEET_DOWNLOAD_SIGNED_URLS = env.bool("SHEET_DOWNLOAD_SIGNED_URLS", default=False)
SHEET_DOWNLOAD_URL_SECONDS = env.int("SHEET_DOWNLOAD_URL_SECONDS", default=60)
STORAGES = {
    "default": DEFAULT_FILE_STORAGE_CONFIG,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- security (production values when DEBUG is off) ----------------------------------------------
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env("SECURE_SSL_REDIRECT") if env("SECURE_SSL_REDIRECT") is not None else not DEBUG
SECURE_HSTS_SECONDS = 0 if DEBUG else env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
# Probes and the metrics scraper talk to a node directly, over plain HTTP, behind the proxy.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
# Content-Security-Policy (django-csp): scripts and styles only from our own static files, so a
# script that got into a page through user text would not run. No inline scripts or event-handler
# attributes anywhere (static/js/app.js does what they did) and htmx's eval is off (base.html).
# The API docs page relaxes styles only (config/urls.py: Swagger UI sets inline styles).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Permissions-Policy (django-permissions-policy): turns off the browser features a campaign tool
# never uses.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media", "fullscreen",
        "geolocation", "gyroscope", "magnetometer", "microphone", "midi", "payment", "usb",
    )
}  # fmt: skip

# --- cache (rate-limit and lockout counters) --------------------------------------------------------
# Counters must be shared by every process that serves requests (gunicorn workers), so the default
# is a file cache in var/, never a per-process memory cache; CACHE_URL (redis://host:6379/N, a
# database of its own: tests clear it) moves it to Redis.
CACHES = {"default": env.cache_url("CACHE_URL", default=f"filecache://{VAR_DIR / 'cache'}")}

# --- abuse: lockout, rate limits, API tokens -------------------------------------------------------
# django-axes counts failed logins (web login and POST /api/v1/auth/token/) per username and
# address together, so a stranger cannot lock a player out from elsewhere; the per-address
# throttles below slow down guessing across many usernames.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "kernel.abuse.lockout_response"
AXES_VERBOSE = False
AXES_DISABLE_ACCESS_LOG = True  # only failures count; no row per successful login
# One notion of the client's address for the lockout and the throttles: DRF's, which believes
# X-Forwarded-For only as far as PROXY_COUNT proxies (see REST_FRAMEWORK["NUM_PROXIES"] and README).
AXES_CLIENT_IP_CALLABLE = "kernel.abuse.client_address"
# Rates ("number/second|minute|hour|day"), counted in the cache above by DRF's throttles; the web
# pages use the same throttle classes (kernel/abuse.py), so a page and its API share one budget.
_RATE_LIMIT_VARIABLES = {  # scope: (environment variable, default)
    # Failed logins only (web and token endpoint): successful ones never count (kernel/abuse.py).
    "login": ("RATE_LIMIT_LOGIN", "60/hour"),
    "signup": ("RATE_LIMIT_SIGNUP", "10/hour"),
    "token": ("RATE_LIMIT_TOKEN", "20/hour"),
    "archive-import": ("RATE_LIMIT_IMPORT", "10/hour"),
}
RATE_LIMITS = {
    scope: env.str(name, default=default) for scope, (name, default) in _RATE_LIMIT_VARIABLES.items()
}
for _scope, (_name, _default) in _RATE_LIMIT_VARIABLES.items():
    if not re.fullmatch(r"[1-9][0-9]*/(second|minute|hour|day)", RATE_LIMITS[_scope]):
        raise ImproperlyConfigured(
            f"{_name}={RATE_LIMITS[_scope]!r}: write it like {_default} (second, minute, hour, day)"
        )
# django-rest-knox: tokens stored hashed, several per user, each with an expiry.
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=env.int("API_TOKEN_DAYS", default=30)),
    "AUTH_HEADER_PREFIX": "Token",
    "TOKEN_LIMIT_PER_USER": env.int("API_TOKENS_PER_USER", default=20),
}

# --- API ---------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an anonymous request gets 401 with a WWW-Authenticate header.
        "config.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "kernel.api.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "config.openapi.SystemPrefixedAutoSchema",
    "EXCEPTION_HANDLER": "kernel.api.exception_handler",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "kernel.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_THROTTLE_RATES": RATE_LIMITS,
    # Client addresses for the throttles: REMOTE_ADDR unless PROXY_COUNT proxies sit in front
    # (DRF would otherwise trust any X-Forwarded-For a client sends).
    "NUM_PROXIES": env.int("PROXY_COUNT", default=0),
    # Every API body passes the input boundary (kernel/input_boundary.py) as it is parsed.
    "DEFAULT_PARSER_CLASSES": [
        "kernel.parsers.JSONParser",
        "kernel.parsers.FormParser",
        "kernel.parsers.MultiPartParser",
    ],
}
from config.openapi_enums import EnumNames  # noqa: E402

SPECTACULAR_SETTINGS = {
    "TITLE": "Dossier API",
    "DESCRIPTION": "Campaigns, characters, dice and sheets for tabletop role-playing groups.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI served from our own static files, never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several choice sets are called "kind": each gets its own name in the schema. A system's own
    # come from the registry (SystemApp.openapi_enums), read when the schema is made.
    "ENUM_NAME_OVERRIDES": EnumNames(
        {
            "SheetKindEnum": "sheets.services.REQUESTABLE_KIND_CHOICES",
            "SignificanceEntryKindEnum": "campaigns.models.SIGNIFICANCE_ENTRY_KIND_CHOICES",
            "WebhookKindEnum": "campaigns.models.WebhookKind",
            "DiceKindEnum": "campaigns.table.api_fair.DICE_KINDS",
            "NoteVisibilityEnum": "campaigns.chronicle.api_play_sessions.NOTE_VISIBILITY_CHOICES",
            "SearchKindEnum": "campaigns.chronicle.api_search.SEARCH_KIND_CHOICES",
            "PaperEnum": "campaigns.models.PAPERS",
        }
    ),
}
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# --- the input boundary (kernel/input_boundary.py): what any text, form or JSON value may be ------
INPUT_MAX_JSON_DEPTH = env.int("INPUT_MAX_JSON_DEPTH", default=32)
INPUT_MAX_JSON_ITEMS = env.int("INPUT_MAX_JSON_ITEMS", default=20_000)  # values in one request body
INPUT_MAX_STRING_CHARS = env.int("INPUT_MAX_STRING_CHARS", default=100_000)
INPUT_MAX_NUMBER = env.int("INPUT_MAX_NUMBER", default=2**53)  # what a JavaScript client reads exactly
INPUT_MAX_DIGIT_RUN = env.int("INPUT_MAX_DIGIT_RUN", default=100)  # digits in a row within a text

# --- Celery ------------------------------------------------------------------------------------
# The default broker is kombu's SQLAlchemy transport on an SQLite file: no server to run, and a
# separate worker process shares it (make run starts one).
CELERY_BROKER_URL = env.str(
    "CELERY_BROKER_URL", default=f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
)
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
CELERY_WORKER_MAX_TASKS_PER_CHILD = env.int("CELERY_WORKER_MAX_TASKS_PER_CHILD", default=500)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env.int("CELERY_WORKER_MAX_MEMORY_PER_CHILD", default=400_000)  # KiB
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # Unacknowledged jobs come back after this long (a killed worker's render is redelivered).
    # Every worker sweeps for them every CELERY_UNACKED_RESTORE_SECONDS (kombu's default sweep is
    # 10 s x a throttle of 10: a job of a dead worker would wait ~100 s more for any survivor).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=120),
        "unacked_restore_interval": env.int("CELERY_UNACKED_RESTORE_SECONDS", default=10),
        "unacked_restore_throttle": 1,
    }
SHEET_RENDER_DEADLINE_SECONDS = env("SHEET_RENDER_DEADLINE_SECONDS")
# Outgoing webhooks (campaigns/table/webhooks.py, docs/webhooks.md). A hook's URL may not reach a private,
# loopback or link-local address (after DNS, and on every redirect) unless this list names its exact
# host:port, e.g. WEBHOOK_ALLOWED_HOSTS=chat.lan:8065,127.0.0.1:9000.
WEBHOOK_ALLOWED_HOSTS = env.list("WEBHOOK_ALLOWED_HOSTS", default=[])
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=5.0)  # per connect or read
# The whole delivery, redirects included: a receiver that answers a byte at a time (each read within
# the timeout above) is cut off here instead of holding a worker until Celery's hard limit.
WEBHOOK_DEADLINE_SECONDS = env.float("WEBHOOK_DEADLINE_SECONDS", default=2 * WEBHOOK_TIMEOUT_SECONDS)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=4)  # per event: 1 try + 3 retries
WEBHOOK_BACKOFF_SECONDS = env.float("WEBHOOK_BACKOFF_SECONDS", default=5.0)  # then x2 each retry
WEBHOOK_DISABLE_AFTER = env.int("WEBHOOK_DISABLE_AFTER", default=3)  # events failed in a row
# Deliveries wait on other people's servers: they go to a queue of their own, which only the webhook
# worker takes (scripts/run.sh; deploy/dossier-webhooks.service), so slow receivers never hold the
# workers that render sheets and exports; those take Celery's default queue, "celery".
WEBHOOK_QUEUE = "webhooks"
CELERY_TASK_ROUTES = {"campaigns.deliver_webhook": {"queue": WEBHOOK_QUEUE}}
# A character's sheet is rendered in the background this long after its revision changes
# (sheets/prerender.py): a burst of edits renders once, for the last revision.
SHEET_PRERENDER_DEBOUNCE_SECONDS = env.float("SHEET_PRERENDER_DEBOUNCE_SECONDS", default=2.0)
# A campaign's report pictures are drawn this long after the play that changes them
# (campaigns/chart_warming.py).
CHARTS_WARM_DEBOUNCE_SECONDS = env.float("CHARTS_WARM_DEBOUNCE_SECONDS", default=2.0)
#: Processes a cold party bundle is rendered in, a chunk of its sheets each, then joined
#: (sheets/rendering.py render_in_chunks); 1 renders it as one document in the worker.
SHEET_BUNDLE_PROCESSES = env.int("SHEET_BUNDLE_PROCESSES", default=2)
# The sheet reconciler (a worker started with -B runs it; `manage.py reconcile_sheets` does the same).
CELERY_BEAT_SCHEDULE = {
    "reconcile-sheet-renders": {
        "task": "sheets.reconcile",
        "schedule": max(30, SHEET_RENDER_DEADLINE_SECONDS // 2),
    }
}

# --- metrics (config/metrics.py) ---------------------------------------------------------------
# /metrics answers only with "Authorization: Bearer <METRICS_TOKEN>"; without a token it is a 404.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
# A machine running only workers serves their metrics on this port (0: off), on this address.
METRICS_WORKER_PORT = env.int("METRICS_WORKER_PORT", default=0)
METRICS_WORKER_ADDRESS = env.str("METRICS_WORKER_ADDRESS", default="127.0.0.1")

# --- logs ----------------------------------------------------------------------------------------
# One line per request (config.logs.RequestLogMiddleware) and per Celery job, each with the request
# id; LOG_FORMAT=json writes them as JSON lines (python-json-logger) for a log collector.
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
LOG_LEVEL = env.str("LOG_LEVEL", default="WARNING")
if LOG_FORMAT not in ("text", "json"):
    raise ValueError(f"LOG_FORMAT must be 'text' or 'json', not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A 4xx is a normal answer (a form error; a player tried a GM's action): the access line
    # (dossier.request) says it once; django.request's own line for it, and its traceback, go.
    "filters": {
        "request_id": {"()": "config.logs.RequestIdFilter"},
        "one_line_per_client_error": {"()": "config.log_filters.OneLinePerClientError"},
    },
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(request_id)s %(process)d %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["request_id"]}
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # The per-request and per-job lines: at INFO whatever LOG_LEVEL is, they are the access log.
        # REQUEST_LOG_LEVEL=WARNING quiets it (scripts/run.sh: ten page views scrolled the address
        # and the demo logins off the last 15 lines; issue 44's walk).
        "dossier.request": {"level": env.str("REQUEST_LOG_LEVEL", default="INFO")},
        # JOB_LOG_LEVEL=WARNING quiets it (scripts/run.sh, where it would bury the address).
        "dossier.job": {"level": env.str("JOB_LOG_LEVEL", default="INFO")},
        # Seven lines per rendered PDF: only when asked for everything.
        "weasyprint.progress": {"level": "DEBUG" if LOG_LEVEL == "DEBUG" else "WARNING"},
        "django.request": {"filters": ["one_line_per_client_error"]},
    },
}
# Workers keep this configuration instead of Celery's own, so their lines are JSON lines too; and
# their stderr stays the real one (redirected into a logger, the handler above would write nowhere).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_WORKER_REDIRECT_STDOUTS = False

# --- archive import limits (issue 18) ------------------------------------------------------------
# An import is refused (413, naming the limit, nothing stored) above these: the file's size, the
# records of any one section (its entries plus the lists of records inside each, e.g. a character's
# ledger or a conflict's events), and the records of the whole archive. 62,000 rolls took ~18 s.
ARCHIVE_MAX_BYTES = env.int("ARCHIVE_MAX_BYTES", default=8 * 1024 * 1024)
ARCHIVE_MAX_SECTION_ROWS = env.int("ARCHIVE_MAX_SECTION_ROWS", default=20_000)
ARCHIVE_MAX_ROWS = env.int("ARCHIVE_MAX_ROWS", default=30_000)

# --- live feed (campaigns/table/live.py, docs/live.md) --------------------------------------------------
# Several web nodes share the campaigns' events through Redis pub/sub at this URL (a database of
# its own is not needed: pub/sub ignores the number). Unset (make run): no Redis; each process
# polls the newest event id every LIVE_POLL_SECONDS and so also hears of the events a Celery worker
# or another process wrote.
LIVE_REDIS_URL = env.str("LIVE_REDIS_URL", default="")
LIVE_POLL_SECONDS = env.float("LIVE_POLL_SECONDS", default=0.5)
# With Redis the same poll is a safety net (pub/sub delivers at most once): seldom.
LIVE_REDIS_POLL_SECONDS = env.float("LIVE_REDIS_POLL_SECONDS", default=5.0)
# A comment line on an idle stream this often, so that no proxy closes it; as often, every open
# stream's session is checked again (a logout, a password change or a deactivated account ends it).
LIVE_HEARTBEAT_SECONDS = env.float("LIVE_HEARTBEAT_SECONDS", default=25.0)
# What one stream may hold for a reader who does not read (a stalled connection) before it is
# closed; the browser reconnects and catches up from its last event id.
LIVE_OUTBOX_CHARS = env.int("LIVE_OUTBOX_CHARS", default=64 * 1024)
# Open live streams per browser session and per account (tabs and devices); the next is a 429 that
# the page shows. Counted across web processes in Redis where LIVE_REDIS_URL is set, else per process
# (make run serves from one).
LIVE_STREAMS_PER_SESSION = env.int("LIVE_STREAMS_PER_SESSION", default=6)
LIVE_STREAMS_PER_USER = env.int("LIVE_STREAMS_PER_USER", default=12)
# How soon a browser reconnects after a dropped stream (SSE retry).
LIVE_RETRY_MS = env.int("LIVE_RETRY_MS", default=1000)
# Under a WSGI server (no held connections): how long one answer waits for news before ending.
LIVE_SYNC_WAIT_SECONDS = env.float("LIVE_SYNC_WAIT_SECONDS", default=10.0)
