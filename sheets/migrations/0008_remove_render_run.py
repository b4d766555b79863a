"""The mission run relation's work is done by ``record`` now (0007 copied it)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("sheets", "0007_render_record_from_run")]

    operations = [migrations.RemoveField(model_name="sheetrender", name="run")]
