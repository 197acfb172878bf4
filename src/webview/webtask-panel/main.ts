/**
 * The Web Task panel's webview: builds the page inside `#app` (form, status of the run shown, its
 * results, the comparison with the previous run), applies what the host posts (only messages that
 * pass `isWebTaskHostMessage`), posts the person's intents back and keeps the form as typed with
 * `setState`, so a reloaded page shows the draft rather than the host's remembered form. Results and
 * comparisons that arrive are brought into view (`reveal.ts`) and announced.
 */
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import { l10n, setL10nBundle } from '../../core/shared/l10n';
import {
  EMPTY_WEB_TASK_FORM,
  isWebTaskHostMessage,
  type WebTaskHostMessage,
  type WebTaskStatusView,
} from '../../protocol/webtask-panel/webtask-messages';
import { Announcer } from '../shared/announcer';
import { h } from '../shared/dom';
import type { WebTaskPost } from '../shared/post';
import { ComparisonView } from './comparison-view';
import { FormView } from './form-view';
import { ResultsView } from './results-view';
import { StatusView } from './status-view';
import { Reveal } from './reveal';
import { phaseAnnouncement, readDraft, type WebTaskPersisted } from './texts';

function start(): void {
  const vscode = acquireVsCodeApi<WebTaskPersisted>();
  const post: WebTaskPost = (m) => vscode.postMessage(m);
  // A draft saved by this page before a reload wins over the form of the first init.
  let draft = readDraft(vscode.getState());
  // The page is built on the first init, once its texts can be translated.
  const build = (): Handlers<WebTaskHostMessage, void> => {
    const form = new FormView(
      { post, persist: (f) => vscode.setState({ form: f }) },
      draft ?? EMPTY_WEB_TASK_FORM,
    );
    const status = new StatusView(post);
    const app = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
    const reveal = new Reveal(app);
    // Compare asks for a section: the person's scrolling counts from then.
    const results = new ResultsView((m) => {
      if (m.type === 'compare') reveal.expect();
      post(m);
    });
    const comparison = new ComparisonView();
    const announcer = new Announcer();
    app.classList.add('webtask-page');
    app.append(
      h('main', { class: 'wt-main' }, [form.el, status.el, results.el, comparison.el]),
      h('div', { class: 'wt-jump-bar' }, [reveal.jump]),
      announcer.el,
    );

    let shown: WebTaskStatusView | null = null;
    const showStatus = (s: WebTaskStatusView | null, announce: boolean): void => {
      if (s && shown && s.runId !== shown.runId) {
        results.set(null);
        comparison.set(null);
      }
      if (announce && s && s.phase !== shown?.phase) announcer.status(phaseAnnouncement(s));
      shown = s;
      status.set(s);
      results.setSession(s?.sessionId);
    };

    const handlers: Handlers<WebTaskHostMessage, void> = {
      init: (m) => {
        form.setForm(draft ?? m.form);
        draft = undefined;
        form.setPasscode(m.passcodeSet);
        shown = null;
        showStatus(m.status, false);
        results.set(m.results);
        comparison.set(m.comparison);
      },
      status: (m) => {
        const started = m.status.runId !== shown?.runId;
        showStatus(m.status, true);
        // A run just started (from the form above): bring its status into view.
        if (started) {
          reveal.expect();
          status.el.scrollIntoView({ block: 'nearest' });
        }
      },
      // Results and a comparison arrive below the fold: brought into view unless the person is busy.
      results: (m) => {
        announcer.status(results.set(m.results));
        reveal.show(results.el, l10n.t('Go to Results'));
      },
      comparison: (m) => {
        announcer.status(comparison.set(m.comparison));
        reveal.show(comparison.el, l10n.t('Go to Comparison'));
      },
      schema: (m) => form.setSchema(m.schemaText, m.schemaSource),
      formErrors: (m) => form.setHostErrors(m.errors),
      passcode: (m) => form.setPasscode(m.passcodeSet),
    };
    window.addEventListener('resize', () => results.resized());
    return handlers;
  };
  let handlers: Handlers<WebTaskHostMessage, void> | undefined;
  window.addEventListener('message', (ev: MessageEvent<unknown>) => {
    const msg = ev.data;
    if (!isWebTaskHostMessage(msg)) return;
    if (msg.type === 'init') {
      setL10nBundle(msg.l10n ?? undefined);
      handlers ??= build();
    }
    if (handlers) dispatch(handlers, msg);
  });
  post({ type: 'ready' });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
