"""A print's system record becomes a generic relation (issue 29: the platform names no system's
model). Every render of a mission run keeps its run as ``record``; the run's title and the word its
revision counts, which the pages used to read off the run, are written into the render's snapshot
where a render made before the plans carried them lacks them. Reversible: back to ``run``.

Schema changes are in the migrations either side: on PostgreSQL a table with rows just updated
under a deferred foreign key cannot be altered in the same transaction."""

from django.db import migrations, models

RUN = ("ttk_missions", "missionrun")


def run_to_record(apps, schema_editor):
    SheetRender = apps.get_model("sheets", "SheetRender")
    ContentType = apps.get_model("contenttypes", "ContentType")
    renders = SheetRender.objects.filter(run__isnull=False).select_related("run")
    if not renders.exists():
        return
    run_type, _ = ContentType.objects.get_or_create(app_label=RUN[0], model=RUN[1])
    for render in renders.iterator(chunk_size=500):
        snapshot = dict(render.snapshot or {})
        snapshot.setdefault("stamp_label", "after event")
        snapshot.setdefault("target_title", render.run.title)
        SheetRender.objects.filter(pk=render.pk).update(
            record_type=run_type, record_id=render.run_id, snapshot=snapshot
        )


def record_to_run(apps, schema_editor):
    SheetRender = apps.get_model("sheets", "SheetRender")
    MissionRun = apps.get_model(*RUN)
    SheetRender.objects.filter(
        record_type__app_label=RUN[0],
        record_type__model=RUN[1],
        record_id__in=MissionRun.objects.values("pk"),
    ).update(run_id=models.F("record_id"))


class Migration(migrations.Migration):
    dependencies = [("sheets", "0006_render_record")]

    operations = [migrations.RunPython(run_to_record, record_to_run)]
