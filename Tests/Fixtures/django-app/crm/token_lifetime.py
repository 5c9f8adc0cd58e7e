"""The lifetime of the access tokens issued from now on: DJANGO_TOKEN_SECONDS (default 30) until
`POST /_oauth?expires_in=N` changes it, `POST /_reset` restores it. oauthlib asks `expires_in`
for each token (OAUTH2_PROVIDER's EXTRA_SERVER_KWARGS)."""

import os

DEFAULT = int(os.environ.get("DJANGO_TOKEN_SECONDS", "30"))
seconds = DEFAULT


def expires_in(request):
    return seconds
