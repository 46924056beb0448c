import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

/**
 * What drizzle needs of a D1 binding: `prepare` and `batch`. A `D1DatabaseSession` (Sessions API,
 * read replicas) has both, so the request's session is handed to drizzle in place of the binding.
 */
export type D1Like = D1Database | D1DatabaseSession;

export function createDb(d1: D1Like) {
  // drizzle-orm's D1 driver only calls prepare() and batch(); its type asks for the whole binding.
  return drizzle(d1 as D1Database, { schema });
}
/** The drizzle database handed to services. One per request (app.ts), or per cron run. */
export type Db = ReturnType<typeof createDb>;

/** D1's own cost counters (`meta.rows_read` / `meta.rows_written`), summed over one request. */
export interface D1Stats {
  /** Statements sent (each statement of a batch counts). */
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  /** Statements whose meta could not be read (should stay 0; a test asserts it). */
  unmeasured: number;
  /** When present, every statement's SQL and counts are appended (tests and diagnostics). */
  log?: Array<{ sql: string; rowsRead: number; rowsWritten: number }>;
}

export function newD1Stats(): D1Stats {
  return { statements: 0, rowsRead: 0, rowsWritten: 0, unmeasured: 0 };
}

type Meta = { rows_read?: unknown; rows_written?: unknown } | undefined;
type UpstreamResult = { meta?: Meta; results?: unknown };

function add(stats: D1Stats, meta: Meta, sql: string) {
  stats.statements++;
  const read = Number(meta?.rows_read);
  const written = Number(meta?.rows_written);
  if (!Number.isFinite(read) || !Number.isFinite(written)) {
    stats.unmeasured++;
    stats.log?.push({ sql, rowsRead: NaN, rowsWritten: NaN });
    return;
  }
  stats.rowsRead += read;
  stats.rowsWritten += written;
  stats.log?.push({ sql, rowsRead: read, rowsWritten: written });
}

function sqlOf(stmt: D1PreparedStatement): string {
  const text = (stmt as unknown as { statement?: unknown }).statement;
  return typeof text === 'string' ? text : '?';
}

/** Does nothing on an error path (the workerd internals we call take an OpenTelemetry-like span). */
const NO_SPAN = { setAttribute() {}, setAttributes() {}, end() {} };

/**
 * `raw()` and `first()` resolve to rows only: the binding drops `meta` (workerd d1-api). drizzle runs
 * almost every query through `raw()`, so for those the counting wrapper sends the statement through
 * the binding's own transport (`_sendOrThrow`, the very call `raw()` makes, same format) to keep the
 * meta. That is workerd-internal: if it is missing, the statement runs normally and is counted as
 * unmeasured, which the rows-read test refuses. Only used while stats are on (never by default in
 * production).
 */
async function sendKeepingMeta(stmt: D1PreparedStatement): Promise<UpstreamResult | null> {
  const inner = stmt as unknown as { dbSession?: { _sendOrThrow?: unknown }; statement?: unknown; params?: unknown };
  const session = inner.dbSession;
  if (!session || typeof session._sendOrThrow !== 'function' || typeof inner.statement !== 'string' || !Array.isArray(inner.params)) return null;
  const send = session._sendOrThrow as (
    endpoint: string,
    sql: string,
    params: unknown[],
    format: string,
    span: unknown,
  ) => Promise<UpstreamResult | UpstreamResult[]>;
  const out = await send.call(session, '/query', inner.statement, inner.params, 'ROWS_AND_COLUMNS', NO_SPAN);
  const first = Array.isArray(out) ? out[0] : out;
  return first ?? null;
}

function rowsOf(result: UpstreamResult): { columns: string[]; rows: unknown[][] } {
  const r = result.results;
  if (!r) return { columns: [], rows: [] };
  if (Array.isArray(r)) {
    // Older wire format (array of objects).
    const objs = r as Array<Record<string, unknown>>;
    return { columns: objs[0] ? Object.keys(objs[0]) : [], rows: objs.map((o) => Object.values(o)) };
  }
  return r as { columns: string[]; rows: unknown[][] };
}

/**
 * Wraps a D1 binding or session so every statement's `meta.rows_read` / `meta.rows_written` is added
 * to `stats`: `all()`, `run()` and `batch()` return meta; `raw()` and `first()` go through
 * `sendKeepingMeta`. Statements run exactly once; results are what the binding would return.
 */
export function countingD1(real: D1Like, stats: D1Stats): D1Like {
  const inner = new WeakMap<object, D1PreparedStatement>();
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        switch (prop) {
          case 'bind':
            return (...values: unknown[]) => wrap(target.bind(...values));
          case 'all':
          case 'run':
            return async () => {
              const res = await (target[prop] as () => Promise<D1Result>).call(target);
              add(stats, res.meta, sqlOf(target));
              return res;
            };
          case 'raw':
            return async (options?: { columnNames?: boolean }) => {
              const res = await sendKeepingMeta(target);
              if (!res) {
                add(stats, undefined, sqlOf(target));
                return target.raw(options as { columnNames: true });
              }
              add(stats, res.meta, sqlOf(target));
              const { columns, rows } = rowsOf(res);
              return options?.columnNames ? [columns, ...rows] : rows;
            };
          case 'first':
            return async (colName?: string) => {
              const res = await sendKeepingMeta(target);
              if (!res) {
                add(stats, undefined, sqlOf(target));
                return colName === undefined ? target.first() : target.first(colName);
              }
              add(stats, res.meta, sqlOf(target));
              const { columns, rows } = rowsOf(res);
              const row = rows[0];
              if (!row) return null;
              const obj = Object.fromEntries(row.map((cell, i) => [columns[i], cell])) as Record<string, unknown>;
              if (colName === undefined) return obj;
              if (obj[colName] === undefined) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${colName})`);
              return obj[colName];
            };
          default: {
            const value = Reflect.get(target, prop, target) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          }
        }
      },
    });
    inner.set(proxy, stmt);
    return proxy;
  };
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query));
      if (prop === 'batch') {
        return async (stmts: D1PreparedStatement[]) => {
          const plain = stmts.map((s) => inner.get(s) ?? s);
          const results = await target.batch(plain);
          results.forEach((r, i) => {
            add(stats, r.meta, sqlOf(plain[i]!));
          });
          return results;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
