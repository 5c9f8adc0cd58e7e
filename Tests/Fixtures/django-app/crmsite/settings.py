"""Settings of the Django test app (see README.md beside this folder).

The state directory (SQLite database, request log) comes from DJANGO_STATE_DIR,
set by scripts/django-server.
"""

import os
from pathlib import Path

from crm import token_lifetime

STATE_DIR = Path(os.environ.get("DJANGO_STATE_DIR", Path(__file__).resolve().parent.parent / "state"))

SECRET_KEY = "rmap-django-test-app-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "127.0.0.2", "localhost"]
USE_TZ = True
TIME_ZONE = "UTC"
USE_I18N = False
ROOT_URLCONF = "crmsite.urls"
WSGI_APPLICATION = "crmsite.wsgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "oauth2_provider",
    "rest_framework",
    "graphene_django",
    "django_filters",
    "crm",
]

MIDDLEWARE = ["crm.control.RequestLog"]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": STATE_DIR / "db.sqlite3",
        "OPTIONS": {"timeout": 20},
    }
}

# DRF's throttles count requests here (one gunicorn worker: one process, one cache).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_RATES": {"throttled": os.environ.get("DJANGO_THROTTLE_RATE", "5/s")},
}

# django-oauth-toolkit: short-lived access tokens (crm/token_lifetime.py); refresh tokens rotate
# (the old one is revoked).
OAUTH2_PROVIDER = {
    "ACCESS_TOKEN_EXPIRE_SECONDS": token_lifetime.DEFAULT,
    "EXTRA_SERVER_KWARGS": {"token_expires_in": token_lifetime.expires_in},
    "ROTATE_REFRESH_TOKEN": True,
    "SCOPES": {"read": "Read the CRM", "write": "Change the CRM"},
}

GRAPHENE = {"SCHEMA": "crm.schema.schema"}

# djangorestframework-jsonapi (crm/jsonapi.py only): member names and types dasherized
# (`first-name`, `born-on`), types pluralized (`people`).
JSON_API_FORMAT_FIELD_NAMES = "dasherize"
JSON_API_FORMAT_TYPES = "dasherize"
JSON_API_PLURALIZE_TYPES = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django": {"handlers": ["console"], "level": "WARNING"}},
}
