"""JSON:API endpoints (djangorestframework-jsonapi), served under /jsonapi/.

The CRM as the library renders it (settings.py: member names and types dasherized, types
pluralized): `people`, `projects` and `tasks` resources; `person` and `project` to-one
relationships with their reverse to-many `projects` and `tasks`, each includable
(`?include=projects.tasks`); sparse fieldsets (`fields[people]=first-name,email`); page-number
paging in `page[number]`/`page[size]` (10 a page, at most 100) with `links.next`; writes
(`POST`, `PATCH`, `DELETE`) of `application/vnd.api+json` documents (a project's `tasks` as a
to-many's full linkage too), validation errors answered
400 with `errors[]` and `source.pointer`, as the library does. The person's Rails STI column
`type` is the attribute `kind` (JSON:API reserves `type`).
"""

from django.core.cache import cache
from django.http import HttpResponse
from django.urls import include, path
from rest_framework.routers import SimpleRouter
from rest_framework_json_api import exceptions, pagination, parsers, relations, renderers, serializers, views

from crm.models import Person, Project, Task

STAMPS = ("created_at", "updated_at")


class PersonSerializer(serializers.ModelSerializer):
    kind = serializers.ChoiceField(
        source="type", choices=["Person", "Admin"], allow_null=True, required=False)
    projects = relations.ResourceRelatedField(many=True, read_only=True)
    included_serializers = {"projects": "crm.jsonapi.ProjectSerializer"}

    class Meta:
        model = Person
        fields = ("first_name", "last_name", "email", "born_on", "admin", "kind", "projects", *STAMPS)
        read_only_fields = STAMPS


class ProjectSerializer(serializers.ModelSerializer):
    person = relations.ResourceRelatedField(queryset=Person.objects.all(), allow_null=True, required=False)
    # Writable: a PATCH with the full `tasks` linkage moves tasks to this project and unlinks the
    # rest (the reverse manager's set(), which the nullable foreign key allows).
    tasks = relations.ResourceRelatedField(many=True, queryset=Task.objects.all(), required=False)
    included_serializers = {"person": PersonSerializer, "tasks": "crm.jsonapi.TaskSerializer"}

    class Meta:
        model = Project
        fields = ("name", "budget", "person", "starts_on", "archived", "tasks", *STAMPS)
        read_only_fields = STAMPS


class TaskSerializer(serializers.ModelSerializer):
    project = relations.ResourceRelatedField(queryset=Project.objects.all(), allow_null=True, required=False)
    included_serializers = {"project": ProjectSerializer}

    class Meta:
        model = Task
        fields = ("title", "project", "done", "due_at", "estimate", *STAMPS)
        read_only_fields = STAMPS


class Pages(pagination.JsonApiPageNumberPagination):
    """`?page[number]=2&page[size]=10`: `links.next` (absolute, null on the last page) and
    `meta.pagination` (`page`, `pages`, `count`)."""

    page_size = 10


class JSONAPIViewSet(views.ModelViewSet):
    """The library's viewset (includes prefetched) with its renderer, parser, paginator and
    error format (`{"errors": [{"detail", "status", "source": {"pointer"}, "code"}]}`).

    A `POST` with an `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) keeps its
    answer, kept in the cache that `POST /_reset` clears; the same key again gets that answer
    without a second creation, as the Rails app answers a repeated key."""

    renderer_classes = [renderers.JSONRenderer]
    parser_classes = [parsers.JSONParser]
    pagination_class = Pages

    def get_exception_handler(self):
        return exceptions.exception_handler

    def dispatch(self, request, *args, **kwargs):
        key = request.headers.get("Idempotency-Key") if request.method == "POST" else None
        kept = cache.get(f"idempotency:{key}") if key else None
        if kept:
            return HttpResponse(kept["body"], status=kept["status"], content_type=kept["type"])
        response = super().dispatch(request, *args, **kwargs)
        if key and response.status_code < 500:
            response.render()
            answer = {"body": response.content, "status": response.status_code, "type": response["Content-Type"]}
            cache.set(f"idempotency:{key}", answer, None)
        return response


class PersonViewSet(JSONAPIViewSet):
    queryset = Person.objects.all()
    serializer_class = PersonSerializer


class ProjectViewSet(JSONAPIViewSet):
    queryset = Project.objects.all()
    serializer_class = ProjectSerializer


class TaskViewSet(JSONAPIViewSet):
    queryset = Task.objects.all()
    serializer_class = TaskSerializer


routes = SimpleRouter()
routes.register("people", PersonViewSet, basename="jsonapi-people")
routes.register("projects", ProjectViewSet, basename="jsonapi-projects")
routes.register("tasks", TaskViewSet, basename="jsonapi-tasks")

urlpatterns = [path("", include(routes.urls))]
