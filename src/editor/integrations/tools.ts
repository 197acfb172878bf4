/**
 * Language model tools for agent mode: delegate a task to Den, read a session's status and
 * result, run a web task. Delegating and web tasks ask the person first (`prepareInvocation`).
 */
import * as vscode from 'vscode';
import type { DenExtensionApi, DenMode, DenWebTaskResult } from '../api/types';
import { followUntilEnd } from './follow';
import type { ToolName } from './names';
import { turnText } from './words';

export interface DelegateInput {
  task: string;
  mode?: DenMode;
  sessionId?: string;
  /** Workspace-relative paths or URIs of files to attach. */
  files?: string[];
  /** Wait for the turn to end (default true); false returns as soon as it started. */
  wait?: boolean;
}

export interface StatusInput {
  sessionId: string;
  agentMessageId?: string;
}

export interface WebTaskInput {
  appUrl: string;
  query: string;
  schema: Record<string, unknown>;
  maxCount?: number;
}

type Tool = vscode.LanguageModelTool<unknown>;

const text = (s: string): vscode.LanguageModelToolResult =>
  new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

const quote = (s: string): string => s.replace(/\s+/g, ' ').trim().slice(0, 300);

/** Text escaped as `MarkdownString.appendText` writes it (for an arg of a Markdown message). */
const md = (s: string): string => new vscode.MarkdownString().appendText(s).value;

/** A path relative to a workspace folder (the first that has it), or a URI. */
export async function resolveFile(p: string): Promise<vscode.Uri> {
  if (/^[a-z][\w+.-]+:/i.test(p) && !/^[a-z]:[\\/]/i.test(p)) return vscode.Uri.parse(p);
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const f of folders) {
    const uri = p.startsWith('/') ? vscode.Uri.file(p) : vscode.Uri.joinPath(f.uri, p);
    if (
      await vscode.workspace.fs.stat(uri).then(
        () => true,
        () => false,
      )
    )
      return uri;
  }
  throw new Error(`Den: no file ${p} in the workspace.`);
}

function delegate(api: DenExtensionApi): Tool {
  return {
    prepareInvocation(options) {
      const input = options.input as DelegateInput;
      const files = input.files ?? [];
      const mode = input.mode ?? vscode.l10n.t('default');
      const n = files.length.toLocaleString(vscode.env.language);
      const list = md(files.join(', '));
      const id = input.sessionId && md(input.sessionId);
      const start = id
        ? files.length === 0
          ? vscode.l10n.t('Start a **{0}**-mode turn in session {1}, with no attachments.', mode, id)
          : files.length === 1
            ? vscode.l10n.t(
                'Start a **{0}**-mode turn in session {1}, attaching 1 file: {2}.',
                mode,
                id,
                list,
              )
            : vscode.l10n.t(
                'Start a **{0}**-mode turn in session {1}, attaching {2} files: {3}.',
                mode,
                id,
                n,
                list,
              )
        : files.length === 0
          ? vscode.l10n.t('Start a **{0}**-mode turn in a new session, with no attachments.', mode)
          : files.length === 1
            ? vscode.l10n.t('Start a **{0}**-mode turn in a new session, attaching 1 file: {1}.', mode, list)
            : vscode.l10n.t(
                'Start a **{0}**-mode turn in a new session, attaching {1} files: {2}.',
                mode,
                n,
                list,
              );
      const message = new vscode.MarkdownString(
        `${start}\n\n${vscode.l10n.t('Task: {0}', md(quote(input.task ?? '')))}`,
      );
      return {
        invocationMessage: vscode.l10n.t('Delegating the task to Den…'),
        confirmationMessages: { title: vscode.l10n.t('Delegate to Den?'), message },
      };
    },
    async invoke(options, token) {
      const input = options.input as DelegateInput;
      const files = await Promise.all((input.files ?? []).map(resolveFile));
      const ref = await api.startTurn({
        task: input.task,
        ...(input.mode ? { mode: input.mode } : {}),
        ...(input.sessionId ? { sessionId: input.sessionId } : {}),
        ...(files.length ? { files } : {}),
      });
      if (input.wait === false)
        return text(
          `Started turn ${ref.agentMessageId} in session ${ref.sessionId}. Read it later with den_sessionStatus.`,
        );
      return text(turnText(await followUntilEnd(api, ref, token)));
    },
  };
}

function status(api: DenExtensionApi): Tool {
  return {
    prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Reading the Den session…') }),
    async invoke(options) {
      const input = options.input as StatusInput;
      const s = await api.getSession(input.sessionId);
      const turn = input.agentMessageId
        ? s.turns.find((t) => t.agentMessageId === input.agentMessageId)
        : s.turns.at(-1);
      if (!turn)
        return text(
          input.agentMessageId
            ? `Session ${s.sessionId} has no turn ${input.agentMessageId}.`
            : `Session ${s.sessionId} has no turns yet.`,
        );
      return text(
        `Session "${s.title}" (${s.turns.length} turn${s.turns.length === 1 ? '' : 's'}).\n${turnText(turn)}`,
      );
    },
  };
}

/** A web task's result for a language model: status, problems, the records as JSON (bounded). */
export function webTaskText(r: DenWebTaskResult, max = 12000): string {
  const lines = [
    `Web task status: ${r.status}${r.message ? ` (${r.message})` : ''}. ${r.records.length} records.`,
  ];
  const problems = Object.entries(r.problems).filter(([, n]) => n > 0);
  if (problems.length)
    lines.push(`Problems against the schema: ${problems.map(([k, n]) => `${n} ${k}`).join(', ')}.`);
  const json = JSON.stringify(r.records);
  lines.push(
    json.length > max
      ? `Records (first ${max} of ${json.length} characters): ${json.slice(0, max)}`
      : `Records: ${json}`,
  );
  return lines.join('\n');
}

function webTask(api: DenExtensionApi): Tool {
  return {
    prepareInvocation(options) {
      const input = options.input as WebTaskInput;
      const fields = Object.keys(input.schema ?? {}).join(', ') || vscode.l10n.t('(none)');
      const message = new vscode.MarkdownString(
        [
          vscode.l10n.t('Run a web task against {0} with your web task passcode.', md(input.appUrl ?? '')),
          vscode.l10n.t('Query: {0}', md(quote(input.query ?? ''))),
          vscode.l10n.t('Fields: {0}', md(fields)),
        ].join('\n\n'),
      );
      return {
        invocationMessage: vscode.l10n.t('Running the web task with Den…'),
        confirmationMessages: { title: vscode.l10n.t('Run a web task?'), message },
      };
    },
    async invoke(options, token) {
      const input = options.input as WebTaskInput;
      const r = await api.runWebTask(
        {
          appUrl: input.appUrl,
          query: input.query,
          schema: input.schema,
          ...(input.maxCount !== undefined ? { maxCount: input.maxCount } : {}),
        },
        token,
      );
      return text(webTaskText(r));
    },
  };
}

const TOOLS: Record<ToolName, (api: DenExtensionApi) => Tool> = {
  den_delegateTask: delegate,
  den_sessionStatus: status,
  den_runWebTask: webTask,
};

export function tool(api: DenExtensionApi, name: ToolName): Tool {
  return TOOLS[name](api);
}
