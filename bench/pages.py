"""Page and API figures on a scratch SQLite database: time per request and queries per request.

Runs in-process with Django's test client (no network), so the figures are the app's own cost;
bench/load.py (issue 9) is the place for concurrent clients against gunicorn.
"""

from __future__ import annotations

import os
import random
import tempfile

from timing import measure, summary


def setup_django(var_dir: str) -> None:
    os.environ["DOSSIER_VAR_DIR"] = var_dir
    os.environ.setdefault("DEBUG", "1")
    os.environ["DATABASE_URL"] = f"sqlite:///{var_dir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="dossier-bench-") as var_dir:
        setup_django(var_dir)
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext, override_settings

        from campaigns import services
        from campaigns.models import Membership, Role

        with override_settings(
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"], ALLOWED_HOSTS=["*"]
        ):
            User = get_user_model()
            gm = User.objects.create_user("bench-gm", password="bench-password")
            player = User.objects.create_user("bench-player", password="bench-password")
            campaign = services.create_campaign(gm, name="Bench", system="timemaster")
            membership = Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
            rng = random.Random(7)
            for i in range(200):
                services.record_roll(membership, kind="d10", count=3, purpose=f"roll {i}", rng=rng)

            client = Client()
            client.force_login(player)
            pages = [
                ("page: campaign list", "get", "/campaigns/", None),
                ("page: campaign detail", "get", f"/campaigns/{campaign.pk}/", None),
                ("page: dice log (200 rolls)", "get", f"/campaigns/{campaign.pk}/dice/", None),
                ("api: campaign list", "get", "/api/v1/campaigns/", None),
                ("api: roll log, first page", "get", f"/api/v1/campaigns/{campaign.pk}/rolls/", None),
                (
                    "api: roll 3d10",
                    "post",
                    f"/api/v1/campaigns/{campaign.pk}/rolls/",
                    {"kind": "d10", "count": 3, "purpose": "bench"},
                ),
            ]
            for label, method, url, data in pages:

                def call(method=method, url=url, data=data):
                    response = (
                        getattr(client, method)(url, data=data, content_type="application/json")
                        if data
                        else getattr(client, method)(url)
                    )
                    assert response.status_code < 400, (url, response.status_code)
                    return response

                with CaptureQueriesContext(connection) as queries:
                    call()
                print(summary(f"{label} [{len(queries)} queries]", measure(call, repeat=100)))
