/** A turn that is running in some session, for the status bar and "Den: Show Running Turns". */
export interface RunningTurn {
  sessionId: string;
  agentMessageId: string;
  title: string;
  task: string;
  /** Waiting behind the session's running turn (not running yet). */
  queued?: boolean;
}

/** The running turns changed: the whole list, and the sessions that started or stopped running. */
export interface RunningTurnsChange {
  turns: RunningTurn[];
  sessions: { sessionId: string; running: boolean }[];
}
