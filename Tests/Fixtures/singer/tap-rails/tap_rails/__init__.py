"""tap-rails: a Singer tap built on the Meltano Singer SDK's RESTStream, reading
the people and projects of the project's Rails test app (Tests/Fixtures/rails-app).

Config: base_url (the app's URL), per_page (page size; pages follow the Link
header), received_state_file (optional: the tap writes the --state it was given
there, for tests to check what rmap passed).

Both streams are incremental on updated_at: records not newer than the stream's
bookmark are left out (client-side: the app's index has no "updated since" filter).

    tap-rails --config config.json [--state state.json]
"""

from __future__ import annotations

import json
import sys
from urllib.parse import parse_qsl

from singer_sdk import Stream, Tap
from singer_sdk import typing as th
from singer_sdk.pagination import HeaderLinkPaginator
from singer_sdk.streams import RESTStream


def rails_schema(*columns: th.Property) -> dict:
    """A Rails model's JSON schema: id, its own columns, the timestamps."""
    return th.PropertiesList(
        th.Property("id", th.IntegerType),
        *columns,
        th.Property("created_at", th.DateTimeType),
        th.Property("updated_at", th.DateTimeType),
    ).to_dict()


class RailsStream(RESTStream):
    """One index of the Rails app, paged with page/per_page and the Link header."""

    primary_keys = ("id",)
    replication_key = "updated_at"
    records_jsonpath = "$[*]"

    @property
    def url_base(self) -> str:
        return self.config["base_url"]

    def get_new_paginator(self) -> HeaderLinkPaginator:
        return HeaderLinkPaginator()

    def get_url_params(self, context, next_page_token):
        if next_page_token is not None:
            return dict(parse_qsl(next_page_token.query))
        return {"per_page": self.config.get("per_page", 10), "page": 1}

    def post_process(self, row: dict, context=None) -> dict | None:
        bookmark = self.get_starting_replication_key_value(context)
        if bookmark and row["updated_at"] <= bookmark:
            return None
        return row


class PeopleStream(RailsStream):
    name = "people"
    path = "/people.json"
    schema = rails_schema(
        th.Property("first_name", th.StringType),
        th.Property("last_name", th.StringType),
        th.Property("email", th.StringType),
        th.Property("born_on", th.DateType),
        th.Property("admin", th.BooleanType),
        th.Property("type", th.StringType),
    )


class ProjectsStream(RailsStream):
    name = "projects"
    path = "/projects.json"
    schema = rails_schema(
        th.Property("name", th.StringType),
        th.Property("budget", th.StringType),
        th.Property("person_id", th.IntegerType),
        th.Property("starts_on", th.DateType),
        th.Property("archived", th.BooleanType),
    )


class TapRails(Tap):
    name = "tap-rails"
    config_jsonschema = th.PropertiesList(
        th.Property("base_url", th.StringType, required=True),
        th.Property("per_page", th.IntegerType),
        th.Property("received_state_file", th.StringType),
    ).to_dict()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        target = self.config.get("received_state_file")
        if target:
            with open(target, "w") as file:
                json.dump(self.state or None, file)

    def discover_streams(self) -> list[Stream]:
        return [PeopleStream(self), ProjectsStream(self)]
