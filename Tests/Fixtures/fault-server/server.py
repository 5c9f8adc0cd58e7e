#!/usr/bin/env python3
"""Scripted fault-injection HTTP server for rmap's HTTP tests (Python 3 stdlib only).

Behaviour is chosen by path (see README.md beside this file) and is deterministic:
per-path counters start at zero and `POST /_reset` zeroes them. Every request
except `/_...` is recorded and listed by `GET /_requests`. Served by `http11.py`
(one asyncio event loop, HTTP/1.1 keep-alive).
"""

import argparse
import asyncio
import base64
import json
import zlib
from http import HTTPStatus
from urllib.parse import parse_qs, urlencode, urlsplit

from api_shapes import ApiShapes
from budgets import Budgets
from jsonapi_passthrough import JSONAPIPassThrough
from http11 import Exchange, Server

SECRET = "s3cret"
BASIC_USER = "alice"
ITEMS = [{"id": 1, "name": "Item 1"}, {"id": 2, "name": "Item 2"}]
CURSOR_ITEMS = [{"id": i, "name": f"Item {i}"} for i in range(1, 11)]
ISSUE_COUNT = 13


def issue(number):
    """One GitHub-shaped issue, as in shared/fixtures/octokit/paginate-issues.json."""
    return {
        "id": 1000 + ISSUE_COUNT - number,
        "number": number,
        "title": f"Test issue {number}",
        "state": "open",
        "user": {"login": "octokit-fixture-user-a", "id": 1000, "type": "User"},
        "labels": [],
        "comments": 0,
        "created_at": "2017-10-10T16:00:00Z",
    }


def cursor_token(offset):
    return base64.urlsafe_b64encode(f"offset:{offset}".encode()).decode().rstrip("=")


def cursor_offset(token):
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        prefix, _, number = text.partition(":")
        offset = int(number)
    except (ValueError, UnicodeDecodeError):
        return None
    return offset if prefix == "offset" and 0 <= offset <= len(CURSOR_ITEMS) else None


class State:
    """Counters and the request log, shared by every connection (all on the event loop's thread)."""

    def __init__(self):
        self.counters = {}
        self.requests = []
        self.connections = {}
        self.answers = {}
        self.rails_items = 0
        self.slow = {}  # tag -> [requests sleeping now, most at once]
        self.bombs = {}  # megabytes -> gzip body
        self.inflight = {}  # collection -> InFlightKeys

    def bump(self, key):
        self.counters[key] = self.counters.get(key, 0) + 1
        return self.counters[key]

    def record(self, entry):
        self.requests.append(entry)

    def clear_requests(self):
        self.requests.clear()

    def reset(self):
        self.counters.clear()
        self.requests.clear()
        self.connections.clear()
        self.answers.clear()
        self.rails_items = 0
        self.slow.clear()
        self.inflight = {}

    def connected(self, prefix):
        """Counts a connection that carried a request to `/<prefix>/...` (the path's first two segments)."""
        self.connections[prefix] = self.connections.get(prefix, 0) + 1

    def slow_began(self, tag):
        """Counts a `/slow` request of `tag` that began sleeping; keeps the most sleeping at once."""
        entry = self.slow.setdefault(tag, [0, 0])
        entry[0] += 1
        entry[1] = max(entry[1], entry[0])

    def slow_ended(self, tag):
        self.slow[tag][0] -= 1

    async def gzip_bomb(self, megabytes):
        """A gzip body that inflates to `[`, `megabytes` MiB of spaces and `]`, made once per size.

        Made on another thread: a 1 GiB bomb takes seconds of compression, and the loop serves on.
        """
        if megabytes not in self.bombs:
            body = await asyncio.get_running_loop().run_in_executor(None, make_gzip_bomb, megabytes)
            self.bombs.setdefault(megabytes, body)
        return self.bombs[megabytes]

    def answer(self, key, make):
        """The answer kept under an idempotency key, made by `make` the first time; and whether it was kept."""
        if key in self.answers:
            return self.answers[key], True
        self.answers[key] = make()
        return self.answers[key], False


class InFlightKeys:
    """One `/inflight` collection: its records, the idempotency keys being processed, the answers kept."""

    def __init__(self):
        self.items = []
        self.processing = set()
        self.kept = {}
        self.counts = {"created": 0, "conflicts": 0, "replays": 0}


def make_gzip_bomb(megabytes):
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [compressor.compress(b"[")]
    spaces = b" " * (1 << 20)
    parts += [compressor.compress(spaces) for _ in range(megabytes)]
    parts += [compressor.compress(b"]"), compressor.flush()]
    return b"".join(parts)


class Handler(ApiShapes, Budgets, JSONAPIPassThrough, Exchange):
    """Dispatches on the first path segment; see README.md for each behaviour.

    A route answers with `send` (or streams with `send_head` and `write`); `async` routes
    may wait (`slow`) or stream (`endless`) while the loop serves the other connections.
    """

    # MARK: - Plumbing

    def handle(self):
        split = urlsplit(self.path)
        self.route = split.path.removesuffix(".json")
        self.query = {key: values[-1] for key, values in parse_qs(split.query, keep_blank_values=True).items()}
        if not self.route.startswith("/_"):
            self.server.state.record({
                "method": self.command,
                "path": self.path,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": self.body.decode("utf-8", "replace"),
            })
        segment = self.route.strip("/").split("/")[0]
        prefix = "/".join(self.route.strip("/").split("/")[:2])
        if not segment.startswith("_") and prefix not in self.connection.prefixes:
            self.connection.prefixes.add(prefix)
            self.server.state.connected(prefix)
        if segment.startswith("_"):
            handler = getattr(self, "control_" + segment[1:], None)
        else:
            handler = getattr(self, "route_" + segment, None) if segment else None
        return (handler or self.route_notfound)()

    def base_url(self):
        host, port = self.connection.address[:2]
        return f"http://{host}:{port}"

    def int_param(self, name, default):
        try:
            return int(self.query.get(name, default))
        except ValueError:
            return default

    def log_request(self):
        if not self.route.startswith(("/rails", "/jsonapi")):  # thousands a second: the request log has them
            super().log_request()

    # MARK: - Control

    def control_requests(self):
        if self.command == "DELETE":
            self.server.state.clear_requests()
            self.send(HTTPStatus.NO_CONTENT)
        else:
            self.send(HTTPStatus.OK, self.server.state.requests)

    def control_reset(self):
        self.server.state.reset()
        self.send(HTTPStatus.NO_CONTENT)

    def control_connections(self):
        self.send(HTTPStatus.OK, self.server.state.connections)

    def control_slow(self):
        self.send(HTTPStatus.OK, {tag: entry[1] for tag, entry in self.server.state.slow.items()})

    def control_inflight(self):
        inflight = self.server.state.inflight.get(self.query.get("collection", ""), InFlightKeys())
        self.send(HTTPStatus.OK, {**inflight.counts, "processing": len(inflight.processing)})

    def control_rails(self):
        self.server.state.rails_items = max(0, self.int_param("items", 0))
        self.send(HTTPStatus.NO_CONTENT)

    # MARK: - Faults

    def fail_first(self, status, default_failures):
        attempt = self.server.state.bump(self.route)
        failures = self.int_param("fail", default_failures)
        headers = {"X-Attempt": str(attempt)}
        if attempt > failures:
            self.send(HTTPStatus.OK, ITEMS, headers)
            return
        retry_after = self.query.get("retry_after", "1")
        if retry_after != "none":
            headers["Retry-After"] = retry_after
        self.send(status, {"error": HTTPStatus(status).phrase, "attempt": attempt}, headers)

    def route_flaky(self):
        self.fail_first(HTTPStatus.SERVICE_UNAVAILABLE, 2)

    def route_ratelimit(self):
        self.fail_first(HTTPStatus.TOO_MANY_REQUESTS, 1)

    async def route_slow(self):
        parts = self.route.strip("/").split("/")
        tag = parts[1] if len(parts) > 1 else ""
        self.server.state.slow_began(tag)
        try:
            await asyncio.sleep(float(self.query.get("seconds", "5")))
        finally:
            self.server.state.slow_ended(tag)
        self.send(HTTPStatus.OK, ITEMS)

    def route_drop(self):
        self.close_connection = True

    def route_bad(self):
        self.send(HTTPStatus.OK, b'[{"id": 1, "name": "Item 1"}, {"id": 2, "na')

    def route_notfound(self):
        self.send(HTTPStatus.NOT_FOUND, {"error": "not found", "path": self.path})

    def route_status(self):
        parts = self.route.strip("/").split("/")
        try:
            status = HTTPStatus(int(parts[1]))
        except (IndexError, ValueError):
            self.route_notfound()
            return
        if status == HTTPStatus.UNPROCESSABLE_ENTITY:
            body = {"name": ["can't be blank"]}
        else:
            body = {"status": status.value, "error": status.phrase}
        self.send(status, b"" if status == HTTPStatus.NO_CONTENT else body)

    def route_empty(self):
        if self.command == "POST":
            number = 1000 + self.server.state.bump("empty-created")
            location = f"{self.base_url()}{self.route}/{number}"
            self.send(HTTPStatus.CREATED, b"", {"Location": location})
        elif self.command == "GET":
            self.send(HTTPStatus.OK, [])
        else:
            self.send(HTTPStatus.NO_CONTENT)

    def route_auth(self):
        scheme = self.route.strip("/").split("/")[-1]
        authorization = self.headers.get("Authorization", "")
        basic = base64.b64encode(f"{BASIC_USER}:{SECRET}".encode()).decode()
        allowed = {
            "bearer": authorization == f"Bearer {SECRET}",
            "basic": authorization == f"Basic {basic}",
            "apikey": SECRET in (self.headers.get("X-API-Key"), self.query.get("api_key")),
        }.get(scheme)
        if allowed is None:
            self.route_notfound()
        elif allowed:
            self.send(HTTPStatus.OK, ITEMS)
        else:
            challenge = {"WWW-Authenticate": 'Basic realm="fault-server"'} if scheme == "basic" else {}
            self.send(HTTPStatus.UNAUTHORIZED, {"error": "unauthorized"}, challenge)

    # MARK: - Hostile answers

    def route_redirect(self):
        status = self.int_param("status", HTTPStatus.FOUND)
        self.send(status, b"", {"Location": self.query.get("to", "/empty/redirected")})

    def route_linkto(self):
        self.send(HTTPStatus.OK, ITEMS, {"Link": f'<{self.query.get("to", "")}>; rel="next"'})

    def route_echo(self):
        headers = {name.lower(): value for name, value in self.headers.items()}
        self.send(HTTPStatus.UNAUTHORIZED, {"error": "unauthorized", "headers": headers})

    async def route_endless(self):
        self.send_head(HTTPStatus.OK, [("Content-Type", "application/json"), ("Connection", "close")])
        await self.write(b"[")
        chunk = b'{"id": 1, "name": "Item 1"},' * 4096
        chunks = self.int_param("chunks", -1)
        while chunks != 0:
            await self.write(chunk)
            chunks -= 1
        await self.write(b'{"id": 1, "name": "Item 1"}]')

    async def route_gzipbomb(self):
        body = await self.server.state.gzip_bomb(max(1, self.int_param("mb", 64)))
        self.send(HTTPStatus.OK, body, {"Content-Encoding": "gzip"})

    def route_stuck(self):
        self.send(HTTPStatus.OK, ITEMS)

    def route_samecursor(self):
        self.send(HTTPStatus.OK, {"data": [{"id": 1, "name": self.path}], "meta": {"next": "again"}})

    def route_samelink(self):
        link = f'<{self.base_url()}{self.route}?page=2>; rel="next"'
        self.send(HTTPStatus.OK, [{"id": 1, "name": self.path}], {"Link": link})

    def route_echolink(self):
        """Two pages, each with an `ETag`, for `api_key=s3cret` only; page 1's `Link` names page 2 with the
        request's whole query echoed, `api_key` included (as some APIs do). A matching `If-None-Match` gets a
        304 without `Link`."""
        if self.query.get("api_key") != "s3cret":
            self.send(HTTPStatus.UNAUTHORIZED, {"error": "unauthorized"})
            return
        page = max(1, self.int_param("page", 1))
        etag = f'"echolink-{page}"'
        if self.headers.get("If-None-Match") == etag:
            self.send(HTTPStatus.NOT_MODIFIED, b"", {"ETag": etag})
            return
        headers = {"ETag": etag}
        if page == 1:
            headers["Link"] = f'<{self.base_url()}{self.route}?{urlencode({**self.query, "page": 2})}>; rel="next"'
        self.send(HTTPStatus.OK, [{"id": page, "name": f"Item {page}"}], headers)

    def route_pages(self):
        page = max(1, self.int_param("page", 1))
        self.send(HTTPStatus.OK, [{"id": page, "name": f"Item {page}"}])

    # MARK: - Pass-through (a fast Rails-shaped API)

    def route_rails(self):
        if self.command == "GET":
            count = self.server.state.rails_items
            self.send(HTTPStatus.OK, [{"id": i, "name": f"Item {i}"} for i in range(1, count + 1)])
        elif self.command == "POST":
            key = self.headers.get("Idempotency-Key")
            make = lambda: self.created(100000 + self.server.state.bump("rails-created"))
            body, _ = self.server.state.answer(key, make) if key else (make(), False)
            self.send(HTTPStatus.CREATED, body)
        else:
            self.send(HTTPStatus.NO_CONTENT)

    def created(self, number):
        """The created record: the element's attributes with the identity `number` (`100000 + n` for `/rails`)."""
        try:
            sent = json.loads(self.body or b"{}")
        except ValueError:
            sent = {}
        element = next(iter(sent.values()), {}) if isinstance(sent, dict) and len(sent) == 1 else sent
        return {**(element if isinstance(element, dict) else {}), "id": number}

    # MARK: - Idempotency keys still in flight

    async def route_inflight(self):
        """`/inflight/<ms>/<collection>`: a Rails-shaped collection whose creations take <ms>
        milliseconds and honour `Idempotency-Key` as Stripe does
        (https://docs.stripe.com/api/idempotent_requests): a POST whose key is still being processed
        conflicts with the request executing concurrently, so it is answered 409 and not run, and
        nothing is saved for it ("you can retry these requests"); once the first has finished, a POST
        with its key gets the first answer again (`Idempotent-Replayed: true`) and creates nothing. A
        creation finishes whether or not its client still waits (a client that timed out). Each
        <collection> (the rest of the path: `marker/items`) has records and keys of its own."""
        parts = self.route.strip("/").split("/")
        collection = "/".join(parts[2:])
        inflight = self.server.state.inflight.setdefault(collection, InFlightKeys())
        if self.command == "GET":
            self.send(HTTPStatus.OK, inflight.items)
            return
        if self.command != "POST":
            self.send(HTTPStatus.NO_CONTENT)
            return
        key = self.headers.get("Idempotency-Key")
        if key in inflight.kept:
            inflight.counts["replays"] += 1
            self.send(HTTPStatus.CREATED, inflight.kept[key], {"Idempotent-Replayed": "true"})
            return
        if key in inflight.processing:
            inflight.counts["conflicts"] += 1
            message = "There is currently another in-progress request using this idempotency key. Try again later."
            self.send(HTTPStatus.CONFLICT, {"error": {"type": "idempotency_error", "message": message}})
            return
        if key:
            inflight.processing.add(key)
        try:
            milliseconds = int(parts[1]) if len(parts) > 2 else 0
        except ValueError:
            milliseconds = 0
        await asyncio.sleep(milliseconds / 1000)
        if inflight is not self.server.state.inflight.get(collection):  # reset meanwhile: forgotten
            self.send(HTTPStatus.CREATED, {})
            return
        record = self.created(len(inflight.items) + 1)
        inflight.items.append(record)
        inflight.counts["created"] += 1
        if key:
            inflight.kept[key] = record
            inflight.processing.discard(key)
        self.send(HTTPStatus.CREATED, record)

    # MARK: - Pagination styles

    def route_cursor(self):
        token = self.query.get("cursor")
        offset = 0 if token is None else cursor_offset(token)
        limit = max(1, self.int_param("limit", 3))
        if offset is None:
            self.send(HTTPStatus.BAD_REQUEST, {"error": "invalid cursor"})
            return
        end = offset + limit
        following = cursor_token(end) if end < len(CURSOR_ITEMS) else None
        self.send(HTTPStatus.OK, {"data": CURSOR_ITEMS[offset:end], "meta": {"next": following}})

    def route_link(self):
        per_page = max(1, self.int_param("per_page", 3))
        page = max(1, self.int_param("page", 1))
        numbers = list(range(ISSUE_COUNT, 0, -1))
        last = max(1, -(-len(numbers) // per_page))
        items = [issue(n) for n in numbers[(page - 1) * per_page:page * per_page]]

        def url(number):
            return f"{self.base_url()}/link/repositories/1000/items?{urlencode({'per_page': per_page, 'page': number})}"

        rels = []
        if page > 1:
            rels.append(("prev", page - 1))
        if page < last:
            rels.append(("next", page + 1))
        if page != last:
            rels.append(("last", last))
        if page > 1:
            rels.append(("first", 1))
        link = ", ".join(f'<{url(number)}>; rel="{rel}"' for rel, number in rels)
        self.send(HTTPStatus.OK, items, {"Link": link} if link else {})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(serve(args.port))


async def serve(port):
    server = Server(Handler, State())
    port = await server.listen("127.0.0.1", port)
    # The same server on 127.0.0.2: another origin, for redirects and links that leave the site.
    await server.listen("127.0.0.2", port)
    print(f"Listening on http://127.0.0.1:{port}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    main()
