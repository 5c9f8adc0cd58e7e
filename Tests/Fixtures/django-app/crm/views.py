"""The CRM's viewsets: DRF's ModelViewSet per model, and nested indexes scoped to a parent."""

from django.shortcuts import get_object_or_404
from rest_framework import viewsets

from crm.models import Person, Project, Task
from crm.serializers import PersonSerializer, ProjectSerializer, TaskSerializer


class PersonViewSet(viewsets.ModelViewSet):
    queryset = Person.objects.all()
    serializer_class = PersonSerializer


class ProjectViewSet(viewsets.ModelViewSet):
    queryset = Project.objects.all()
    serializer_class = ProjectSerializer


class TaskViewSet(viewsets.ModelViewSet):
    queryset = Task.objects.all()
    serializer_class = TaskSerializer


class ParentScoped:
    """A nested index (`people/<person_pk>/projects/`): the parent's children only; a parent that
    does not exist answers 404 `{"detail": "No Person matches the given query."}`."""

    parent_model = None
    parent_field = None

    def parent(self):
        return get_object_or_404(self.parent_model, pk=self.kwargs[f"{self.parent_field}_pk"])

    def get_queryset(self):
        return super().get_queryset().filter(**{self.parent_field: self.parent()})

    def perform_create(self, serializer):
        serializer.save(**{self.parent_field: self.parent()})


class PersonProjectViewSet(ParentScoped, ProjectViewSet):
    parent_model = Person
    parent_field = "person"


class ProjectTaskViewSet(ParentScoped, TaskViewSet):
    parent_model = Project
    parent_field = "project"
