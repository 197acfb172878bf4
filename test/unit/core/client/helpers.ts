import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { ApiClient, type ApiClientOptions } from '../../../../src/core/client/client';
import { DenError, type DenErrorCode } from '../../../../src/core/client/errors';
import type { LamRunRequest } from '../../../../src/core/client/types';
import type { Logger } from '../../../../src/core/shared/log';
import { startEmulator, type Emulator } from '../../../emulator';

/** A dispatcher that records every request it sends (method and path), for counting attempts. */
export interface CountingDispatcher {
  dispatcher: Dispatcher;
  requests: { method: string; path: string; headers: Record<string, string>; body?: string }[];
  /** Requests whose path (without query) matches. */
  count(method: string, path: RegExp): number;
  close(): Promise<void>;
}

export function countingDispatcher(): CountingDispatcher {
  const agent = new Agent();
  const requests: CountingDispatcher['requests'] = [];
  const dispatcher = agent.compose((dispatch) => (opts, handler) => {
    requests.push({
      method: String(opts.method),
      path: String(opts.path),
      headers: { ...(opts.headers as Record<string, string>) },
      body: typeof opts.body === 'string' ? opts.body : undefined,
    });
    return dispatch(opts, handler);
  });
  return {
    dispatcher,
    requests,
    count: (method, path) =>
      requests.filter((r) => r.method === method && path.test(r.path.split('?')[0])).length,
    close: () => agent.close(),
  };
}

/** A Logger that keeps every line. */
export interface CapturingLogger extends Logger {
  lines: string[];
}

export function capturingLogger(): CapturingLogger {
  const lines: string[] = [];
  const push = (level: string) => (m: string) => {
    lines.push(`${level} ${m}`);
  };
  return { lines, debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** Fast retries, so retry tests take milliseconds. */
export const FAST_RETRY = { retries: 3, baseDelayMs: 1, maxDelayMs: 5 };

/** An ApiClient on the emulator with the primary key, fast retries, and a counting dispatcher. */
export function clientFor(
  emu: Emulator,
  over: Partial<ApiClientOptions> = {},
): { client: ApiClient; counter: CountingDispatcher; close(): Promise<void> } {
  const counter = countingDispatcher();
  const client = new ApiClient({
    baseUrl: emu.url,
    apiKey: () => emu.keys.primary,
    dispatcher: counter.dispatcher,
    retry: FAST_RETRY,
    timeoutMs: 5_000,
    ...over,
  });
  return {
    client,
    counter,
    close: async () => {
      await client.close();
      await counter.close();
    },
  };
}

export const newSessionId = (): string => randomUUID();

/** Asserts that `promise` rejects with a DenError of `code`, and returns it. */
export async function rejectsWith(promise: Promise<unknown>, code: DenErrorCode): Promise<DenError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof DenError, `expected a DenError, got ${String(err)}`);
    assert.equal(err.code, code, `code of: ${err.message}`);
    return err;
  }
  assert.fail(`expected a DenError ${code}, but the call succeeded`);
}

/** A task-run request against a shop, with a nested schema; `over` replaces any field. */
export function lamRequest(query: string, over: Partial<LamRunRequest> = {}): LamRunRequest {
  return {
    query,
    appUrl: 'https://shop.example.com',
    schema: { title: 'product title', price: 'price in USD', seller: { name: 'seller name' } },
    maxCount: 2,
    ...over,
  };
}

/** Every item of an async iterable (a task-run stream's states), in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}

/**
 * Inside a `describe`: one emulator for the block (no seed, no event delay), its faults cleared and
 * a fresh `clientFor` it before each test, closed after.
 */
export function useEmulatorClient(): { readonly emu: Emulator; readonly env: ReturnType<typeof clientFor> } {
  let emu: Emulator | undefined;
  let env: ReturnType<typeof clientFor> | undefined;
  before(async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 0 });
  });
  after(() => emu?.close());
  beforeEach(() => {
    emu!.faults = {};
    env = clientFor(emu!);
  });
  afterEach(() => env?.close());
  return {
    get emu() {
      return emu!;
    },
    get env() {
      return env!;
    },
  };
}
