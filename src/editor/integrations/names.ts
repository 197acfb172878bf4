/** Ids shared by the activation bundle (`register.ts`) and the integrations bundle (`main.ts`). */
export const CHAT_PARTICIPANT_ID = 'den.agent';

export const TOOL_NAMES = ['den_delegateTask', 'den_sessionStatus', 'den_runWebTask'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
