"""sheets 0006-0008: a render's mission run becomes its generic ``record`` (issue 29: the platform
names no system's model). Forward, every run's print keeps its run and gains the title and the
stamp word the pages used to read off the run; backward, the run comes back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("sheets", "0005_kind_choices_from_registry")]
AFTER = [("sheets", "0008_remove_render_run")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_runs_print_keeps_its_run_through_the_migration_and_back(make_user):
    from campaigns import services
    from characters.models import Character
    from systems.time_to_kill.models import MissionRun

    gm = make_user("gm")
    campaign = services.create_campaign(gm, name="Night Work", system="time_to_kill")
    ninja = Character.objects.create(
        campaign=campaign, owner=gm, name="Kage", system="time_to_kill", build={}
    )
    run = MissionRun.objects.create(
        campaign=campaign, ninja=ninja, title="The Bell Tower", initial_state={}, state={}, event_count=4
    )
    try:
        old = migrate(BEFORE)
        Render = old.get_model("sheets", "SheetRender")
        common = {"campaign_id": campaign.pk, "template_version": "1", "queued_at": timezone.now()}
        printed = Render.objects.create(
            kind="fate_record", system="time_to_kill", run_id=run.pk, revision=4, content_key="r", **common
        )
        stamped = Render.objects.create(
            kind="fate_record",
            system="time_to_kill",
            run_id=run.pk,
            revision=4,
            content_key="s",
            snapshot={"stamp_label": "after event", "target_title": "Renamed since"},
            **common,
        )
        blank = Render.objects.create(kind="fate_record", system="time_to_kill", content_key="b", **common)

        new = migrate(AFTER)
        Render = new.get_model("sheets", "SheetRender")
        ContentType = new.get_model("contenttypes", "ContentType")
        run_type = ContentType.objects.get(app_label="ttk_missions", model="missionrun")
        moved = Render.objects.get(pk=printed.pk)
        assert (moved.record_type_id, moved.record_id) == (run_type.pk, run.pk)
        assert moved.snapshot == {"stamp_label": "after event", "target_title": "The Bell Tower"}
        assert Render.objects.get(pk=stamped.pk).snapshot["target_title"] == "Renamed since"
        untouched = Render.objects.get(pk=blank.pk)
        assert (untouched.record_type_id, untouched.record_id, untouched.snapshot) == (None, None, {})

        back = migrate(BEFORE)
        Render = back.get_model("sheets", "SheetRender")
        assert Render.objects.get(pk=printed.pk).run_id == run.pk
        assert Render.objects.get(pk=blank.pk).run_id is None
    finally:
        migrate(AFTER)
