/** Asking the test's emulator directly, bypassing Den: what the service holds, to compare with what Den shows. */
import type { Emulator } from '../emulator';

/** A direct request to the emulator, bypassing Den. */
export async function emuFetch(
  emu: Emulator,
  path: string,
  init: RequestInit = {},
  key: string = emu.keys.primary,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emu.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Every session of the primary user on the emulator (deleted ones excluded). */
export async function serverSessions(
  emu: Emulator,
  search?: string,
): Promise<{ sessionId: string; title: string; isPinned: boolean }[]> {
  const out: { sessionId: string; title: string; isPinned: boolean; deleted: boolean }[] = [];
  for (let page = 1; page <= 200; page++) {
    const q = `page=${page}&limit=100${search ? `&search=${encodeURIComponent(search)}` : ''}`;
    const { body } = await emuFetch(emu, `/sessions?${q}`);
    out.push(...(body.sessions as typeof out));
    if (page >= Number((body.meta as { total_pages: number }).total_pages)) break;
  }
  return out.filter((s) => !s.deleted);
}
