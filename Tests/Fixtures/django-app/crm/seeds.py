"""The deterministic seed, the Rails app's (Tests/Fixtures/rails-app/seeds.rb): 25 people,
60 projects, 150 tasks; and the OAuth2 test client with one refresh token (README.md)."""

import os
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import connection, transaction
from oauth2_provider.models import AccessToken, Application, RefreshToken

from crm.models import Person, Project, Task

PEOPLE = [
    ("Ada", "Lovelace", "ada.lovelace@example.com"),
    ("Alan", "Turing", "alan.turing@example.com"),
    ("Grace", "Hopper", "grace.hopper@example.com"),
    ("Edsger", "Dijkstra", "edsger.dijkstra@example.com"),
    ("Barbara", "Liskov", "barbara.liskov@example.com"),
    ("Donald", "Knuth", "donald.knuth@example.com"),
    ("Margaret", "Hamilton", "margaret.hamilton@example.com"),
    ("Dennis", "Ritchie", "dennis.ritchie@example.com"),
    ("Ken", "Thompson", "ken.thompson@example.com"),
    ("Frances", "Allen", "frances.allen@example.com"),
    ("Alan", "Kay", "alan.kay@example.com"),
    ("Radia", "Perlman", "radia.perlman@example.com"),
    ("Tim", "Berners-Lee", None),
    ("Niklaus", "Wirth", "niklaus.wirth@example.com"),
    ("Adele", "Goldberg", "adele.goldberg@example.com"),
    ("Bjarne", "Stroustrup", "bjarne.stroustrup@example.com"),
    ("Guido", "van Rossum", "guido.vanrossum@example.com"),
    ("Yukihiro", "Matsumoto", "yukihiro.matsumoto@example.com"),
    ("Sophie", "Wilson", "sophie.wilson@example.com"),
    ("Lynn", "Conway", "lynn.conway@example.com"),
    ("José", "Valim", "jose.valim@example.com"),
    ("Karen", "Spärck Jones", "karen.sparckjones@example.com"),
    ("Ada", "Yonath", "ada.yonath@example.com"),
    ("Shafi", "Goldwasser", "shafi.goldwasser@example.com"),
    ("David", "Heinemeier Hansson", "david.hansson@example.com"),
]
ADMIN_IDS = {5, 10, 15, 20, 25}
NO_BIRTHDAY_IDS = {7, 19}
EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)

# The OAuth2 test client and its refresh token, from scripts/django-server (it prints them).
CLIENT_ID = os.environ.get("DJANGO_CLIENT_ID", "rmap-test-client")
CLIENT_SECRET = os.environ.get("DJANGO_CLIENT_SECRET", "rmap-test-secret")
REFRESH_TOKEN = os.environ.get("DJANGO_REFRESH_TOKEN", "rmap-test-refresh")


def reset():
    """Empties the tables, restarts their id sequences and inserts the seed and the OAuth2 client."""
    with transaction.atomic():
        for model in (Task, Project, Person, RefreshToken, AccessToken, Application, User):
            model.objects.all().delete()
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM sqlite_sequence")
        Person.objects.bulk_create(people())
        Project.objects.bulk_create(projects())
        Task.objects.bulk_create(tasks())
        oauth_client()


def stamp(day, id):
    time = EPOCH + timedelta(days=day, minutes=id)
    return {"created_at": time, "updated_at": time}


def people():
    for index, (first, last, email) in enumerate(PEOPLE):
        id = index + 1
        admin = id in ADMIN_IDS
        born = None if id in NO_BIRTHDAY_IDS else date(1950, 1, 1) + timedelta(days=id * 397)
        yield Person(
            id=id, first_name=first, last_name=last, email=email, born_on=born, admin=admin,
            type="Admin" if admin else None, **stamp(0, id))


def project_owner(id):
    if id <= 12:
        return 1
    if id == 60:
        return None
    return 2 + (id - 13) % 23


def projects():
    for id in range(1, 61):
        budget = None if id % 10 == 0 else Decimal(id * 1250) + Decimal(id % 4 * 25) / 100
        starts = None if id % 15 == 0 else date(2024, 1, 1) + timedelta(days=(id - 1) * 7)
        yield Project(
            id=id, name=f"Project {id:02d}", budget=budget, person_id=project_owner(id), starts_on=starts,
            archived=id % 6 == 0, **stamp(1, id))


def tasks():
    for id in range(1, 151):
        project = 1 if id <= 12 else 2 + (id - 13) // 3
        due = None
        if id % 4 != 0:
            due = datetime(2024, 3, 1, 9, tzinfo=timezone.utc) + timedelta(
                hours=id, milliseconds=(id * 37) % 1000)
        estimate = None if id % 5 == 0 else Decimal(id % 8) / 4 + Decimal("0.5")
        yield Task(
            id=id, title=f"Task {id:03d}", project_id=project, done=id % 3 == 0, due_at=due, estimate=estimate,
            **stamp(2, id))


def oauth_client():
    """The confidential client-credentials application, and a refresh token issued to it earlier
    (for the refresh-token grant; rotated, so good for one refresh until the next reset)."""
    user = User.objects.create(username="rmap")
    application = Application.objects.create(
        name="rmap tests", client_id=CLIENT_ID, client_secret=CLIENT_SECRET,
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS)
    expired = AccessToken.objects.create(
        user=user, application=application, token="rmap-expired-access-token", scope="read write",
        expires=EPOCH)
    RefreshToken.objects.create(user=user, application=application, token=REFRESH_TOKEN, access_token=expired)
