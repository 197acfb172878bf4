/**
 * Den's public extension API: what `activate()` returns to other extensions
 * (`vscode.extensions.getExtension('<publisher>.den')?.exports`), and what Den's own chat
 * participant and language model tools use. Types only: no value is exported from here.
 */
import type * as vscode from 'vscode';

export type DenMode = 'auto' | 'code' | 'deepsearch' | 'slides' | 'plan';
export type DenEffort = 'fast' | 'think';

/** What a turn asks of the agent. */
export interface DenTurnOptions {
  /** The task, in natural language. */
  task: string;
  /** Defaults to the `den.defaultMode` setting. */
  mode?: DenMode;
  /** Defaults to the `den.defaultEffort` setting. */
  effort?: DenEffort;
  /** Continue this session; without it a new session is started. */
  sessionId?: string;
  /** Uploaded and attached to the turn: a `Uri` the whole file, a `Location` that range as a selection. */
  files?: readonly (vscode.Uri | vscode.Location)[];
  /** Open (or reveal) the session's panel. Default false: the turn runs headless. */
  openPanel?: boolean;
}

/** A started turn. */
export interface DenTurnRef {
  readonly sessionId: string;
  /** The agent message id: the turn's key. */
  readonly agentMessageId: string;
}

export type DenTurnStatus = 'queued' | 'running' | 'completed' | 'aborted' | 'error';

/**
 * The person's answer to a turn that waits for them (`DenTurnSnapshot.needsInput`): approve or
 * reject a plan (`text`: why, optional), ask for a revision, or reply in words (`text` needed).
 */
export interface DenTurnAnswer {
  readonly kind: 'approve' | 'reject' | 'revise' | 'reply';
  readonly text?: string;
}

/** A turn as Den has it now (a plain, JSON-safe snapshot). */
export interface DenTurnSnapshot {
  readonly sessionId: string;
  readonly agentMessageId: string;
  readonly task: string;
  readonly mode?: DenMode;
  readonly status: DenTurnStatus;
  /** The agent waits for the person (e.g. a plan to approve): what it asks. */
  readonly needsInput?: string;
  /** How it is answered: `approval` (approve, revise or reject a plan) or `reply` (in words). */
  readonly asks?: 'approval' | 'reply';
  /** The answer so far: the turn's markdown blocks, joined. */
  readonly answer: string;
  /** Tool calls in first-seen order. */
  readonly tools: readonly { readonly name: string; readonly status: 'running' | 'success' | 'error' }[];
  /** Files the turn changed or produced, by path. */
  readonly files: readonly {
    readonly path: string;
    readonly kind: 'added' | 'updated' | 'deleted' | 'output';
  }[];
  /** Plan items, when the turn has a plan. */
  readonly todos: readonly { readonly text: string; readonly status: 'pending' | 'active' | 'completed' }[];
  readonly error?: string;
}

/** A session with its turns, oldest first. */
export interface DenSessionSnapshot {
  readonly sessionId: string;
  readonly title: string;
  readonly turns: readonly DenTurnSnapshot[];
}

/** What `onDidChangeSession` reports. */
export type DenSessionChangeKind = 'started' | 'needsInput' | 'completed' | 'failed' | 'stopped';

export interface DenSessionChangeEvent {
  readonly kind: DenSessionChangeKind;
  readonly sessionId: string;
  readonly agentMessageId: string;
  /** The session's title (or its first task while the service has not named it). */
  readonly title: string;
  /** For `failed`: the error; for `needsInput`: what the agent asks. */
  readonly detail?: string;
}

/** A web task (`POST /lam/run`), run with the person's passcode. */
export interface DenWebTaskOptions {
  appUrl: string;
  query: string;
  /** The service's schema form: each key a field, each value a description or a nested object. */
  schema: Record<string, unknown>;
  maxCount?: number;
  mode?: 'deepsearch';
}

export interface DenWebTaskResult {
  /** `DONE`, `FAILURE`, `HUMAN_INTERACTION`, … or `ERROR`/`CANCELLED` from Den. */
  readonly status: string;
  readonly records: readonly unknown[];
  /** Problems found checking the records against the schema, by kind. */
  readonly problems: Readonly<Record<string, number>>;
  readonly message?: string;
  readonly sessionId?: string;
  readonly livestreamUrl?: string;
}

export interface DenExtensionApi {
  /** 1 for this shape; a breaking change raises it. */
  readonly apiVersion: 1;
  /** Starts a turn (a new session unless `sessionId`); resolves once the service accepted it. */
  startTurn(options: DenTurnOptions): Promise<DenTurnRef>;
  /**
   * Calls `listener` with the turn's snapshot now and on every change until the turn ends (the
   * last call has a terminal status) or the returned disposable is disposed.
   */
  followTurn(turn: DenTurnRef, listener: (turn: DenTurnSnapshot) => void): vscode.Disposable;
  /** The session's turns, fetched from the service when Den does not hold them. */
  getSession(sessionId: string): Promise<DenSessionSnapshot>;
  /** Stops the session's running turn; false when it has none. */
  stopTurn(sessionId: string): Promise<boolean>;
  /**
   * Answers a turn that waits for the person: the turn goes on (nothing is queued behind it).
   * False when it does not wait for an answer (any more); throws when the answer could not be sent.
   */
  answerTurn(turn: DenTurnRef, answer: DenTurnAnswer): Promise<boolean>;
  /** Opens (or reveals) the session's panel. */
  openSession(sessionId: string): Promise<void>;
  /** Opens Review Changes for the session's files (`turn`: only that turn's). */
  reviewChanges(sessionId: string, agentMessageId?: string): Promise<void>;
  /** Runs a web task; resolves when it ends (cancelled with the token). */
  runWebTask(options: DenWebTaskOptions, token?: vscode.CancellationToken): Promise<DenWebTaskResult>;
  /** A turn of any session started, needs the person, completed, failed or was stopped. */
  readonly onDidChangeSession: vscode.Event<DenSessionChangeEvent>;
}
