import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

export function coreMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("runs")
        .addColumn("id", t.text, (c) => c.primaryKey())
        .addColumn("name", t.text, (c) => c.notNull())
        .addColumn("created_at", t.bigint, (c) => c.notNull())
        .addColumn("updated_at", t.bigint, (c) => c.notNull())
        .addColumn("status", t.text, (c) => c.notNull())
        .addColumn("aggregator_version", t.int, (c) => c.notNull())
        .addColumn("labels", t.text, (c) => c.notNull())
        .addColumn("kinds", t.text, (c) => c.notNull())
        .addColumn("backend", t.text)
        .addColumn("request_count", t.bigint)
        .addColumn("summary", t.text)
        .addColumn("warnings", t.text, (c) => c.notNull())
        .addColumn("error", t.text)
        .execute();
      await db.schema.createIndex("runs_created").on("runs").columns(["created_at", "id"]).execute();

      await db.schema
        .createTable("run_labels")
        .addColumn("run_id", t.text, (c) => c.notNull())
        .addColumn("label", t.text, (c) => c.notNull())
        .addPrimaryKeyConstraint("run_labels_pk", ["run_id", "label"])
        .execute();
      await db.schema.createIndex("run_labels_label").on("run_labels").columns(["label"]).execute();

      await db.schema
        .createTable("files")
        .addColumn("id", t.text, (c) => c.primaryKey())
        .addColumn("run_id", t.text, (c) => c.notNull())
        .addColumn("ord", t.int, (c) => c.notNull())
        .addColumn("name", t.text, (c) => c.notNull())
        .addColumn("kind", t.text, (c) => c.notNull())
        .addColumn("format", t.text, (c) => c.notNull())
        .addColumn("bytes", t.bigint, (c) => c.notNull())
        .addColumn("sha256", t.text, (c) => c.notNull())
        .addColumn("records", t.bigint, (c) => c.notNull())
        .addColumn("skipped", t.bigint, (c) => c.notNull())
        .addColumn("warnings", t.text, (c) => c.notNull())
        .addColumn("meta", t.text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("files_run").on("files").columns(["run_id", "ord"]).execute();
      await db.schema.createIndex("files_sha").on("files").columns(["sha256"]).execute();

      await db.schema
        .createTable("chart_data")
        .addColumn("run_id", t.text, (c) => c.notNull())
        .addColumn("key", t.text, (c) => c.notNull())
        .addColumn("data", t.text, (c) => c.notNull())
        .addPrimaryKeyConstraint("chart_data_pk", ["run_id", "key"])
        .execute();

      await db.schema
        .createTable("blob_chunks")
        .addColumn("blob_key", t.text, (c) => c.notNull())
        .addColumn("seq", t.int, (c) => c.notNull())
        .addColumn("data", t.bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint("blob_chunks_pk", ["blob_key", "seq"])
        .execute();

      await db.schema
        .createTable("meta")
        .addColumn("key", t.text, (c) => c.primaryKey())
        .addColumn("value", t.text, (c) => c.notNull())
        .execute();
    },
  };
}
