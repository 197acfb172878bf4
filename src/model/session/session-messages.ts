/**
 * What the webview's messages do in its session: the handlers the host owns (the panel adapter adds
 * those that need the editor: links, files, clipboard, the file dialog, commands). No `vscode`
 * import.
 */
import { findBlock } from '../../core/transcript/blocks';
import { toAnswer, type InputAnswer } from '../../core/transcript/answers';
import type { Transcript, Turn } from '../../core/transcript/model';
import { findTurn } from '../../core/transcript/reducer';
import type { Effort, Mode } from '../../core/client/types';
import type { Handlers } from '../../protocol/shared/handlers';
import type { HeldTurnAction, SendOutcome, WebviewMessage } from '../../protocol/session-panel/messages';
import type { AttachmentList } from '../attachments/attachment-list';
import type { ComposerChoice } from './composer-choice';
import type { HostView } from './host-view';
import { fullBlockText } from './turn-view';
import type { ViewLink } from './view-link';

/** The webview messages a session's host handles without the editor. */
export type SessionMessage = Extract<
  WebviewMessage,
  {
    type:
      | 'ready'
      | 'send'
      | 'stop'
      | 'removeAttachment'
      | 'showFullLog'
      | 'retry'
      | 'heldTurn'
      | 'probeResult'
      | 'composerChoice'
      | 'answer';
  }
>;

/** How an answer to a waiting turn went (`TurnControl.answer`). */
export type AnswerOutcome = 'sent' | 'notWaiting' | 'unsent';

/** What the webview's commands do on the turns' side of the host. */
export interface SessionCommands {
  send(text: string, mode: Mode, effort: Effort, continueTurnId?: string): Promise<boolean>;
  stop(): Promise<void>;
  load(): Promise<void>;
  /** What the person chose in the notice of a message held back by a 429. */
  heldTurn(action: HeldTurnAction): void;
  /** The turn that waits for the person's answer now, if any. */
  waitingTurn(): Turn | undefined;
  /** Answers a waiting turn over its socket (never a new turn). */
  answer(turnId: string, answer: InputAnswer): AnswerOutcome;
}

/** The parts of the host the handlers act on. */
export interface SessionMessageTarget {
  link: ViewLink;
  view: HostView;
  attachments: Pick<AttachmentList, 'remove'>;
  choice: ComposerChoice;
  transcript: { readonly value: Transcript };
  turns: SessionCommands;
}

export function sessionHandlers(t: SessionMessageTarget): Handlers<SessionMessage> {
  return {
    ready: (m) => {
      t.link.ready(m.lastSeq);
    },
    send: async (m) => {
      let outcome: SendOutcome = 'refused';
      try {
        // While a turn waits for the person, what they type is its answer, not a turn behind it.
        const waiting = m.continueTurnId === undefined ? t.turns.waitingTurn() : undefined;
        const reply = waiting && toAnswer('reply', m.text);
        if (waiting && reply) {
          if (t.turns.answer(waiting.agentMessageId, reply) === 'sent') outcome = 'answered';
        } else if (await t.turns.send(m.text, m.mode, m.effort, m.continueTurnId)) outcome = 'started';
        else if (t.view.heldText !== undefined && t.view.heldText === m.text.trim()) outcome = 'held';
      } finally {
        // Whatever happened, the webview learns it: a refused send's text goes back to the composer.
        if (m.sendId !== undefined) t.view.settleSend(m.sendId, outcome);
      }
    },
    stop: () => t.turns.stop(),
    removeAttachment: (m) => {
      t.attachments.remove(m.id);
    },
    showFullLog: (m) => {
      const block = findBlock(findTurn(t.transcript.value, m.turnId)?.blocks ?? [], m.blockId);
      if (!block) return;
      const { text, droppedChars } = fullBlockText(block);
      t.link.send({
        type: 'fullLog',
        turnId: m.turnId,
        blockId: m.blockId,
        text,
        ...(droppedChars > 0 ? { droppedChars } : {}),
      });
    },
    retry: async () => {
      t.view.setNotice(null);
      await t.turns.load();
    },
    heldTurn: (m) => t.turns.heldTurn(m.action),
    answer: (m) => {
      const a = toAnswer(m.kind, m.text);
      const outcome = a ? t.turns.answer(m.turnId, a) : 'notWaiting';
      if (m.sendId !== undefined) t.view.settleSend(m.sendId, outcome === 'sent' ? 'answered' : 'refused');
    },
    probeResult: (m) => t.link.probeResult(m.id, m.digest),
    // The webview shows the choice already: it is kept, not echoed.
    composerChoice: (m) => {
      t.choice.choose(m.mode, m.effort);
      t.view.composerShown();
    },
  };
}
