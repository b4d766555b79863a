"""API token authentication: django-rest-knox's, answering a token that is not even text with 401."""

from __future__ import annotations

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions


class TokenAuthentication(KnoxTokenAuthentication):
    def authenticate_credentials(self, token: bytes):
        # knox decodes the header's bytes as UTF-8 and lets the error through (a 500); DRF's own
        # token class answers such a header with 401, and so do we.
        try:
            token.decode("utf-8")
        except UnicodeError:
            raise exceptions.AuthenticationFailed("Invalid token header: it is not valid text.") from None
        return super().authenticate_credentials(token)


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI description of this class: knox's (`Authorization: Token <token>`)."""

    target_class = "config.auth.TokenAuthentication"
    name = "tokenAuth"
