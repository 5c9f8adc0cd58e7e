"""The fault server's serving core: HTTP/1.1 with keep-alive on asyncio streams (Python 3 stdlib only).

One event loop serves every connection, each a coroutine that reads a request, lets the
handler answer it and reads the next one on the same connection until either side closes.
No thread per connection and no lock: the handlers' shared state is touched by one thread.
"""

import asyncio
import email.utils
import json
import sys
import time
import traceback
from http import HTTPStatus

# The most a request line and its headers may take, as http.server allows (64 KiB, 100 headers).
HEAD_LIMIT = 65536
MAX_HEADERS = 100
METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}


class BadRequest(Exception):
    """A request that cannot be parsed; answered with `status` and the connection closed."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class Headers:
    """A request's headers in their order, looked up by name whatever its case (the first one wins)."""

    def __init__(self, pairs):
        self.pairs = pairs
        self.first = {}
        for name, value in pairs:
            self.first.setdefault(name.lower(), value)

    def get(self, name, default=None):
        return self.first.get(name.lower(), default)

    def items(self):
        return list(self.pairs)


def parse_head(head):
    """The method, target, version and headers of a request head (without its blank line)."""
    lines = head.decode("iso-8859-1").split("\r\n")
    words = lines[0].split()
    if len(words) != 3 or not words[2].startswith("HTTP/1."):
        raise BadRequest(HTTPStatus.BAD_REQUEST, f"Bad request line {lines[0]!r}")
    if len(lines) - 1 > MAX_HEADERS:
        raise BadRequest(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Too many headers")
    pairs = []
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip():
            raise BadRequest(HTTPStatus.BAD_REQUEST, f"Bad header line {line!r}")
        pairs.append((name, value.strip()))
    return words[0], words[1], words[2], Headers(pairs)


class HTTPDate:
    """The `Date` header's value, formatted once a second."""

    def __init__(self):
        self.second, self.text = None, ""

    def now(self):
        second = int(time.time())
        if second != self.second:
            self.second, self.text = second, email.utils.formatdate(second, usegmt=True)
        return self.text


class Exchange:
    """One request on a connection and its answer; subclasses answer it in `handle` (plain or `async`).

    `send` answers with a whole body; `send_head` and `write` stream one. Setting
    `close_connection` (or answering with `Connection: close`) ends the connection afterwards.
    """

    server_version = "rmap-fault-server/1 Python/%d.%d.%d" % sys.version_info[:3]
    date = HTTPDate()

    def __init__(self, server, connection, writer, method, target, version, headers, body):
        self.server = server
        self.connection = connection
        self.writer = writer
        self.command = method
        self.path = target
        self.request_version = version
        self.headers = headers
        self.body = body
        self.status = None
        self.close_connection = wants_close(version, headers)

    def handle(self):
        raise NotImplementedError

    def send_head(self, status, headers):
        """Writes the status line and `headers` (name-value pairs), then the blank line."""
        self.status = HTTPStatus(status)
        lines = [f"HTTP/1.1 {self.status.value} {self.status.phrase}", f"Server: {self.server_version}", f"Date: {self.date.now()}"]
        for name, value in headers:
            lines.append(f"{name}: {value}")
            if name.lower() == "connection" and value.lower() == "close":
                self.close_connection = True
        if self.close_connection and not any(name.lower() == "connection" for name, _ in headers):
            lines.append("Connection: close")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        self.log_request()

    def send(self, status, body=b"", headers=None, content_type="application/json; charset=utf-8"):
        """Answers with a whole body (JSON-encoded unless bytes); `HEAD` gets the head only."""
        if not isinstance(body, bytes):
            body = json.dumps(body).encode()
        pairs = list((headers or {}).items())
        if body:
            pairs.append(("Content-Type", content_type))
        pairs.append(("Content-Length", str(len(body))))
        self.send_head(status, pairs)
        if self.command != "HEAD":
            self.writer.write(body)

    async def write(self, data):
        """Writes part of a streamed body, waiting while the client reads; raises once it has gone."""
        if self.writer.is_closing():
            raise ConnectionResetError("the client closed the connection")
        self.writer.write(data)
        await self.writer.drain()

    def log_request(self):
        """Writes one line per answer to stderr; subclasses leave out what they need not log."""
        self.log_message('"%s %s %s" %d -', self.command, self.path, self.request_version, self.status.value)

    def log_message(self, format, *args):
        sys.stderr.write("%s %s\n" % (self.date.now(), format % args))


def wants_close(version, headers):
    token = (headers.get("Connection") or "").lower()
    return token == "close" or (version == "HTTP/1.0" and token != "keep-alive")


class Connection:
    """What one TCP connection carried, for handlers that count per connection."""

    def __init__(self, address):
        self.address = address
        self.prefixes = set()


class Server:
    """Serves `exchange` (an `Exchange` subclass) on one or more addresses with one event loop."""

    def __init__(self, exchange, state):
        self.exchange = exchange
        self.state = state

    async def listen(self, host, port):
        """Starts serving on `host:port` (port 0: one the kernel picks) and returns the bound port."""
        listener = await asyncio.start_server(self.serve, host, port, backlog=128, limit=HEAD_LIMIT)
        return listener.sockets[0].getsockname()[1]

    async def serve(self, reader, writer):
        connection = Connection(writer.get_extra_info("sockname"))
        try:
            while await self.serve_one(connection, reader, writer):
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except Exception:
            traceback.print_exc()
        finally:
            writer.close()

    async def serve_one(self, connection, reader, writer):
        """Reads and answers one request; whether the connection stays open for the next."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return False
        except asyncio.LimitOverrunError:
            self.refuse(writer, BadRequest(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Request head too large"))
            return False
        try:
            method, target, version, headers = parse_head(head[:-4])
            length = int(headers.get("Content-Length") or 0)
            if length < 0:
                raise ValueError(length)
        except BadRequest as refusal:
            self.refuse(writer, refusal)
            return False
        except ValueError:
            self.refuse(writer, BadRequest(HTTPStatus.BAD_REQUEST, "Bad Content-Length"))
            return False
        if method not in METHODS:
            self.refuse(writer, BadRequest(HTTPStatus.NOT_IMPLEMENTED, f"Unsupported method {method!r}"))
            return False
        if (headers.get("Expect") or "").lower() == "100-continue":
            writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        body = await reader.readexactly(length) if length > 0 else b""
        exchange = self.exchange(self, connection, writer, method, target, version, headers, body)
        answer = exchange.handle()
        if asyncio.iscoroutine(answer):
            await answer
        return not exchange.close_connection and not writer.is_closing()

    def refuse(self, writer, refusal):
        body = json.dumps({"error": str(refusal)}).encode()
        status = HTTPStatus(refusal.status)
        writer.write(f"HTTP/1.1 {status.value} {status.phrase}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
