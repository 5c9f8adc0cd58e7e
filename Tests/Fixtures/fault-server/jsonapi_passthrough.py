"""A fast JSON:API pass-through (jsonapi.org/format/1.1), mixed into the fault server's Handler, for
throughput (scripts/bench-jsonapi): the `/rails` items as JSON:API resources, each with an owner
included, answered at once, so that a benchmark measures rmap rather than a framework.
"""

import json
from http import HTTPStatus

OWNERS_PER = 10  # items 1-10 belong to owner 1, 11-20 to owner 2, ...


def item(number):
    owner = (number - 1) // OWNERS_PER + 1
    return {
        "type": "items",
        "id": str(number),
        "attributes": {"name": f"Item {number}"},
        "relationships": {"owner": {"data": {"type": "owners", "id": str(owner)}}},
    }


class JSONAPIPassThrough:
    """Route `/jsonapi/items` (see README.md)."""

    def route_jsonapi(self):
        if self.command == "GET":
            self.send(HTTPStatus.OK, self.jsonapi_page(), content_type="application/vnd.api+json")
        elif self.command == "POST":
            key = self.headers.get("Idempotency-Key")
            make = lambda: self.jsonapi_resource(str(100000 + self.server.state.bump("jsonapi-created")))
            body, _ = self.server.state.answer(key, make) if key else (make(), False)
            self.send(HTTPStatus.CREATED, body, content_type="application/vnd.api+json")
        elif self.command == "PATCH":
            self.send(
                HTTPStatus.OK, self.jsonapi_resource(self.route.rstrip("/").split("/")[-1]),
                content_type="application/vnd.api+json")
        else:
            self.send(HTTPStatus.NO_CONTENT)

    def jsonapi_page(self):
        """`page[number]` (from 1) of `page[size]` items (default 100), their owners included, `links.next`."""
        count = self.server.state.rails_items
        size = max(1, self.int_param("page[size]", 100))
        number = max(1, self.int_param("page[number]", 1))
        numbers = range((number - 1) * size + 1, min(number * size, count) + 1)
        owners = sorted({(n - 1) // OWNERS_PER + 1 for n in numbers})
        document = {
            "data": [item(n) for n in numbers],
            "included": [{"type": "owners", "id": str(o), "attributes": {"name": f"Owner {o}"}} for o in owners],
            "links": {"next": None},
        }
        if number * size < count:
            document["links"]["next"] = f"{self.base_url()}/jsonapi/items?page[number]={number + 1}&page[size]={size}"
        return document

    def jsonapi_resource(self, identifier):
        """The resource sent (`data`), with the identifier given."""
        try:
            sent = json.loads(self.body or b"{}").get("data", {})
        except (ValueError, AttributeError):
            sent = {}
        return {"data": {**(sent if isinstance(sent, dict) else {}), "type": "items", "id": identifier}}
