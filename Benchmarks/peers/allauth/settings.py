"""django-allauth's headless passkey login, set up as a production deployment would be, for
`make bench-peers` (scripts/peer-bench.sh, docs/BENCHMARKS.md "Peers"). Bench tooling only.

The run directory (SQLite database, e-mail spool) and the secret key come from the environment,
which sesame-loadgen sets for every run: PEER_BENCH_DIR and PEER_BENCH_SECRET_KEY.
"""
import os

SECRET_KEY = os.environ["PEER_BENCH_SECRET_KEY"]
if len(SECRET_KEY) < 50:
    raise RuntimeError("PEER_BENCH_SECRET_KEY must be at least 50 characters")
RUN_DIR = os.environ["PEER_BENCH_DIR"]

DEBUG = False
# WebAuthn needs a domain as the RP ID (allauth takes it from the Host header) and allows plain
# http only on localhost, so the host is "localhost"; gunicorn binds 127.0.0.1 only.
ALLOWED_HOSTS = ["localhost"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.headless",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]
# `check --deploy` clean except for what only TLS can give: like Sesame in its benchmark, the
# server speaks plain HTTP on loopback (in production a TLS proxy sits in front of either).
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SILENCED_SYSTEM_CHECKS = ["security.W004", "security.W008"]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ROOT_URLCONF = "urls"
WSGI_APPLICATION = "wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

# The same journal as Sesame's SQLite store: WAL, synchronous=NORMAL.
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(RUN_DIR, "allauth.sqlite3"),
        # Persistent connections, as a production deployment has them: without, every request
        # opens the database and its close checkpoints the WAL.
        "CONN_MAX_AGE": 600,
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
        },
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True

# Signup codes are "sent" into the run directory; the load generator reads them from there.
EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = os.path.join(RUN_DIR, "mail")
DEFAULT_FROM_EMAIL = "bench@localhost"

# Passkeys only: passkey signup (which allauth requires to verify the address by code) and
# passwordless passkey login.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = True
MFA_SUPPORTED_TYPES = ["webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_PASSKEY_SIGNUP_ENABLED = True
# Off for the benchmark, as Sesame runs with --rate-limit-per-ip 0.
ACCOUNT_RATE_LIMITS = False
MFA_RATE_LIMITS = False

# The headless API for apps only: X-Session-Token, no cookies, no CSRF.
HEADLESS_ONLY = True
HEADLESS_CLIENTS = ("app",)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
}
