import { app } from '../../../worker/app';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** "METHOD /path" of every handler the app registers (middleware entries have method ALL). */
export function registeredRoutes(): string[] {
  const out = new Set<string>();
  for (const r of app.routes) if (METHODS.has(r.method)) out.add(`${r.method} ${r.path}`);
  return [...out].sort();
}
