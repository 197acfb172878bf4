import type { Effort, Mode, TurnFile } from '../../core/client/types';
import type { SentBase } from '../apply/bases';

/** A turn to start: from the composer or from a command. */
export interface TurnRequest {
  task: string;
  mode?: Mode;
  effort?: Effort;
  files?: TurnFile[];
  references?: Record<string, unknown>[];
  /** Continuation data of an earlier turn (`task.completed`). */
  continuation?: string;
  /** The composer's chips whose files this carries: cleared once the turn starts (never sent). */
  attachmentIds?: string[];
  /** What the agent is sent of workspace files: recorded as their bases once the turn starts (never sent). */
  bases?: SentBase[];
}
