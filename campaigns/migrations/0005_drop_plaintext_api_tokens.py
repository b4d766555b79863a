"""API tokens moved to django-rest-knox (hashed, expiring): drop DRF's plaintext token table.

Deployed databases may hold rest_framework.authtoken keys, stored in plain text and never expiring.
They are not carried over: a key that never expired may already have leaked, and a client gets a new
token with the same request as before (POST /api/v1/auth/token/). Dropping the table removes the
plaintext keys from the database. A fresh database never had the table; IF EXISTS covers both.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0004_mission_tally"),
        ("knox", "0009_extend_authtoken_field"),
    ]

    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS authtoken_token", reverse_sql=migrations.RunSQL.noop),
    ]
