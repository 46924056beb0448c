/**
 * The browser's one way to call the Worker: JSON in and out, cookies included, our error envelope
 * turned into ApiError with the Swedish message. Types come from the shared zod contracts.
 */
export interface ApiIssue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: ApiIssue[],
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  let res: Response;
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  // Every write is JSON, also without fields: JSON routes answer 415 for any other content type.
  const body = init.body !== undefined ? init.body : method === 'GET' ? undefined : {};
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'Nätverksfel - kontrollera din internetanslutning');
  }
  const text = await res.text();
  const data = text ? safeJson(text) : null;
  if (!res.ok) {
    const e = (data as { error?: { code?: string; message?: string; issues?: ApiIssue[]; details?: Record<string, unknown> } } | null)?.error;
    throw new ApiError(res.status, e?.code ?? 'http_error', e?.message ?? 'Ett oväntat fel inträffade', e?.issues, e?.details);
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
