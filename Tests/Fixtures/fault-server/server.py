#!/usr/bin/env python3
"""Scripted fault-injection HTTP server for rmap's HTTP tests (Python 3 stdlib only).

Behaviour is chosen by path (see README.md beside this file) and is deterministic:
per-path counters start at zero and `POST /_reset` zeroes them. Every request
except `/_...` is recorded and listed by `GET /_requests`.
"""

import argparse
import base64
import json
import sys
import threading
import time
import zlib
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

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
    """Counters and the request log, shared by the handler threads."""

    def __init__(self):
        self.lock = threading.RLock()
        self.counters = {}
        self.requests = []
        self.connections = {}
        self.answers = {}
        self.rails_items = 0
        self.slow = {}  # tag -> [requests sleeping now, most at once]

    def bump(self, key):
        with self.lock:
            self.counters[key] = self.counters.get(key, 0) + 1
            return self.counters[key]

    def record(self, entry):
        with self.lock:
            self.requests.append(entry)

    def snapshot(self):
        with self.lock:
            return list(self.requests)

    def clear_requests(self):
        with self.lock:
            self.requests.clear()

    def reset(self):
        with self.lock:
            self.counters.clear()
            self.requests.clear()
            self.connections.clear()
            self.answers.clear()
            self.rails_items = 0
            self.slow.clear()

    def connected(self, prefix):
        """Counts a connection that carried a request to `/<prefix>/...` (the path's first two segments)."""
        with self.lock:
            self.connections[prefix] = self.connections.get(prefix, 0) + 1

    def slow_began(self, tag):
        """Counts a `/slow` request of `tag` that began sleeping; keeps the most sleeping at once."""
        with self.lock:
            entry = self.slow.setdefault(tag, [0, 0])
            entry[0] += 1
            entry[1] = max(entry[1], entry[0])

    def slow_ended(self, tag):
        with self.lock:
            self.slow[tag][0] -= 1

    def answer(self, key, make):
        """The answer kept under an idempotency key, made by `make` the first time; and whether it was kept."""
        with self.lock:
            if key in self.answers:
                return self.answers[key], True
            self.answers[key] = make()
            return self.answers[key], False


class Handler(BaseHTTPRequestHandler):
    """Dispatches on the first path segment; see README.md for each behaviour."""

    protocol_version = "HTTP/1.1"
    server_version = "rmap-fault-server/1"

    def do_GET(self):
        self.handle_any()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_GET

    # MARK: - Plumbing

    def setup(self):
        super().setup()
        # The first two path segments of the requests this connection carried (counted once each).
        self.prefixes = set()

    def handle_any(self):
        split = urlsplit(self.path)
        self.route = split.path.removesuffix(".json")
        self.query = {key: values[-1] for key, values in parse_qs(split.query, keep_blank_values=True).items()}
        length = int(self.headers.get("Content-Length") or 0)
        self.body = self.rfile.read(length) if length > 0 else b""
        if not self.route.startswith("/_"):
            self.server.state.record({
                "method": self.command,
                "path": self.path,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": self.body.decode("utf-8", "replace"),
            })
        segment = self.route.strip("/").split("/")[0]
        prefix = "/".join(self.route.strip("/").split("/")[:2])
        if not segment.startswith("_") and prefix not in self.prefixes:
            self.prefixes.add(prefix)
            self.server.state.connected(prefix)
        if segment.startswith("_"):
            handler = getattr(self, "control_" + segment[1:], None)
        else:
            handler = getattr(self, "route_" + segment, None) if segment else None
        try:
            (handler or self.route_notfound)()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def base_url(self):
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def send(self, status, body=b"", headers=None, content_type="application/json; charset=utf-8"):
        if not isinstance(body, bytes):
            body = json.dumps(body).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if body:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def int_param(self, name, default):
        try:
            return int(self.query.get(name, default))
        except ValueError:
            return default

    def log_message(self, format, *args):
        if getattr(self, "route", "").startswith("/rails"):
            return  # thousands a second: the request log has them
        sys.stderr.write("%s %s\n" % (self.log_date_time_string(), format % args))

    # MARK: - Control

    def control_requests(self):
        if self.command == "DELETE":
            self.server.state.clear_requests()
            self.send(HTTPStatus.NO_CONTENT)
        else:
            self.send(HTTPStatus.OK, self.server.state.snapshot())

    def control_reset(self):
        self.server.state.reset()
        self.send(HTTPStatus.NO_CONTENT)

    def control_connections(self):
        with self.server.state.lock:
            self.send(HTTPStatus.OK, dict(self.server.state.connections))

    def control_slow(self):
        with self.server.state.lock:
            self.send(HTTPStatus.OK, {tag: entry[1] for tag, entry in self.server.state.slow.items()})

    def control_rails(self):
        with self.server.state.lock:
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

    def route_slow(self):
        parts = self.route.strip("/").split("/")
        tag = parts[1] if len(parts) > 1 else ""
        self.server.state.slow_began(tag)
        try:
            time.sleep(float(self.query.get("seconds", "5")))
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

    def route_endless(self):
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        self.wfile.write(b"[")
        chunk = b'{"id": 1, "name": "Item 1"},' * 4096
        chunks = self.int_param("chunks", -1)
        while chunks != 0:
            self.wfile.write(chunk)
            chunks -= 1
        self.wfile.write(b'{"id": 1, "name": "Item 1"}]')

    def route_gzipbomb(self):
        body = self.server.gzip_bomb(max(1, self.int_param("mb", 64)))
        self.send(HTTPStatus.OK, body, {"Content-Encoding": "gzip"})

    def route_stuck(self):
        self.send(HTTPStatus.OK, ITEMS)

    def route_samecursor(self):
        self.send(HTTPStatus.OK, {"data": [{"id": 1, "name": self.path}], "meta": {"next": "again"}})

    def route_samelink(self):
        link = f'<{self.base_url()}{self.route}?page=2>; rel="next"'
        self.send(HTTPStatus.OK, [{"id": 1, "name": self.path}], {"Link": link})

    def route_pages(self):
        page = max(1, self.int_param("page", 1))
        self.send(HTTPStatus.OK, [{"id": page, "name": f"Item {page}"}])

    # MARK: - Pass-through (a fast Rails-shaped API)

    def route_rails(self):
        if self.command == "GET":
            with self.server.state.lock:
                count = self.server.state.rails_items
            self.send(HTTPStatus.OK, [{"id": i, "name": f"Item {i}"} for i in range(1, count + 1)])
        elif self.command == "POST":
            key = self.headers.get("Idempotency-Key")
            make = lambda: self.created(self.server.state.bump("rails-created"))
            body, _ = self.server.state.answer(key, make) if key else (make(), False)
            self.send(HTTPStatus.CREATED, body)
        else:
            self.send(HTTPStatus.NO_CONTENT)

    def created(self, number):
        """The created record: the element's attributes with the identity `100000 + number`."""
        try:
            sent = json.loads(self.body or b"{}")
        except ValueError:
            sent = {}
        element = next(iter(sent.values()), {}) if isinstance(sent, dict) and len(sent) == 1 else sent
        return {**(element if isinstance(element, dict) else {}), "id": 100000 + number}

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


class Server(ThreadingHTTPServer):
    daemon_threads = True
    # Parallel test suites open many connections at once; the default queue of 5 resets some.
    request_queue_size = 128

    def __init__(self, address, state):
        super().__init__(address, Handler)
        self.state = state
        self.bombs = {}

    def gzip_bomb(self, megabytes):
        """A gzip body that inflates to `[`, `megabytes` MiB of spaces and `]`, made once per size."""
        with self.state.lock:
            if megabytes not in self.bombs:
                compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
                parts = [compressor.compress(b"[")]
                spaces = b" " * (1 << 20)
                parts += [compressor.compress(spaces) for _ in range(megabytes)]
                parts += [compressor.compress(b"]"), compressor.flush()]
                self.bombs[megabytes] = b"".join(parts)
            return self.bombs[megabytes]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    state = State()
    server = Server(("127.0.0.1", args.port), state)
    port = server.server_address[1]
    # The same server on 127.0.0.2: another origin, for redirects and links that leave the site.
    other = Server(("127.0.0.2", port), state)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    print(f"Listening on http://127.0.0.1:{port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
