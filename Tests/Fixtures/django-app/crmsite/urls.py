"""Every route: the CRM under each paginator's prefix, OAuth2, GraphQL, JSON:API and test control."""

from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from graphene_django.views import GraphQLView

from crm import control
from crm.routes import PREFIXES, router

urlpatterns = [
    *[path(f"{prefix}/", include(router(prefix).urls)) for prefix in PREFIXES],
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("graphql", csrf_exempt(GraphQLView.as_view(graphiql=False))),
    path("jsonapi/", include("crm.jsonapi")),
    path("_requests", control.requests),
    path("_reset", control.reset),
    path("_oauth", control.oauth),
]
