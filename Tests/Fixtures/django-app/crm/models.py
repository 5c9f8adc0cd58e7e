"""The CRM's models, with the Rails app's tables and columns (Tests/Fixtures/rails-app/schema.rb)."""

from django.db import models
from django.utils import timezone


class Stamped(models.Model):
    """`created_at` and `updated_at` as Rails keeps them: set on create, `updated_at` on every save.

    Plain fields with defaults rather than `auto_now`, so the seed can give its own times.
    """

    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True
        ordering = ["id"]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            self.updated_at = timezone.now()
        super().save(*args, **kwargs)


class Person(Stamped):
    """A person; `type` is Rails' single-table-inheritance column (null, or "Admin")."""

    first_name = models.CharField(max_length=255)
    last_name = models.CharField(max_length=255, null=True, blank=True)
    email = models.CharField(max_length=255, null=True, blank=True)
    born_on = models.DateField(null=True, blank=True)
    admin = models.BooleanField(default=False)
    type = models.CharField(
        max_length=20, null=True, blank=True, choices=[("Person", "Person"), ("Admin", "Admin")])

    class Meta(Stamped.Meta):
        db_table = "people"


class Project(Stamped):
    name = models.CharField(max_length=255)
    budget = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="projects")
    starts_on = models.DateField(null=True, blank=True)
    archived = models.BooleanField(default=False)

    class Meta(Stamped.Meta):
        db_table = "projects"


class Task(Stamped):
    title = models.CharField(max_length=255)
    project = models.ForeignKey(
        Project, null=True, blank=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="tasks")
    done = models.BooleanField(default=False)
    due_at = models.DateTimeField(null=True, blank=True)
    estimate = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)

    class Meta(Stamped.Meta):
        db_table = "tasks"
