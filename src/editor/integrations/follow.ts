import type * as vscode from 'vscode';
import type { DenExtensionApi, DenTurnRef, DenTurnSnapshot } from '../api/types';

const isOpen = (s: DenTurnSnapshot): boolean => s.status === 'queued' || s.status === 'running';

/** The turn ended, or waits for the person (what it asks is the answer for now). */
const endsHere = (s: DenTurnSnapshot): boolean => !isOpen(s) || s.needsInput !== undefined;

/**
 * Follows a turn until it ends or needs the person, calling `onSnapshot` on each change. Cancelling stops the turn and
 * waits for its end (or ends at once when nothing was running). `answered`: the person just answered
 * the turn's question, so it still shows until the turn receives the answer; only a later question
 * ends the following.
 */
export function followUntilEnd(
  api: DenExtensionApi,
  ref: DenTurnRef,
  token: vscode.CancellationToken,
  onSnapshot: (snap: DenTurnSnapshot) => void = () => undefined,
  answered = false,
): Promise<DenTurnSnapshot> {
  let asking = answered;
  const ended = (s: DenTurnSnapshot): boolean => {
    if (s.needsInput === undefined) asking = false;
    return endsHere(s) && !(asking && s.needsInput !== undefined && isOpen(s));
  };
  return new Promise((resolve) => {
    let latest: DenTurnSnapshot | undefined;
    // Set after followTurn returns: its first call can come before (the turn may have ended).
    const held: { sub?: vscode.Disposable } = {};
    const end = (snap: DenTurnSnapshot): void => {
      cancel.dispose();
      held.sub?.dispose();
      resolve(snap);
    };
    const cancel = token.onCancellationRequested(async () => {
      if (!(await api.stopTurn(ref.sessionId)) && latest && !ended(latest))
        end({ ...latest, status: 'aborted' });
    });
    held.sub = api.followTurn(ref, (snap) => {
      latest = snap;
      onSnapshot(snap);
      if (ended(snap)) end(snap);
    });
    if (latest && ended(latest)) held.sub.dispose();
  });
}
