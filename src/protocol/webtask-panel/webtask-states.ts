/**
 * The states of a web task run, one table that every surface reads (issue 22, point 6): the panel's
 * badge and buttons (`webview/webtask-panel/status-view.ts`), the Web Tasks view's row and its menu
 * (`editor/webtasks/webtasks-tree.ts`), the runner's messages and the notification. A state has one name,
 * one icon, says whether the request is still going (only then is there a Cancel), and which
 * actions it offers. Pure: the host and the webview bundle both import it.
 */
import { l10n } from '../../core/shared/l10n';
import type { WebTaskPhase } from './webtask-messages';

/** Statuses Den records besides the service's task statuses (and the history's `RUNNING`). */
export const ERROR = 'ERROR';
export const CANCELLED = 'CANCELLED';
/** The answer (stream or JSON body) was cut off before the task's final status. */
export const INTERRUPTED = 'INTERRUPTED';

/** What a state offers: Cancel only while the request goes; Watch Live / Open in Browser when the run has a live link. */
export type WebTaskAction = 'cancel' | 'watchLive';

export interface WebTaskState {
  /** The state's one name (badge, row, notification, announcement). */
  name: string;
  /** Codicon and theme color of the row. */
  icon: string;
  color: string;
  /** The request is still going: the run can be cancelled and its time keeps counting. */
  live: boolean;
  /** Actions offered, the first one the main one. */
  actions: readonly WebTaskAction[];
  /** The state asks the person to act (prominent in the panel, a notification when not looked at). */
  needsPerson: boolean;
}

/** The table (a function: names are translated once the bundle is known). */
export function webTaskStates(): Record<WebTaskPhase, WebTaskState> {
  return {
    running: {
      name: l10n.t('Running'),
      icon: 'sync',
      color: 'charts.blue',
      live: true,
      actions: ['cancel', 'watchLive'],
      needsPerson: false,
    },
    'needs-you': {
      name: l10n.t('Waiting for you'),
      icon: 'bell',
      color: 'charts.yellow',
      live: true,
      actions: ['watchLive', 'cancel'],
      needsPerson: true,
    },
    'needs-person': {
      name: l10n.t('Needs a person'),
      icon: 'person',
      color: 'charts.yellow',
      live: false,
      actions: ['watchLive'],
      needsPerson: true,
    },
    done: {
      name: l10n.t('Done'),
      icon: 'pass',
      color: 'testing.iconPassed',
      live: false,
      actions: ['watchLive'],
      needsPerson: false,
    },
    failed: {
      name: l10n.t('Failed'),
      icon: 'error',
      color: 'testing.iconFailed',
      live: false,
      actions: ['watchLive'],
      needsPerson: false,
    },
    interrupted: {
      name: l10n.t('Interrupted'),
      icon: 'debug-disconnect',
      color: 'charts.orange',
      live: false,
      actions: ['watchLive'],
      needsPerson: false,
    },
    error: {
      name: l10n.t('Error'),
      icon: 'error',
      color: 'errorForeground',
      live: false,
      actions: ['watchLive'],
      needsPerson: false,
    },
    cancelled: {
      name: l10n.t('Cancelled'),
      icon: 'circle-slash',
      color: 'disabledForeground',
      live: false,
      actions: ['watchLive'],
      needsPerson: false,
    },
  };
}

/** The state of a phase. */
export function webTaskState(phase: WebTaskPhase): WebTaskState {
  return webTaskStates()[phase];
}

/**
 * Whether a shown status is still going: its state is live and it has not ended (a status with
 * `finishedAt` is over, whatever its phase says: a finished request never offers Cancel).
 */
export function isLiveStatus(s: { phase: WebTaskPhase; finishedAt?: number }): boolean {
  return webTaskState(s.phase).live && s.finishedAt === undefined;
}

/**
 * The phase of a task status. `active`: the request is still going. `HUMAN_INTERACTION` while the
 * request goes waits for the person (`needs-you`); as the final answer the task is over and the app
 * needs a person (`needs-person`). A run left `STARTING`/`PROCESSING`/`RUNNING` when its request
 * ended was cut off (`interrupted`); a final status Den does not know is an `error`.
 */
export function phaseOf(taskStatus: string, active = true): WebTaskPhase {
  switch (taskStatus) {
    case 'DONE':
      return 'done';
    case 'HUMAN_INTERACTION':
      return active ? 'needs-you' : 'needs-person';
    case 'FAILURE':
      return 'failed';
    case CANCELLED:
      return 'cancelled';
    case ERROR:
      return 'error';
    case INTERRUPTED:
      return 'interrupted';
    case 'STARTING':
    case 'PROCESSING':
    case 'RUNNING':
      return active ? 'running' : 'interrupted';
    default:
      // a status Den does not know: running while the request goes, else an ending Den cannot read
      return active ? 'running' : 'error';
  }
}
