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
      const message = new vscode.MarkdownString();
      message.appendMarkdown(`Start a **${input.mode ?? 'default'}**-mode turn `);
      message.appendMarkdown(input.sessionId ? 'in session ' : 'in a new session');
      if (input.sessionId) message.appendText(input.sessionId);
      message.appendMarkdown(
        files.length
          ? `, attaching ${files.length} file${files.length > 1 ? 's' : ''}: `
          : ', with no attachments',
      );
      if (files.length) message.appendText(files.join(', '));
      message.appendMarkdown('.\n\nTask: ');
      message.appendText(quote(input.task ?? ''));
      return {
        invocationMessage: 'Delegating the task to Den…',
        confirmationMessages: { title: 'Delegate to Den?', message },
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
    prepareInvocation: () => ({ invocationMessage: 'Reading the Den session…' }),
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
      const message = new vscode.MarkdownString('Run a web task against ');
      message.appendText(input.appUrl ?? '');
      message.appendMarkdown(' with your web task passcode.\n\nQuery: ');
      message.appendText(quote(input.query ?? ''));
      message.appendMarkdown('\n\nFields: ');
      message.appendText(Object.keys(input.schema ?? {}).join(', ') || '(none)');
      return {
        invocationMessage: 'Running the web task with Den…',
        confirmationMessages: { title: 'Run a web task?', message },
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
