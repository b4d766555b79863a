"""PostgreSQL: the search entries' text vector stored as a generated column with its own GIN index,
in place of the expression index (campaigns/chronicle/search_index.py: store_vectors says why).
Nothing changes on SQLite."""

from django.db import migrations


def store(apps, schema_editor):
    from campaigns.chronicle import search_index

    search_index.store_vectors(schema_editor)


def unstore(apps, schema_editor):
    from campaigns.chronicle import search_index

    search_index.unstore_vectors(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0021_campaign_time_zone_and_session_start"),
    ]

    operations = [migrations.RunPython(store, unstore)]
