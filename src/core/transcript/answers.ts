/**
 * The person's answer to a turn that waits for them (`Turn.needsInput`), as the text of the
 * service's "send a message to the running task" frame (`{"type":"message","text","files"}`,
 * service-behaviour.md). The frame has no field for the kind of answer, so the text says it, in a
 * stable shape an agent (and the emulator) can read; docs/review-and-apply.md ("When the agent
 * asks") documents it.
 * English on purpose: the agent reads it, not the person. No `vscode` import.
 */

/** How the person answers: approve or reject a plan, ask for a revision, or reply in words. */
export type InputAnswer =
  | { kind: 'approve' }
  | { kind: 'reject'; text?: string }
  | { kind: 'revise'; text: string }
  | { kind: 'reply'; text: string };

export const ANSWER_KINDS = ['approve', 'reject', 'revise', 'reply'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** What the agent reads: `Approved.…`, `Rejected.…`, `Revise the plan:…`, or the reply as typed. */
export function answerText(a: InputAnswer): string {
  switch (a.kind) {
    case 'approve':
      return 'Approved. Go on with the plan.';
    case 'reject': {
      const why = a.text?.trim();
      return why
        ? `Rejected. Do not carry out this plan. Why: ${why}`
        : 'Rejected. Do not carry out this plan.';
    }
    case 'revise':
      return `Revise the plan: ${a.text.trim()}`;
    case 'reply':
      return a.text.trim();
  }
}

/** An answer from its parts (as the webview or a command sends them); undefined when it says nothing. */
export function toAnswer(kind: AnswerKind, text: string | undefined): InputAnswer | undefined {
  const t = text?.trim() ?? '';
  if (kind === 'approve') return { kind };
  if (kind === 'reject') return t ? { kind, text: t } : { kind };
  return t ? { kind, text: t } : undefined;
}
