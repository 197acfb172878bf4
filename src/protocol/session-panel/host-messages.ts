/**
 * Host → webview: the posts the Session panel's host sends, written once as schemas whose types are
 * the messages. The webview applies nothing that fails them. Where the declared view types (a
 * block, a turn, the composer) are richer than what the webview must check, `custom` guards check
 * the fields the webview relies on and carry the declared type. No `vscode` import.
 */
import { isContextUsage } from '../../core/transcript/context-usage';
import type { Block, FileChange, Plan } from '../../core/transcript/model';
import {
  arrayOf,
  custom,
  isBoolean,
  isNonNegativeInteger,
  isRecord,
  isString,
  isUnknown,
  nullable,
  object,
  oneOf,
  optional,
  recordOf,
  refine,
  variant,
  type Infer,
} from '../../core/shared/schema';
import type {
  ComposerState,
  ConnectionView,
  FileStatusView,
  Notice,
  SessionHeader,
  TurnHeader,
  TurnView,
} from './view';
import type { ReviewedView } from './reviewed';
import { isFieldAddress, isMatchOptions } from '../shared/search';

const isArray = arrayOf(isUnknown);

/** How a composer's send ended (see the `sendResult` delta). */
export const SEND_OUTCOMES = ['started', 'answered', 'held', 'refused'] as const;
export type SendOutcome = (typeof SEND_OUTCOMES)[number];

const isBlock = custom<Block>(
  refine(
    object({ id: isString, type: isString }),
    (b) => b.type !== 'tool' || object({ log: object({ segments: isArray }) })(b),
  ),
);

const headerShape = {
  id: isString,
  status: isString,
  userMessage: object({ text: isString, files: isArray }),
  /** Read by the header's meter: numbers it can draw, or the header is refused whole. */
  contextUsage: optional(isContextUsage),
};
const isTurnHeader = custom<TurnHeader>(object(headerShape));
const isTurnView = custom<TurnView>(object({ ...headerShape, blocks: arrayOf(isBlock), files: isArray }));

const isComposer = custom<ComposerState>(
  object({ mode: isString, effort: isString, attachments: isArray, queued: (v) => typeof v === 'number' }),
);

const FILE_STATES = [
  'new',
  'modified',
  'partly',
  'deleted',
  'identical',
  'conflicts',
  'refused',
  'failed',
] as const;

const isFileStatus = custom<FileStatusView>(
  object({
    path: isString,
    state: oneOf(FILE_STATES),
    added: isNonNegativeInteger,
    removed: isNonNegativeInteger,
    conflicts: optional(isNonNegativeInteger),
    hunks: optional(object({ applied: isNonNegativeInteger, total: isNonNegativeInteger })),
    reason: optional(isString),
  }),
);

const isReviewed = custom<ReviewedView>(object({ path: isString, versions: arrayOf(isString) }));

/** Whether one delta (one change to the view) is well-formed. */
export const isDelta = variant('type', {
  /** Creates or updates a turn's header. */
  turn: { turn: isTurnHeader },
  /** Creates or replaces a block of a turn (appended at the end when new). */
  block: { turnId: isString, block: isBlock },
  /**
   * The turn's blocks are exactly these, in this order: blocks not listed are removed, the others
   * keep their content (sent after the `block` deltas of the same batch).
   */
  blockOrder: { turnId: isString, blockIds: arrayOf(isString) },
  /** Appends text to a markdown/thought/text block, or to a tool block's log (`stream` set). */
  append: {
    turnId: isString,
    blockId: isString,
    text: isString,
    stream: optional(oneOf(['stdout', 'stderr'] as const)),
  },
  plan: { turnId: isString, plan: custom<Plan>(object({ todos: isArray })) },
  files: { turnId: isString, files: custom<FileChange[]>(isArray) },
  composer: { composer: isComposer },
  connection: { connection: custom<ConnectionView>(object({ state: isString })) },
  notice: { notice: nullable(custom<Notice>(object({ message: isString, actions: isArray }))) },
  title: { title: isString },
  /**
   * The state of the session's files against the workspace folder, by path: all of them (a path
   * not listed has no state). See `model/session-files/file-status.ts`.
   */
  fileStatus: { files: arrayOf(isFileStatus) },
  /** How many open line comments of the session the next Send Feedback sends (0: none). */
  reviewComments: { open: isNonNegativeInteger },
  /**
   * The panel shows the session as the preview: the one panel a single click in the Sessions view
   * reuses for the next session clicked (false: a panel of its own, kept open).
   */
  panel: { preview: isBoolean },
  /**
   * The session's reviewed marks: all of them, by path, each the versions marked reviewed (a
   * turn's file is reviewed when its version is among them). See `model/review/review-marks.ts`.
   */
  reviewed: { files: arrayOf(isReviewed) },
  /**
   * How the composer's send `sendId` ended: a turn `started`, the service `held` it back (429, the
   * composer state's `held` says what follows), or it was `refused` (failed; the composer gets its
   * text back). One per send, never folded with another: the `sending` state can change twice
   * between two posts.
   */
  sendResult: { sendId: isString, outcome: oneOf(SEND_OUTCOMES) },
});

/** One change to the view. */
export type Delta = Infer<typeof isDelta>;

/** Every post carries `seq`, increasing by one (see messages.ts). */
const seq = custom<number>(Number.isInteger);

/** Whether a posted value is a HostMessage the webview can apply. */
export const isHostMessage = variant('type', {
  /** The whole view: on open, on restore, or when the webview missed posts. */
  init: {
    seq,
    session: custom<SessionHeader>(object({ sessionId: isString })),
    turns: arrayOf(isTurnView),
    composer: isComposer,
    connection: custom<ConnectionView>(isRecord),
    notice: nullable(custom<Notice>(isRecord)),
    /** The files' states, as the last `fileStatus` delta gave them. */
    fileStatus: optional(arrayOf(isFileStatus)),
    /** As the last `reviewComments` delta said. */
    reviewComments: optional(isNonNegativeInteger),
    /** The reviewed marks, as the last `reviewed` delta gave them. */
    reviewed: optional(arrayOf(isReviewed)),
    /** As the last `panel` delta said (absent: not the preview). */
    preview: optional(isBoolean),
    /**
     * A long session's first, short `init`: older texts left out so the newest rows paint first;
     * the whole `init` is the next post. The page shows it and keeps a saved position for that one.
     */
    partial: optional(isBoolean),
    /** `vscode.l10n.bundle`: the webview's texts translated (null: English). */
    l10n: nullable(recordOf(isString)),
  },
  batch: { seq, deltas: arrayOf(isDelta) },
  /**
   * The whole log of a tool block, after the user asked to "show all": all Den kept of it, and how
   * many characters before that it dropped (its log cap), so the view can keep saying so.
   */
  fullLog: {
    seq,
    turnId: isString,
    blockId: isString,
    text: isString,
    droppedChars: optional(isNonNegativeInteger),
  },
  /** Test hook: the webview answers with a `probeResult`. */
  probe: { seq, id: isString },
  /** Moves keyboard focus to the composer (after "New Session" and similar). */
  focusComposer: { seq },
  /** Opens the transcript's find bar (`den.findInSession`), with `query` typed in when given. */
  openFind: { seq, query: optional(isString) },
  /**
   * Opens the find bar on `query` with these options and makes current the match that starts at
   * `start` in the field at `address` (Search in Sessions' result), scrolled to and highlighted; the
   * first match of that field, or the first match, when the transcript changed since it was indexed.
   */
  revealMatch: {
    seq,
    query: isString,
    options: isMatchOptions,
    address: isFieldAddress,
    start: isNonNegativeInteger,
  },
  /** Opens the outline of the turn in view (`den.showTurnOutline`). */
  openOutline: { seq },
});

/** Host → webview. */
export type HostMessage = Infer<typeof isHostMessage>;
