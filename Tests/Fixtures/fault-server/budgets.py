"""Request budgets, mixed into the fault server's Handler: a route that notes when each request
arrived (to measure a client's pacing), and the rate-limit answers of GitHub and of the IETF
draft, over pages of numbered items.

State is per tag (the route's second path segment): tests use a tag of their own, so nothing
needs resetting. Everything runs on the server's one event-loop thread.
"""

import asyncio
import math
import time
from http import HTTPStatus

# tag -> arrival times (time.monotonic() seconds) of `/paced/<tag>` requests
ARRIVALS = {}
# tag -> [window start (monotonic), requests in the window]
WINDOWS = {}


class Budgets:
    """Routes `/paced`, `/github` and `/ietf`, and `GET /_arrivals?tag=<tag>`."""

    def tag(self):
        parts = self.route.strip("/").split("/")
        return parts[1] if len(parts) > 1 else ""

    def page_of_items(self):
        """Page `page` (from 1) of `total` items (default 12), `per_page` (default 3) a page, as a
        top-level array, and the `X-Total-Count` header that tells rmap how many pages there are."""
        total = max(0, self.int_param("total", 12))
        per_page = max(1, self.int_param("per_page", 3))
        page = max(1, self.int_param("page", 1))
        first = (page - 1) * per_page + 1
        items = [{"id": n, "name": f"Item {n}"} for n in range(first, min(first + per_page, total + 1))]
        return items, {"X-Total-Count": str(total)}

    def route_paced(self):
        """Notes the request's arrival, then answers a page of items at once."""
        ARRIVALS.setdefault(self.tag(), []).append(time.monotonic())
        items, headers = self.page_of_items()
        self.send(HTTPStatus.OK, items, headers)

    def control_arrivals(self):
        """The arrival times (seconds) of `/paced/<tag>` requests, oldest first."""
        self.send(HTTPStatus.OK, ARRIVALS.get(self.query.get("tag", ""), []))

    def spend(self):
        """Counts a request against the tag's budget of `limit` requests (default 2) a window of
        `reset` seconds (default 2, from the first request of the window); the requests left
        after it (-1: none was left) and the seconds until the window ends."""
        limit = max(1, self.int_param("limit", 2))
        length = max(0.1, float(self.query.get("reset", "2")))
        now = time.monotonic()
        window = WINDOWS.get(self.tag())
        if window is None or now >= window[0] + length:
            window = WINDOWS[self.tag()] = [now, 0]
        window[1] += 1
        return limit - window[1], window[0] + length - now

    async def hold(self):
        """Waits `hold` seconds (default 0) after a request is counted and before it is answered:
        requests a client sends at once all reach the window before any answer says the budget is
        spent, however slowly the client sends them. Returns the seconds held."""
        seconds = max(0.0, float(self.query.get("hold", "0")))
        await asyncio.sleep(seconds)
        return seconds

    async def route_github(self):
        """GitHub's primary rate limit (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api):
        every answer has `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds);
        past the limit, 403 `{"message": "API rate limit exceeded ..."}` with a remaining of 0."""
        left, seconds = self.spend()
        seconds -= await self.hold()
        headers = {
            "X-RateLimit-Limit": self.query.get("limit", "2"),
            "X-RateLimit-Remaining": str(max(0, left)),
            "X-RateLimit-Reset": str(math.ceil(time.time() + seconds)),
        }
        if left < 0:
            body = {"message": "API rate limit exceeded for 127.0.0.1.", "documentation_url": "https://docs.github.com"}
            self.send(HTTPStatus.FORBIDDEN, body, headers)
            return
        items, total = self.page_of_items()
        self.send(HTTPStatus.OK, items, {**headers, **total})

    async def route_ietf(self):
        """The IETF draft's fields (https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/):
        `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds from now); past the limit,
        429 `{"error": "Too Many Requests"}` with a remaining of 0."""
        left, seconds = self.spend()
        seconds -= await self.hold()
        headers = {
            "RateLimit-Limit": self.query.get("limit", "2"),
            "RateLimit-Remaining": str(max(0, left)),
            "RateLimit-Reset": str(max(0, math.ceil(seconds))),
        }
        if left < 0:
            self.send(HTTPStatus.TOO_MANY_REQUESTS, {"error": "Too Many Requests"}, headers)
            return
        items, total = self.page_of_items()
        self.send(HTTPStatus.OK, items, {**headers, **total})
