"""The request log and the test-control endpoints (never logged themselves), as the Rails app has:
GET/DELETE /_requests, POST /_reset, and POST /_oauth?expires_in=N for the access tokens' lifetime."""

import json
import threading

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, JsonResponse

from crm import seeds, token_lifetime

LOG = settings.STATE_DIR / "requests.jsonl"
_lock = threading.Lock()


class RequestLog:
    """Django middleware: appends one JSON line per request but the `/_` ones:
    `{"method", "path" (with the query), "headers" (names lower-cased), "body", "status"}`."""

    def __init__(self, get_response):
        self.get_response = get_response
        with _lock:
            LOG.write_text("")

    def __call__(self, request):
        if request.path.startswith("/_"):
            return self.get_response(request)
        body = request.body.decode("utf-8", "replace")
        response = self.get_response(request)
        entry = {
            "method": request.method,
            "path": request.get_full_path(),
            "headers": {name.lower(): value for name, value in request.headers.items()},
            "body": body,
            "status": response.status_code,
        }
        with _lock, LOG.open("a") as log:
            log.write(json.dumps(entry) + "\n")
        return response


def entries():
    with _lock:
        lines = LOG.read_text().splitlines()
    return [json.loads(line) for line in lines if line]


def clear():
    with _lock:
        LOG.write_text("")


def requests(request):
    if request.method == "DELETE":
        clear()
        return HttpResponse(status=204)
    return JsonResponse(entries(), safe=False)


def reset(request):
    """Reloads the seed (and the OAuth2 client), forgets the throttles' counts and the log."""
    if request.method != "POST":
        return HttpResponse(status=405)
    seeds.reset()
    cache.clear()
    token_lifetime.seconds = token_lifetime.DEFAULT
    clear()
    return HttpResponse(status=204)


def oauth(request):
    """Sets the lifetime of the access tokens issued from now on (`expires_in` seconds)."""
    if request.method != "POST":
        return HttpResponse(status=405)
    try:
        seconds = int(request.GET["expires_in"])
    except (KeyError, ValueError):
        return JsonResponse({"error": "expires_in must be a whole number of seconds"}, status=400)
    token_lifetime.seconds = seconds
    return HttpResponse(status=204)
