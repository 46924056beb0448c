/**
 * A D1 binding that fails at statement k (1-based, counted over every statement sent in db.batch
 * calls): the batch holding statement k throws before it reaches D1 — exactly what a crash, a lost
 * connection or a D1 error at that point does to an atomic batch — and every later call goes through.
 * Single statements (reads, one-statement writes) pass and are not counted.
 */
import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../../../worker/db/schema';
import type { Db } from '../../../worker/db/client';

export interface FaultyD1 {
  d1: D1Database;
  db: Db;
  /** Statements seen in batches so far. */
  readonly seen: number;
  /** True once the fault was thrown. */
  readonly fired: boolean;
}

export class InjectedFault extends Error {
  constructor(k: number) {
    super(`injected D1 fault at batch statement ${k}`);
  }
}

export function faultyD1(real: D1Database, failAt: number): FaultyD1 {
  let seen = 0;
  let fired = false;
  const d1 = new Proxy(real, {
    get(target, prop) {
      if (prop === 'batch') {
        return async (stmts: D1PreparedStatement[]) => {
          const from = seen + 1;
          seen += stmts.length;
          if (!fired && failAt >= from && failAt <= seen) {
            fired = true;
            throw new InjectedFault(failAt);
          }
          return target.batch(stmts);
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return {
    d1,
    db: drizzle(d1, { schema }),
    get seen() {
      return seen;
    },
    get fired() {
      return fired;
    },
  };
}
