"""The search index's storage (issue 50, part 5): which text of which record is indexed, the
database triggers that keep ``SearchEntry`` in step with the records, and the full-text match on
each engine (SQLite's FTS5, PostgreSQL's text search), chosen from the database vendor.

Why triggers: records are written by many paths (forms, the API, services, ``bulk_create`` in
the archive import and the D6 engine's rolls, cascades when a campaign goes), and a trigger sees
every one of them, so the index cannot drift from the rows. A trigger fires only when one of the
indexed columns changes (``UPDATE OF``): a character's advancement bumps its revision, not its
name, and leaves the index alone.

What is indexed is text a reader of that audience already reads on the record's page, nothing
else: no NPC statistics, no roll results, no mission significance or outcome. Whether a reader
may see the record at all is decided when searching, by the record's own visibility queryset
(campaigns/chronicle/search.py), never by these rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection as default_connection

ENTRY_TABLE = "campaigns_searchentry"
FTS_TABLE = "campaigns_searchentry_fts"
#: PostgreSQL's text search configuration: 'simple' (no stemming, no stop words), so that a
#: game's names and terms are found as typed, as FTS5's unicode61 tokenizer finds them.
PG_CONFIG = "simple"
GIN_INDEX = "search_entry_document"

#: Everyone who may see the record / only the game master.
TABLE, GM = "table", "gm"


@dataclass(frozen=True)
class Source:
    """One kind of record: its table, the SQL of its campaign and of its text per audience (``{r}``
    is the row: NEW, OLD, or the table's alias when rebuilding), and the columns those read."""

    kind: str
    table: str
    campaign: str
    texts: tuple[tuple[str, str], ...]
    columns: tuple[str, ...]


def _joined(*columns: str) -> str:
    return " || ' ' || ".join(f"COALESCE({{r}}.{column}, '')" for column in columns)


SOURCES = (
    Source(
        "note", "campaigns_note", "{r}.campaign_id", ((TABLE, _joined("title", "body")),), ("title", "body")
    ),
    Source(
        "play_session",
        "campaigns_playsession",
        "{r}.campaign_id",
        ((TABLE, "'Session ' || {r}.number || ' ' || COALESCE({r}.title, '')"),),
        ("number", "title"),
    ),
    Source(
        "mission",
        "campaigns_mission",
        "{r}.campaign_id",
        ((TABLE, _joined("title", "briefing", "place")),),
        ("title", "briefing", "place"),
    ),
    Source(
        "tally",
        "campaigns_significanceentry",
        "(SELECT m.campaign_id FROM campaigns_mission m WHERE m.id = {r}.mission_id)",
        ((TABLE, _joined("description")),),
        ("description",),
    ),
    Source(
        "npc",
        "campaigns_npc",
        "{r}.campaign_id",
        ((TABLE, _joined("name", "public_description")), (GM, _joined("gm_notes"))),
        ("name", "public_description", "gm_notes"),
    ),
    Source("character", "characters_character", "{r}.campaign_id", ((TABLE, _joined("name")),), ("name",)),
    # a roll's purpose (not its dice kind: every roll of a kind holds it, a word finding thousands)
    Source("roll", "campaigns_roll", "{r}.campaign_id", ((TABLE, _joined("purpose")),), ("purpose",)),
)
KINDS = tuple(source.kind for source in SOURCES)


def _insert(source: Source, row: str, from_clause: str = "") -> list[str]:
    """The statements indexing ``row``'s texts (an empty text is not indexed); ``from_clause``
    names the table when ``row`` is its alias (a rebuild)."""
    statements = []
    for audience, text in source.texts:
        text_sql = text.format(r=row)
        statements.append(
            f"INSERT INTO {ENTRY_TABLE} (campaign_id, kind, object_id, audience, text) "
            f"SELECT {source.campaign.format(r=row)}, '{source.kind}', {row}.id, '{audience}', {text_sql} "
            f"{from_clause}WHERE {text_sql} <> ''"
        )
    return statements


def _delete(source: Source, row: str) -> str:
    return f"DELETE FROM {ENTRY_TABLE} WHERE kind = '{source.kind}' AND object_id = {row}.id"


def _changed(source: Source, differs: str) -> str:
    """SQL true when an indexed column's value changed (a save writes every column: only a
    change re-indexes)."""
    return " OR ".join(f"OLD.{column} {differs} NEW.{column}" for column in source.columns)


def _tag(row: str) -> str:
    """SQL of an entry's tag: one token naming its campaign, kind and audience ("c12knoteatable"),
    so that FTS5 narrows a match to one campaign's kind inside the index itself."""
    return f"'c' || {row}.campaign_id || 'k' || replace({row}.kind, '_', '') || 'a' || {row}.audience"


def tag_of(campaign_id: int, kind: str, audience: str) -> str:
    return f"c{campaign_id}k{kind.replace('_', '')}a{audience}"


def sqlite_statements() -> list[str]:
    """An FTS5 table over the entries (its own copy of the text, the tag, and the record's id
    unindexed, so that a match names the records without reading the entries) kept by triggers on
    the entries, and each source's triggers."""
    out = [
        f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(text, tag, object_id UNINDEXED, "
        "tokenize='unicode61 remove_diacritics 2')",
        f"CREATE TRIGGER {FTS_TABLE}_insert AFTER INSERT ON {ENTRY_TABLE} BEGIN "
        f"INSERT INTO {FTS_TABLE}(rowid, text, tag, object_id) VALUES (NEW.id, NEW.text, {_tag('NEW')}, "
        "NEW.object_id); END",
        f"CREATE TRIGGER {FTS_TABLE}_delete AFTER DELETE ON {ENTRY_TABLE} BEGIN "
        f"DELETE FROM {FTS_TABLE} WHERE rowid = OLD.id; END",
        f"CREATE TRIGGER {FTS_TABLE}_update AFTER UPDATE ON {ENTRY_TABLE} BEGIN "
        f"DELETE FROM {FTS_TABLE} WHERE rowid = OLD.id; "
        f"INSERT INTO {FTS_TABLE}(rowid, text, tag, object_id) VALUES (NEW.id, NEW.text, {_tag('NEW')}, "
        "NEW.object_id); END",
    ]
    for source in SOURCES:
        name = f"search_{source.kind}"
        insert = "; ".join(_insert(source, "NEW"))
        out += [
            f"CREATE TRIGGER {name}_insert AFTER INSERT ON {source.table} BEGIN {insert}; END",
            f"CREATE TRIGGER {name}_update AFTER UPDATE OF {', '.join(source.columns)} ON {source.table} "
            f"WHEN {_changed(source, 'IS NOT')} BEGIN {_delete(source, 'OLD')}; {insert}; END",
            f"CREATE TRIGGER {name}_delete AFTER DELETE ON {source.table} "
            f"BEGIN {_delete(source, 'OLD')}; END",
        ]
    return out


def postgresql_statements() -> list[str]:
    """Each source's trigger function and trigger (the GIN index is added by the migration)."""
    out = []
    for source in SOURCES:
        name = f"search_{source.kind}"
        insert = "; ".join(_insert(source, "NEW"))
        out += [
            f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF TG_OP <> 'INSERT' THEN {_delete(source, 'OLD')}; END IF; "
            f"IF TG_OP <> 'DELETE' THEN {insert}; END IF; "
            "RETURN NULL; END $$",
            f"CREATE TRIGGER {name}_write AFTER INSERT OR DELETE ON {source.table} "
            f"FOR EACH ROW EXECUTE FUNCTION {name}()",
            f"CREATE TRIGGER {name}_update AFTER UPDATE OF {', '.join(source.columns)} ON {source.table} "
            f"FOR EACH ROW WHEN ({_changed(source, 'IS DISTINCT FROM')}) EXECUTE FUNCTION {name}()",
        ]
    return out


def gin_index():
    from django.contrib.postgres.indexes import GinIndex
    from django.contrib.postgres.search import SearchVector

    return GinIndex(SearchVector("text", config=PG_CONFIG), name=GIN_INDEX)


#: PostgreSQL: the entries' text vector, stored (migration 0022), and its GIN index. Computed
#: once when an entry is written instead of again for every row a query rechecks or a plan
#: tests: a word matching 5,000 rolls rechecked 5,531 texts (6 of the roll query's 25-30 ms), and a
#: database without statistics tested every note against every entry (650 ms; bench/search.py).
PG_VECTOR = "document"
PG_VECTOR_INDEX = "search_entry_vector"


def store_vectors(schema_editor) -> None:
    """PostgreSQL: a stored, generated text vector with its GIN index, in place of the expression
    index (migration 0022). Nothing on SQLite, whose FTS5 table holds its own."""
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"ALTER TABLE {ENTRY_TABLE} ADD COLUMN {PG_VECTOR} tsvector GENERATED ALWAYS AS "
            f"(to_tsvector('{PG_CONFIG}'::regconfig, COALESCE(text, ''))) STORED"
        )
        cursor.execute(f"CREATE INDEX {PG_VECTOR_INDEX} ON {ENTRY_TABLE} USING gin ({PG_VECTOR})")
        cursor.execute(f"DROP INDEX IF EXISTS {GIN_INDEX}")
        cursor.execute(f"ANALYZE {ENTRY_TABLE}")


def unstore_vectors(schema_editor) -> None:
    """The reverse of ``store_vectors``: the expression index again, the column gone."""
    if schema_editor.connection.vendor != "postgresql":
        return
    from campaigns.models import SearchEntry

    schema_editor.add_index(SearchEntry, gin_index())
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {PG_VECTOR_INDEX}")
        cursor.execute(f"ALTER TABLE {ENTRY_TABLE} DROP COLUMN IF EXISTS {PG_VECTOR}")


def install(schema_editor) -> None:
    """Create the engine's index and the triggers (migration 0020)."""
    from campaigns.models import SearchEntry

    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        statements = sqlite_statements()
    elif vendor == "postgresql":
        statements = postgresql_statements()
        schema_editor.add_index(SearchEntry, gin_index())
    else:  # pragma: no cover - the project runs on these two
        raise NotImplementedError(f"No search index for {vendor}.")
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def uninstall(schema_editor) -> None:
    """Drop what ``install`` made (the migration's reverse; the entries' table goes with it)."""
    vendor = schema_editor.connection.vendor
    with schema_editor.connection.cursor() as cursor:
        for source in SOURCES:
            name = f"search_{source.kind}"
            if vendor == "postgresql":
                for trigger in ("write", "update"):
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name}_{trigger} ON {source.table}")
                cursor.execute(f"DROP FUNCTION IF EXISTS {name}()")
            else:
                for event in ("insert", "update", "delete"):
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name}_{event}")
        if vendor == "sqlite":
            cursor.execute(f"DROP TABLE IF EXISTS {FTS_TABLE}")


def rebuild(connection=None) -> int:
    """Index every record again from its table (the migration; after a repair). Returns the number
    of entries."""
    connection = connection or default_connection
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {ENTRY_TABLE}")
        for source in SOURCES:
            for statement in _insert(source, "r", f"FROM {source.table} r "):
                cursor.execute(statement)
        cursor.execute(f"SELECT COUNT(*) FROM {ENTRY_TABLE}")
        return cursor.fetchone()[0]


def matching(campaign_id: int, kind: str, audiences: list[str], terms: list[str], prefix_last: bool):
    """The ids of the campaign's records of ``kind`` whose text for one of ``audiences`` holds every
    term (the last as a prefix when ``prefix_last``), on the engine in use: something a queryset's
    ``pk__in`` takes. Terms are letters and digits only (campaigns/chronicle/search.py parse); they are still
    quoted for each engine's query language."""
    from django.db.models.expressions import RawSQL

    from campaigns.models import SearchEntry

    last = len(terms) - 1
    if default_connection.vendor == "postgresql":
        from django.db.models import BooleanField

        quoted = [f"'{term}'" + (":*" if prefix_last and i == last else "") for i, term in enumerate(terms)]
        # the stored vector (store_vectors), matched by its GIN index; the column unqualified, as
        # Django gives the table another name in a subquery
        found = RawSQL(
            f'"{PG_VECTOR}" @@ to_tsquery(%s::regconfig, %s)',
            [PG_CONFIG, " & ".join(quoted)],
            output_field=BooleanField(),
        )
        entries = SearchEntry.objects.filter(campaign_id=campaign_id, kind=kind, audience__in=audiences)
        return entries.filter(found).values("object_id")
    tags = " OR ".join(f'"{tag_of(campaign_id, kind, audience)}"' for audience in audiences)
    words = " AND ".join(
        '"' + term.replace('"', '""') + '"' + ("*" if prefix_last and i == last else "")
        for i, term in enumerate(terms)
    )
    match = f"tag : ({tags}) AND text : ({words})"
    return RawSQL(f"SELECT object_id FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s", [match])
