"""The CRM's routes under one URL prefix, each prefix with its own paginator (and throttle or
authentication): the same viewsets, configured per prefix."""

from django_filters.rest_framework import DjangoFilterBackend
from oauth2_provider.contrib.rest_framework import OAuth2Authentication, TokenHasReadWriteScope
from rest_framework.routers import SimpleRouter
from rest_framework.throttling import ScopedRateThrottle

from crm.pagination import CursorPages, LimitOffsetPages, PageNumberPages
from crm.views import PersonProjectViewSet, PersonViewSet, ProjectTaskViewSet, ProjectViewSet, TaskViewSet
from crm.windows import UpdatedWindow

RESOURCES = [
    ("people", PersonViewSet),
    ("projects", ProjectViewSet),
    ("tasks", TaskViewSet),
    (r"people/(?P<person_pk>[0-9]+)/projects", PersonProjectViewSet),
    (r"projects/(?P<project_pk>[0-9]+)/tasks", ProjectTaskViewSet),
]

# prefix -> the settings its viewsets get on top of their own.
PREFIXES = {
    "page": {"pagination_class": PageNumberPages},
    "cursor": {"pagination_class": CursorPages},
    "offset": {"pagination_class": LimitOffsetPages},
    "throttled": {
        "pagination_class": PageNumberPages,
        "throttle_classes": [ScopedRateThrottle],
        "throttle_scope": "throttled",
    },
    "oauth": {
        "pagination_class": PageNumberPages,
        "authentication_classes": [OAuth2Authentication],
        "permission_classes": [TokenHasReadWriteScope],
    },
    "windowed": {
        "pagination_class": PageNumberPages,
        "filter_backends": [DjangoFilterBackend],
        "filterset_class": UpdatedWindow,
    },
}


def router(prefix):
    """A router for `prefix`'s resources, each viewset subclassed with the prefix's settings."""
    routes = SimpleRouter()
    for path, viewset in RESOURCES:
        configured = type(f"{prefix.title()}{viewset.__name__}", (viewset,), PREFIXES[prefix])
        routes.register(path, configured, basename=f"{prefix}-{path}")
    return routes
