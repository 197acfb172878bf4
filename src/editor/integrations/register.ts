/**
 * Registers Den's chat participant (`@den`) and language model tools at activation, with handlers
 * that load `dist/integrations.js` on first use: the code behind them is a separate bundle
 * (`main.ts`), outside the activation bundle's budget (docs/decisions/2026-11-24-integrations-bundle.md).
 * This file stays in the activation bundle: it imports no value from the other integration files.
 */
import * as vscode from 'vscode';
import type { DenExtensionApi } from '../api/types';
import type * as Integrations from './main';
import { CHAT_PARTICIPANT_ID, TOOL_NAMES } from './names';

/** Loads the integrations bundle once; `file` is its path (tests may point elsewhere). */
function loader(file: string): () => typeof Integrations {
  let loaded: typeof Integrations | undefined;
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded on first use
    loaded ??= require(file) as typeof Integrations;
    return loaded;
  };
}

export type { ChatExchange } from './chat';

/** The registrations, and each `@den` request as answered (tests watch it). */
export interface IntegrationsHandle extends vscode.Disposable {
  readonly onDidAnswerChat: vscode.Event<Integrations.ChatExchange>;
}

export function registerIntegrations(
  context: vscode.ExtensionContext,
  api: DenExtensionApi,
): IntegrationsHandle {
  const load = loader(vscode.Uri.joinPath(context.extensionUri, 'dist', 'integrations.js').fsPath);
  const answered = new vscode.EventEmitter<Integrations.ChatExchange>();
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, chat, stream, token) =>
    load().handleChat(api, request, chat, stream, token, (e) => answered.fire(e)),
  );
  participant.iconPath = new vscode.ThemeIcon('hubot');
  participant.followupProvider = {
    provideFollowups: (result) => load().chatFollowups(result),
  };
  const tools = TOOL_NAMES.map((name) =>
    vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: (options, token) => load().tool(api, name).prepareInvocation?.(options, token),
      invoke: (options, token) => load().tool(api, name).invoke(options, token),
    }),
  );
  const all = vscode.Disposable.from(answered, participant, ...tools);
  return { onDidAnswerChat: answered.event, dispose: () => all.dispose() };
}
