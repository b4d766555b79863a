"""A print's system record as a generic relation (issue 29: the platform names no system's model):
the columns and their index; 0007 moves each mission run's print onto them, 0008 drops ``run``."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("sheets", "0005_kind_choices_from_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="sheetrender",
            name="record_type",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="contenttypes.contenttype",
            ),
        ),
        migrations.AddField(
            model_name="sheetrender",
            name="record_id",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="sheetrender",
            index=models.Index(fields=["record_type", "record_id"], name="sheet_render_record"),
        ),
    ]
