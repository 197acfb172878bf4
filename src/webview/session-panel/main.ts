/**
 * The Session panel's webview: builds the page inside `#app`, applies what the host posts (checked,
 * in `seq` order) and renders it once per animation frame, posts the person's intents back, and
 * keeps draft, choices and scroll position with `setState`.
 */
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import { setL10nBundle } from '../../core/shared/l10n';
import {
  isHostMessage,
  type HostMessage,
  type SessionScroll,
  type WebviewDigest,
  type WebviewPersistedState,
} from '../../protocol/session-panel/messages';
import { Announcer } from '../shared/announcer';
import { ComposerView } from './composer';
import { h, installContentHandlers } from '../shared/dom';
import { installDropTarget } from './drop';
import { needsInputText, turnStatusText } from '../shared/format';
import { FeedbackBar } from './feedback-bar';
import { FindBar } from './find-bar';
import { FindFields } from './find-fields';
import { HeaderView, NoticeView } from './header';
import { OutlineView } from './outline-view';
import type { Post } from '../shared/post';
import { Store } from './state';
import { TranscriptView, type Anchor } from './transcript-view';
import { AnswerDrafts } from './render/answer-box';

function readPersisted(v: unknown): Partial<WebviewPersistedState> {
  if (typeof v !== 'object' || v === null) return {};
  const s = v as Record<string, unknown>;
  const out: Partial<WebviewPersistedState> = {};
  if (typeof s.sessionId === 'string') out.sessionId = s.sessionId;
  if (typeof s.draft === 'string') out.draft = s.draft;
  if (typeof s.mode === 'string') out.mode = s.mode as WebviewPersistedState['mode'];
  if (typeof s.effort === 'string') out.effort = s.effort as WebviewPersistedState['effort'];
  if (typeof s.scrollTop === 'number' && Number.isFinite(s.scrollTop)) out.scrollTop = s.scrollTop;
  const p = s.pendingSend as Record<string, unknown> | undefined;
  if (typeof p === 'object' && p !== null && typeof p.id === 'string' && typeof p.text === 'string')
    out.pendingSend = { id: p.id, text: p.text };
  if (s.preview === true) out.preview = true;
  if (Array.isArray(s.scrolls)) out.scrolls = s.scrolls.filter(isSessionScroll).slice(-MAX_SCROLLS);
  return out;
}

/** How many sessions' scroll positions a page keeps (the preview shows one after another). */
const MAX_SCROLLS = 20;

function isSessionScroll(v: unknown): v is SessionScroll {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  const a = s.anchor as Record<string, unknown> | undefined;
  return (
    typeof s.sessionId === 'string' &&
    (a === undefined ||
      (typeof a === 'object' && a !== null && typeof a.key === 'string' && Number.isFinite(a.delta)))
  );
}

/**
 * The scroll positions with `sessionId`'s put last (newest), at most MAX_SCROLLS; a session that
 * follows its end has none (going back lands at the end, as a first visit does).
 */
function withScroll(
  list: SessionScroll[] | undefined,
  sessionId: string,
  anchor: Anchor | undefined,
): SessionScroll[] | undefined {
  const rest = (list ?? []).filter((x) => x.sessionId !== sessionId);
  const all = anchor ? [...rest, { sessionId, anchor: { key: anchor.key, delta: anchor.delta } }] : rest;
  return all.length ? all.slice(-MAX_SCROLLS) : undefined;
}

function start(): void {
  const vscode = acquireVsCodeApi();
  // Every message says which session the page showed (the preview panel shows one after another):
  // the store's, set by each `init`.
  const post: Post = (m) => {
    const session = store.session?.sessionId;
    vscode.postMessage(session === undefined ? m : { ...m, session });
  };
  let persisted = readPersisted(vscode.getState());
  const persist = (patch: Partial<WebviewPersistedState>): void => {
    persisted = { ...persisted, ...patch };
    if ('scrollTop' in patch && patch.scrollTop === undefined) delete persisted.scrollTop;
    if ('pendingSend' in patch && patch.pendingSend === undefined) delete persisted.pendingSend;
    if ('preview' in patch && !patch.preview) delete persisted.preview;
    if ('scrolls' in patch && patch.scrolls === undefined) delete persisted.scrolls;
    vscode.setState({ sessionId: '', draft: '', ...persisted });
  };

  const store = new Store({ post });
  const ui = (): ((m: HostMessage) => void) => {
    const header = new HeaderView(post);
    const notice = new NoticeView(post);
    const feedback = new FeedbackBar(post);
    const announcer = new Announcer();
    const answers = new AnswerDrafts();
    const expanded = new Set<string>();
    const transcript = new TranscriptView({ store, post, expanded, answers });
    const fields = new FindFields(store);
    const find = new FindBar({
      store,
      transcript,
      fields,
      expanded,
      announce: (t) => announcer.status(t),
      post,
    });
    document.addEventListener('keydown', (e) => find.globalKey(e));
    const outline = new OutlineView({ store, transcript, announce: (t) => announcer.status(t) });
    /** keepOpen was posted for this session (the host's `panel` delta follows). */
    let keepAsked = false;
    const findDigest = (): Pick<WebviewDigest, 'find' | 'outline'> => {
      const f = find.digest();
      const o = outline.digest();
      return { ...(f ? { find: f } : {}), ...(o ? { outline: o } : {}) };
    };
    const composer = new ComposerView(
      {
        post: (m) => {
          // whoever sends wants to see the turn arrive, wherever they had scrolled to
          if (m.type === 'send') transcript.jumpToLatest();
          post(m);
        },
        persist,
        hasTurnWithText: (text) => store.turns.some((t) => t.header.userMessage.text.trim() === text.trim()),
        isNewSession: () => store.turns.length === 0,
        // An edit keeps the preview's session open, as typing in a preview editor pins it.
        edited: () => {
          if (store.preview && !keepAsked) {
            keepAsked = true;
            post({ type: 'keepOpen' });
          }
        },
      },
      persisted,
    );
    const app = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
    app.classList.add('den-panel');
    app.append(
      header.el,
      h('div', { class: 'transcript-wrap' }, [
        find.el,
        transcript.el,
        outline.toggle,
        outline.el,
        transcript.jump,
      ]),
      notice.el,
      feedback.el,
      composer.el,
      announcer.el,
    );
    installContentHandlers(transcript.el, post);
    installDropTarget(app, post);

    let scrollTimer: ReturnType<typeof setTimeout> | undefined;
    /** Saves where the transcript is, as the scroll position of the session it shows. */
    const saveScroll = (sessionId: string, top: number | undefined): void => {
      if (scrollTimer) clearTimeout(scrollTimer);
      scrollTimer = undefined;
      persist({
        scrollTop: top,
        scrolls: withScroll(persisted.scrolls, sessionId, transcript.scrollAnchor()),
      });
    };
    transcript.onScroll = (top) => {
      if (scrollTimer) clearTimeout(scrollTimer);
      const sessionId = persisted.sessionId;
      scrollTimer = setTimeout(
        () => sessionId && sessionId === persisted.sessionId && saveScroll(sessionId, top),
        300,
      );
    };

    let restoreScroll = true;
    /** The session the page showed last; on another's `init`, where it was is kept for going back. */
    let drawnSession: string | undefined;
    /** Where to go back to in the session shown, once its whole `init` follows a short one. */
    let heldScroll: SessionScroll | undefined;
    const flush = (): void => {
      const c = store.takeChanges();
      let switched: SessionScroll | undefined;
      if (c.reset) {
        const session = store.session!;
        const before = drawnSession ?? persisted.sessionId;
        if (before && before !== session.sessionId) {
          // The preview panel shows another session: the one it leaves keeps its scroll position.
          if (drawnSession) saveScroll(drawnSession, transcript.follow ? undefined : transcript.el.scrollTop);
          switched = persisted.scrolls?.find((x) => x.sessionId === session.sessionId) ?? {
            sessionId: session.sessionId,
          };
          keepAsked = false;
        }
        if (persisted.sessionId && persisted.sessionId !== session.sessionId) {
          // State saved by a panel of another session: its draft and scroll position do not apply.
          persisted = {
            sessionId: session.sessionId,
            draft: '',
            ...(persisted.scrolls ? { scrolls: persisted.scrolls } : {}),
          };
          composer.setDraft('');
          restoreScroll = false;
        }
        drawnSession = session.sessionId;
        persist({ sessionId: session.sessionId });
        if (store.partial) {
          // A short first `init` leaves the older rows out: a saved position waits for the whole one.
          if (switched) heldScroll = switched.anchor ? switched : undefined;
        } else {
          if (heldScroll?.sessionId === session.sessionId) switched = heldScroll;
          heldScroll = undefined;
        }
      }
      if (c.reset || c.panel) {
        header.setPreview(store.preview);
        persist({ preview: store.preview });
        if (!store.preview) keepAsked = false;
      }
      if (c.reset || c.title) header.setSession(store.session!);
      if (c.reset || c.connection) header.setConnection(store.connection);
      if (c.reset || c.notice) notice.set(store.notice);
      if (c.reset || c.reviewComments) feedback.set(store.session!.sessionId, store.reviewComments);
      if (c.reset || c.turns.size > 0) header.setContextUsage(store.contextUsage());
      // an answer the host settled: its box is usable again (refused) or closes (answered)
      for (const r of c.sendResults) {
        const turnId = answers.settle(r.sendId, r.outcome);
        if (turnId) c.turns.add(turnId);
      }
      fields.update(c);
      transcript.update(c);
      // Rows shown at the bottom while a saved position further up waits would show, then jump.
      transcript.el.style.visibility = heldScroll ? 'hidden' : '';
      find.storeChanged();
      outline.storeChanged(c);
      if (c.reset && restoreScroll && !store.partial) {
        restoreScroll = false;
        if (persisted.scrollTop !== undefined) transcript.restoreScroll(persisted.scrollTop);
      }
      if (switched && !heldScroll) transcript.restoreAnchor(switched.anchor);
      if (store.composer && (c.reset || c.composer || c.turns.size > 0 || c.structure)) {
        composer.setState(store.composer, store.continuable()?.header.id, store.waiting()?.header.needsInput);
      }
      for (const r of c.sendResults) composer.settle(r.sendId, r.outcome);
      if (!c.reset) {
        for (const text of c.spoken) announcer.answer(text);
        for (const id of c.statuses) {
          const t = store.turn(id);
          if (t) announcer.status(needsInputText(t.header) || turnStatusText(t.header));
        }
      }
    };

    let frame = 0;
    const schedule = (): void => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        flush();
      });
    };

    // What each post does once the store applied it (every post goes through the store first).
    const after: Handlers<HostMessage, void> = {
      init: schedule,
      batch: schedule,
      fullLog: schedule,
      probe: (m) => {
        flush();
        post({
          type: 'probeResult',
          id: m.id,
          digest: { ...store.digest(transcript.renderedBlocks(), composer.text()), ...findDigest() },
        });
      },
      focusComposer: () => composer.focus(),
      openFind: (m) => find.open(m.query),
      revealMatch: (m) => find.revealAt(m.query, m.options, m.address, m.start),
      openOutline: () => outline.open(),
    };
    window.addEventListener('resize', () => transcript.resized());
    return (m) => dispatch(after, m);
  };
  // The page is built on the first init, once its texts can be translated.
  let apply: ((m: HostMessage) => void) | undefined;
  window.addEventListener('message', (ev: MessageEvent<unknown>) => {
    const msg = ev.data;
    if (!isHostMessage(msg)) return;
    if (msg.type === 'init') {
      setL10nBundle(msg.l10n ?? undefined);
      apply ??= ui();
    }
    store.receive(msg);
    apply?.(msg);
  });
  post({ type: 'ready', lastSeq: null });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
