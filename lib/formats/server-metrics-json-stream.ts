/**
 * Reads aiperf's `server_metrics_export.json` as it streams, never holding the document: the
 * tokenizer's events are followed down `metrics` → family → `series` → `timeslices`, each
 * timeslice's six fields go straight into its series' columns, and only the small values
 * (`summary`, `type`, `endpoint_url`, `labels`, `stats`) are built as values. A 30-minute run of
 * 16 endpoints is a few hundred MB of JSON; what stays is the columns the charts need. The rules
 * that turn what was read into a MetricSet are server-metrics-json.ts's `assembleMetricSet`,
 * shared with the parser of a whole document.
 */
import type { Readable } from "node:stream";
import { ValueBuilder } from "./json-object-stream";
import { JsonSyntaxError, JsonTokenizer, type JsonTokenHandler } from "./json-tokens";
import type { WarningLog } from "./json-lines";
import {
  assembleMetricSet,
  SLICE_FIELDS,
  SliceColumns,
  toNumber,
  toType,
  type RawMetric,
  type RawSeries,
} from "./server-metrics-json";
import type { MetricSet } from "./server-metrics/types";

// What a value (or the container it opens) is to the reader.
const SKIP = 0;
const ROOT = 1;
const DOC = 2;
const METRICS = 3;
const METRIC = 4;
const SERIES_LIST = 5;
const SERIES = 6;
const SLICES = 7;
const SLICE = 8;
const FIELD = 9;
const BUILD = 10;

/** Each timeslice field's column: a Map, since every timeslice asks once per member. */
const SLICE_FIELD_INDEX = new Map<string, number>(SLICE_FIELDS.map((f, i) => [f, i]));

// Where a built value goes.
type Target = "summary" | "type" | "endpointUrl" | "labels" | "stats";

class ServerMetricsReader implements JsonTokenHandler {
  /** The role of each open container, innermost last. */
  private readonly roles: number[] = [];
  /** The role of the next value (set by the member name before it). */
  private next = ROOT;
  private target: Target = "summary";
  private readonly builder = new ValueBuilder();

  private docIsObject = false;
  /** Family → what was read, in an object so that its order and repeated names follow JSON.parse. */
  private metrics: Record<string, RawMetric | null> | null = null;
  private summary: unknown = undefined;
  private metricName = "";
  private metric: RawMetric = { type: undefined, series: null };
  private series: RawSeries = {
    endpointUrl: undefined,
    labels: undefined,
    stats: undefined,
    slices: undefined,
  };
  private readonly row = new Float64Array(SLICE_FIELDS.length);
  private field = -1;

  result(warnings: WarningLog): MetricSet {
    const metrics = this.docIsObject && this.metrics ? Object.entries(this.metrics) : null;
    return assembleMetricSet(metrics, this.summary, warnings);
  }

  /** The role of the value that starts now. */
  private role(): number {
    const top = this.roles.length === 0 ? ROOT : this.roles[this.roles.length - 1];
    switch (top) {
      case SERIES_LIST:
        return SERIES;
      case SLICES:
        return SLICE;
      case BUILD:
        return BUILD;
      case SKIP:
        return SKIP;
      default:
        return this.next;
    }
  }

  wantsKey(): boolean {
    return this.roles[this.roles.length - 1] !== SKIP;
  }

  wantsValue(): boolean {
    return this.role() !== SKIP;
  }

  key(name: string): void {
    switch (this.roles[this.roles.length - 1]) {
      case SLICE:
        this.field = SLICE_FIELD_INDEX.get(name) ?? -1;
        this.next = this.field === -1 ? SKIP : FIELD;
        return;
      case BUILD:
        this.builder.key(name);
        return;
      case DOC:
        if (name === "metrics") this.next = METRICS;
        else if (name === "summary") this.build("summary");
        else this.next = SKIP;
        return;
      case METRICS:
        this.metricName = name;
        this.next = METRIC;
        return;
      case METRIC:
        if (name === "type") this.build("type");
        else if (name === "series") {
          this.next = SERIES_LIST;
          this.metric.series = null;
        } else this.next = SKIP;
        return;
      case SERIES:
        if (name === "timeslices") {
          this.next = SLICES;
          this.series.slices = undefined;
        } else if (name === "endpoint_url") this.build("endpointUrl");
        else if (name === "labels") this.build("labels");
        else if (name === "stats") this.build("stats");
        else this.next = SKIP;
        return;
      default:
        this.next = SKIP;
    }
  }

  private build(target: Target): void {
    this.target = target;
    this.next = BUILD;
  }

  beginObject(): void {
    const role = this.role();
    switch (role) {
      case ROOT:
        this.docIsObject = true;
        this.roles.push(DOC);
        return;
      case METRICS:
        this.metrics = Object.create(null) as Record<string, RawMetric | null>;
        this.roles.push(METRICS);
        return;
      case METRIC:
        this.metric = { type: undefined, series: null };
        this.roles.push(METRIC);
        return;
      case SERIES:
        this.series = { endpointUrl: undefined, labels: undefined, stats: undefined, slices: undefined };
        this.roles.push(SERIES);
        return;
      case SLICE:
        this.row.fill(NaN);
        this.roles.push(SLICE);
        return;
      case BUILD:
        this.builder.begin({});
        this.roles.push(BUILD);
        return;
      default:
        this.notWanted(role);
    }
  }

  beginArray(): void {
    const role = this.role();
    switch (role) {
      case SERIES_LIST:
        this.metric.series = [];
        this.roles.push(SERIES_LIST);
        return;
      case SLICES:
        this.series.slices = new SliceColumns();
        this.roles.push(SLICES);
        return;
      case BUILD:
        this.builder.begin([]);
        this.roles.push(BUILD);
        return;
      default:
        this.notWanted(role);
    }
  }

  /** A value of the wrong kind where a known one belongs (or one not read): its subtree is skipped. */
  private notWanted(role: number): void {
    this.valueOfWrongKind(role);
    this.roles.push(SKIP);
  }

  private valueOfWrongKind(role: number): void {
    if (role === METRICS) this.metrics = null;
    else if (role === METRIC && this.metrics) this.metrics[this.metricName] = null;
    else if (role === FIELD) this.row[this.field] = NaN;
    // SERIES_LIST, SLICES: already reset by the member name; a bad series or timeslice is left out.
  }

  endObject(): void {
    this.end();
  }

  endArray(): void {
    this.end();
  }

  private end(): void {
    switch (this.roles.pop()) {
      case METRIC: {
        // The family is complete, so its type is final: its series' intervals are built now.
        const type = toType(this.metric.type, this.metricName);
        for (const s of this.metric.series ?? []) s.slices?.freeze(type);
        if (this.metrics) this.metrics[this.metricName] = this.metric;
        return;
      }
      case SERIES:
        this.metric.series?.push(this.series);
        return;
      case SLICE:
        this.series.slices?.push(this.row);
        return;
      case BUILD: {
        const done = this.builder.end();
        if (!this.builder.open) this.deliver(done);
        return;
      }
    }
  }

  scalar(value: string | number | boolean | null): void {
    const role = this.role();
    if (role === FIELD) this.row[this.field] = toNumber(value) ?? NaN;
    else if (role === BUILD) {
      if (!this.builder.open) this.deliver(value);
      else this.builder.add(value);
    } else this.valueOfWrongKind(role);
  }

  private deliver(value: unknown): void {
    if (this.target === "summary") this.summary = value;
    else if (this.target === "type") this.metric.type = value;
    else this.series[this.target] = value;
  }
}

/**
 * The MetricSet of a streamed export, or null when it is not valid JSON or is cut off (a warning
 * names the byte where it broke; nothing of the file is kept). Any size: no document limit applies.
 */
export async function readServerMetricsJson(
  stream: Readable,
  warnings: WarningLog,
): Promise<MetricSet | null> {
  const reader = new ServerMetricsReader();
  const tokenizer = new JsonTokenizer(reader);
  let failure: JsonSyntaxError | null = null;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    // After an error the rest is drained, not parsed: the stream is shared with the blob store.
    if (failure) continue;
    try {
      tokenizer.write(chunk);
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      failure = err;
    }
  }
  if (!failure)
    try {
      tokenizer.end();
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      failure = err;
    }
  if (failure) {
    warnings.add(
      failure.truncated
        ? `the server-metrics JSON is cut off: the document stops after ${failure.offset.toLocaleString("en-US")} bytes, unfinished; none of its metrics were kept (part of an export counts only some endpoints and intervals); the file is stored as sent: upload the complete export`
        : `the server-metrics JSON is not valid JSON: ${failure.message}; nothing of it was read`,
    );
    return null;
  }
  return reader.result(warnings);
}
