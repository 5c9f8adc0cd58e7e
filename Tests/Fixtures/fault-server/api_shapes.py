"""Paging and error shapes of APIs no framework here gives, mixed into the fault server's Handler.

Each route follows the public documentation of the API it imitates (cited on it), over a fixed
data set of SHAPE_COUNT records, so that the http source's shapes can be tested end to end.
"""

import base64
import json
from http import HTTPStatus

SHAPE_COUNT = 7
SLACK_TOKEN = "xoxb-s3cret"


def token(offset):
    """An opaque cursor for a position (base64 of `at:<offset>`), and back."""
    return base64.b64encode(f"at:{offset}".encode()).decode()


def position(cursor):
    try:
        prefix, _, number = base64.b64decode(cursor).decode().partition(":")
        offset = int(number)
    except ValueError:
        return None
    return offset if prefix == "at" and 0 <= offset <= SHAPE_COUNT else None


class ApiShapes:
    """Routes `/stripe`, `/notion`, `/slack`, `/hal`, `/odata` and `/headercursor`."""

    def page_of(self, offset, limit):
        end = min(offset + limit, SHAPE_COUNT)
        return range(offset + 1, end + 1), end < SHAPE_COUNT, end

    def route_stripe(self):
        """Stripe's list endpoints, https://docs.stripe.com/api/pagination: `GET /v1/customers?limit=3`,
        then `&starting_after=<the last object's id>`; `{"object": "list", "url", "has_more", "data"}`.
        An unknown `starting_after` answers 400 `{"error": {"type": "invalid_request_error", ...}}`."""
        limit = max(1, min(100, self.int_param("limit", 10)))
        after = self.query.get("starting_after")
        ids = [f"cus_{n:03d}" for n in range(1, SHAPE_COUNT + 1)]
        if after is not None and after not in ids:
            error = {"type": "invalid_request_error", "message": f"No such customer: '{after}'"}
            self.send(HTTPStatus.BAD_REQUEST, {"error": error})
            return
        numbers, more, _ = self.page_of(ids.index(after) + 1 if after else 0, limit)
        data = [{"id": ids[n - 1], "object": "customer", "name": f"Customer {n}", "balance": n * 100} for n in numbers]
        self.send(HTTPStatus.OK, {"object": "list", "url": "/v1/customers", "has_more": more, "data": data})

    def route_notion(self):
        """Notion's database query, https://developers.notion.com/reference/post-database-query and
        https://developers.notion.com/reference/intro#pagination: `POST` with the JSON body
        `{"page_size": 3, "start_cursor": "..."}`; `{"object": "list", "results", "next_cursor", "has_more"}`
        (`next_cursor` null on the last page). A `GET` answers 405, a bad cursor 400."""
        if self.command != "POST":
            self.send(HTTPStatus.METHOD_NOT_ALLOWED, {"object": "error", "code": "invalid_request"})
            return
        try:
            body = json.loads(self.body or b"{}")
        except ValueError:
            body = None
        start = position(body.get("start_cursor") or token(0)) if isinstance(body, dict) else None
        if start is None:
            self.send(HTTPStatus.BAD_REQUEST, {"object": "error", "code": "validation_error"})
            return
        numbers, more, end = self.page_of(start, max(1, min(100, int(body.get("page_size", 100)))))
        results = [
            {"object": "page", "id": f"00000000-0000-0000-0000-00000000000{n}",
             "properties": {"Name": {"type": "title", "plain": f"Task {n}"}, "Done": {"checkbox": n % 2 == 0}}}
            for n in numbers
        ]
        self.send(HTTPStatus.OK, {
            "object": "list", "results": results, "next_cursor": token(end) if more else None, "has_more": more,
            "type": "page_or_database", "page_or_database": {},
        })

    def route_slack(self):
        """Slack's Web API, https://api.slack.com/apis/pagination and
        https://api.slack.com/methods/conversations.list: `GET /api/conversations.list?limit=3`, then
        `&cursor=<response_metadata.next_cursor>` until it is ""; every answer is 200, an error
        `{"ok": false, "error": "invalid_auth"}` (https://api.slack.com/web#evaluating_responses)."""
        if self.headers.get("Authorization") != f"Bearer {SLACK_TOKEN}":
            self.send(HTTPStatus.OK, {"ok": False, "error": "invalid_auth"})
            return
        start = position(self.query.get("cursor") or token(0))
        if start is None:
            self.send(HTTPStatus.OK, {"ok": False, "error": "invalid_cursor"})
            return
        numbers, more, end = self.page_of(start, max(1, self.int_param("limit", 100)))
        channels = [{"id": f"C{n:05d}", "name": f"channel-{n}", "is_archived": n == SHAPE_COUNT} for n in numbers]
        self.send(HTTPStatus.OK, {
            "ok": True, "channels": channels, "response_metadata": {"next_cursor": token(end) if more else ""},
        })

    def route_hal(self):
        """HAL (JSON Hypertext Application Language), https://datatracker.ietf.org/doc/html/draft-kelly-json-hal:
        records under `_embedded.items`, the next page's link at `_links.next.href`, relative."""
        page = max(1, self.int_param("page", 1))
        numbers, more, _ = self.page_of((page - 1) * 3, 3)
        links = {"self": {"href": f"/hal/items?page={page}"}}
        if more:
            links["next"] = {"href": f"items?page={page + 1}"}
        items = [{"id": n, "name": f"Item {n}"} for n in numbers]
        self.send(HTTPStatus.OK, {"_links": links, "_embedded": {"items": items}}, content_type="application/hal+json")

    def route_odata(self):
        """OData JSON 4.01, https://docs.oasis-open.org/odata/odata-json-format/v4.01/odata-json-format-v4.01.html
        (§4.5.5 nextLink): records in `value`, the next page at `@odata.nextLink`, absolute, with `$skiptoken`."""
        start = position(self.query.get("$skiptoken") or token(0)) or 0
        numbers, more, end = self.page_of(start, 3)
        body = {"@odata.context": f"{self.base_url()}/odata/$metadata#Items",
                "value": [{"id": n, "name": f"Item {n}"} for n in numbers]}
        if more:
            body["@odata.nextLink"] = f"{self.base_url()}/odata/Items?$skiptoken={token(end)}"
        self.send(HTTPStatus.OK, body)

    def route_headercursor(self):
        """A cursor in a response header (MAPPING.md §9's `header: X-Next-Cursor`): `?cursor=` from the
        previous answer's `X-Next-Cursor`, which the last page leaves out."""
        start = position(self.query.get("cursor") or token(0))
        if start is None:
            self.send(HTTPStatus.BAD_REQUEST, {"error": "invalid cursor"})
            return
        numbers, more, end = self.page_of(start, max(1, self.int_param("limit", 3)))
        self.send(HTTPStatus.OK, [{"id": n, "name": f"Item {n}"} for n in numbers],
                  {"X-Next-Cursor": token(end)} if more else {})
