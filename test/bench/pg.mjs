// A fresh PostgreSQL schema per benchmark run, dropped afterwards.
import pg from "pg";

export async function freshPgSchema(url) {
  const schema = `bench_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema ${schema}`);
  } finally {
    await client.end();
  }
  return schema;
}

export async function dropPgSchema(url, schema) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

export async function pgChartKeys(databaseUrl, runId) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const r = await client.query("select key from chart_data where run_id = $1 order by key", [runId]);
    return r.rows.map((row) => row.key);
  } finally {
    await client.end();
  }
}
