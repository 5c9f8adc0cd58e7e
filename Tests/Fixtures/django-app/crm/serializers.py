"""The CRM's JSON, DRF's ModelSerializers with the Rails app's keys (`person_id`, `project_id`)."""

from rest_framework import serializers

from crm.models import Person, Project, Task

STAMPS = ("created_at", "updated_at")


def parent_id(source, model):
    """The parent's id under the Rails key (`person_id`): null, or the id of a row of `model`."""
    return serializers.PrimaryKeyRelatedField(
        source=source, queryset=model.objects.all(), allow_null=True, required=False)


def serializer(model, fields, **declared):
    """A ModelSerializer of `model`: `id`, `fields`, the read-only timestamps; `declared` fields."""
    meta = type("Meta", (), {"model": model, "fields": ("id", *fields, *STAMPS), "read_only_fields": STAMPS})
    return type(f"{model.__name__}Serializer", (serializers.ModelSerializer,), {"Meta": meta, **declared})


PersonSerializer = serializer(Person, ("first_name", "last_name", "email", "born_on", "admin", "type"))
ProjectSerializer = serializer(
    Project, ("name", "budget", "person_id", "starts_on", "archived"), person_id=parent_id("person", Person))
TaskSerializer = serializer(
    Task, ("title", "project_id", "done", "due_at", "estimate"), project_id=parent_id("project", Project))
