"""The GraphQL schema (graphene-django): Relay connections `allPeople`, `allProjects`, `allTasks`,
each node with its nested connections (`projects`, `tasks`) and its row id as `databaseId`."""

import graphene
from graphene import relay
from graphene_django import DjangoConnectionField, DjangoObjectType

from crm.models import Person, Project, Task


class Node(DjangoObjectType):
    """A Relay node (global `id`) that also tells its row's id."""

    database_id = graphene.Int(required=True)

    class Meta:
        abstract = True

    def resolve_database_id(self, info):
        return self.pk


class PersonNode(Node):
    class Meta:
        model = Person
        interfaces = (relay.Node,)
        fields = ("first_name", "last_name", "email", "born_on", "admin", "type", "created_at", "updated_at",
                  "projects")
        convert_choices_to_enum = False


class ProjectNode(Node):
    class Meta:
        model = Project
        interfaces = (relay.Node,)
        fields = ("name", "budget", "person", "starts_on", "archived", "created_at", "updated_at", "tasks")


class TaskNode(Node):
    class Meta:
        model = Task
        interfaces = (relay.Node,)
        fields = ("title", "project", "done", "due_at", "estimate", "created_at", "updated_at")


class Query(graphene.ObjectType):
    node = relay.Node.Field()
    all_people = DjangoConnectionField(PersonNode)
    all_projects = DjangoConnectionField(ProjectNode)
    all_tasks = DjangoConnectionField(TaskNode)


schema = graphene.Schema(query=Query)
