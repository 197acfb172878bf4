/**
 * Den's notifications and modal dialogs, recorded instead of shown: `captureMessages` dismisses
 * every one (each test has one, from `useDen`), `answerMessages` picks the buttons of modals.
 * One API object is shared by Den and these tests, so replacing `window.show*Message` here is what
 * Den calls.
 */
import * as vscode from 'vscode';

type Level = 'info' | 'warning' | 'error';

const SHOW = {
  info: 'showInformationMessage',
  warning: 'showWarningMessage',
  error: 'showErrorMessage',
} as const;

/**
 * Replaces `window.show<Level>Message` for each of `levels` with `fake`, which answers in its place;
 * returns what puts VS Code's functions back.
 */
function replaceShow(
  levels: readonly Level[],
  fake: (level: Level, text: string, rest: unknown[]) => Promise<string | undefined>,
): () => void {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = levels.map((level) => [SHOW[level], w[SHOW[level]]] as const);
  for (const level of levels) w[SHOW[level]] = (text: string, ...rest: unknown[]) => fake(level, text, rest);
  return () => {
    for (const [name, fn] of saved) w[name] = fn;
  };
}

/** A notification Den showed while messages were captured. */
export interface ShownMessage {
  level: Level;
  text: string;
}

/** Captured notifications; `restore` puts VS Code's functions back. */
export interface MessageCapture {
  readonly shown: ShownMessage[];
  texts(level?: ShownMessage['level']): string[];
  restore(): void;
}

/**
 * Replaces `window.show{Information,Warning,Error}Message` with recorders that answer at once as
 * if dismissed, so no test waits on a notification or a modal dialog. Always `restore` in `afterEach`.
 */
export function captureMessages(): MessageCapture {
  const shown: ShownMessage[] = [];
  const restore = replaceShow(['info', 'warning', 'error'], (level, text) => {
    shown.push({ level, text });
    return Promise.resolve(undefined);
  });
  return {
    shown,
    texts: (level) => shown.filter((m) => !level || m.level === level).map((m) => m.text),
    restore,
  };
}

/** One message Den showed while answered: its text, options and buttons. */
export interface Asked {
  level: 'info' | 'warning';
  text: string;
  modal: boolean;
  detail?: string;
  buttons: string[];
}

/**
 * Answers Den's information and warning messages: `choose` picks a button of a modal (undefined
 * dismisses it); others are dismissed, unless `notifications` (then `choose` picks theirs too) or
 * `keepNotifications` (then they stay unanswered, as a toast gone into the bell). Errors go on to whatever showed them before.
 */
export function answerMessages(
  choose: (a: Asked) => string | undefined,
  options: { notifications?: boolean; keepNotifications?: boolean } = {},
): {
  asked: Asked[];
  restore(): void;
} {
  const asked: Asked[] = [];
  const restore = replaceShow(['info', 'warning'], async (level, text, rest) => {
    const opts = typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as vscode.MessageOptions) : {};
    const buttons = rest.filter((r): r is string => typeof r === 'string');
    const a: Asked = {
      level: level as Asked['level'],
      text,
      modal: opts.modal === true,
      detail: opts.detail,
      buttons,
    };
    asked.push(a);
    if (a.modal || options.notifications) return choose(a);
    // A notification nobody answers: it stays (in the bell), its promise pending.
    return options.keepNotifications ? new Promise<undefined>(() => undefined) : undefined;
  });
  return { asked, restore };
}

/**
 * Replaces `window.showInputBox` with `answer` (what the person types; undefined: Escape) and records
 * each box's prompt. Always `restore`.
 */
export function replaceInputBox(answer: (o: vscode.InputBoxOptions) => string | undefined): {
  prompts: (string | undefined)[];
  restore(): void;
} {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = w.showInputBox;
  const prompts: (string | undefined)[] = [];
  w.showInputBox = (o: vscode.InputBoxOptions = {}) => {
    prompts.push(o.prompt);
    return Promise.resolve(answer(o));
  };
  return { prompts, restore: () => (w.showInputBox = saved) };
}
