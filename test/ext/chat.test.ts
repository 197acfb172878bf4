/**
 * `@den` in the Chat view and Den's language model tools, in the real workbench. VS Code calls a
 * chat participant only when a language model is available: the harness loads the test-only stub
 * model (test/stub-model), never shipped.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DenExtensionApi } from '../../src/editor/api/types';
import type { ChatExchange } from '../../src/editor/integrations/chat';
import type * as Integrations from '../../src/editor/integrations/main';
import { waitFor } from '../support/wait';
import type { DenApi } from './den-api';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { settleKeyChange } from './sign-in-helpers';

/** Submits a request through the Chat view and resolves with `@den`'s answer to it. */
async function chat(
  api: DenApi,
  query: string,
  options: Record<string, unknown> = {},
): Promise<ChatExchange> {
  let got: ChatExchange | undefined;
  const sub = api.integrations.onDidAnswerChat((e) => (got = e));
  try {
    await vscode.commands.executeCommand('workbench.action.chat.open', { query, mode: 'ask', ...options });
    return await waitFor(`the @den answer to "${query}"`, () => got, { timeoutMs: 30_000 });
  } finally {
    sub.dispose();
  }
}

const markdown = (e: ChatExchange): string =>
  e.parts
    .filter((p) => p.startsWith('markdown: '))
    .map((p) => p.slice('markdown: '.length))
    .join('');

interface Stored {
  type: string;
  content?: string;
  inputMode?: string;
  files?: { name: string }[];
}

/** The integrations bundle as Den loads it (for prepareInvocation, which only chat flows call). */
function integrations(): typeof Integrations {
  const ext = vscode.extensions.getExtension('den-dev.den');
  assert.ok(ext);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(ext.extensionPath, 'dist', 'integrations.js')) as typeof Integrations;
}

const toolText = (r: vscode.LanguageModelToolResult): string =>
  r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

describe('Chat participant @den and language model tools', () => {
  const den = useDen();

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  async function messages(sessionId: string, count: number): Promise<Stored[]> {
    return waitFor(`${count} stored message(s)`, async () => {
      const { body } = await emuFetch(den.emu, `/sessions/${sessionId}`);
      const list = (body.messages ?? []) as Stored[];
      return list.filter((m) => m.type === 'user').length >= count ? list : undefined;
    });
  }

  it('@den /code starts a code turn, streams progress, tools and the answer, then offers Open Session and Review Changes; a follow-up continues the session', async () => {
    const first = await chat(den.api, '@den /code add a slugify helper');
    assert.equal(first.command, 'code');
    assert.equal(first.parts[0], 'progress: Starting a Den session…');
    assert.ok(
      first.parts.some((p) => p.startsWith('progress: Running ')),
      first.parts.join('\n'),
    );
    assert.ok(markdown(first).length > 20, 'the answer streamed');
    assert.ok(first.parts.filter((p) => p.startsWith('markdown: ')).length > 1, 'in more than one piece');
    assert.match(markdown(first), /\*\*Files:\*\* .*\(added\)/);
    assert.deepEqual(
      first.parts.filter((p) => p.startsWith('button: ')),
      ['button: Open Session den.openSession', 'button: Review Changes den.reviewTurn'],
    );
    const meta = first.result.metadata as { sessionId: string; status: string };
    assert.equal(meta.status, 'completed');
    const user = (await messages(meta.sessionId, 1)).find((m) => m.type === 'user');
    assert.equal(user?.inputMode, 'code');
    assert.equal(user?.content, 'add a slugify helper');

    const second = await chat(den.api, '@den now add tests for it');
    assert.equal(second.command, undefined);
    assert.equal(second.parts[0], 'progress: Continuing the Den session…');
    assert.equal((second.result.metadata as { sessionId: string }).sessionId, meta.sessionId);
    const users = (await messages(meta.sessionId, 2)).filter((m) => m.type === 'user');
    assert.deepEqual(
      users.map((m) => [m.content, m.inputMode]),
      [
        ['add a slugify helper', 'code'],
        ['now add tests for it', 'auto'],
      ],
    );
  });

  it('a plan that asks for approval: the answer says how to answer; "@den approve" answers that turn, which goes on to its end', async () => {
    const first = await chat(den.api, '@den /plan approve my plan');
    assert.match(markdown(first), /\*\*The agent needs your input:\*\* Approve the plan to go on\./);
    assert.match(markdown(first), /`@den approve`, `@den reject`/);
    const meta = first.result.metadata as { sessionId: string; agentMessageId: string; asks?: string };
    assert.equal(meta.asks, 'approval');
    const second = await chat(den.api, '@den approve');
    const after = second.result.metadata as { agentMessageId: string; status: string; asks?: string };
    assert.equal(after.agentMessageId, meta.agentMessageId, 'the answer started another turn');
    assert.equal(after.status, 'completed');
    assert.equal(after.asks, undefined);
    assert.ok(second.parts.includes('progress: Answer sent; the agent goes on…'), second.parts.join('\n'));
    assert.match(markdown(second), /The approved plan is carried out/);
    const stored = await messages(meta.sessionId, 1);
    assert.deepEqual(
      stored.map((m) => m.type),
      ['user', 'agent'],
      'a turn was queued behind the waiting one',
    );
  });

  it('uploads a file the person attached to the chat request', async () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root);
    const file = path.join(root, `chat-attach-${Date.now()}.ts`);
    fs.writeFileSync(file, 'export const answer = 42;\n');
    try {
      const e = await chat(den.api, '@den /code review the attached file', {
        attachFiles: [vscode.Uri.file(file)],
      });
      const meta = e.result.metadata as { sessionId: string };
      const user = (await messages(meta.sessionId, 1)).find((m) => m.type === 'user');
      assert.deepEqual(
        user?.files?.map((f) => f.name),
        [path.basename(file)],
      );
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('reports a failed turn in the chat with what to do, as an error result', async () => {
    const e = await chat(den.api, '@den please fail');
    assert.match(markdown(e), /\*\*The turn failed:\*\* .+ Open the session/);
    assert.ok(e.result.errorDetails?.message);
    assert.deepEqual(
      e.parts.filter((p) => p.startsWith('button: ')),
      ['button: Open Session den.openSession'],
    );
  });

  it('says what went wrong and what to do when the turn cannot start (signed out), as the answer’s error', async () => {
    await settleKeyChange(den.api, () => den.api.keys.clear());
    const e = await chat(den.api, '@den anything at all');
    const message = e.result.errorDetails?.message ?? '';
    assert.match(message, /^Den: .*(API key|sign in|Sign in)/i);
    assert.ok(!message.includes(den.emu.keys.primary));
    assert.deepEqual(
      e.parts.filter((p) => p.startsWith('button: ')),
      [],
    );
  });

  it('the tools are registered; delegate asks first (naming mode, session and files) and returns the result', async () => {
    const names = vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('den_'));
    assert.deepEqual(names.sort(), ['den_delegateTask', 'den_runWebTask', 'den_sessionStatus']);
    const api = den.api as DenExtensionApi;
    const prepared = await integrations()
      .tool(api, 'den_delegateTask')
      .prepareInvocation?.(
        { input: { task: 'Refactor the parser', mode: 'code', files: ['src/parser.ts'] } },
        new vscode.CancellationTokenSource().token,
      );
    assert.equal(prepared?.confirmationMessages?.title, 'Delegate to Den?');
    const message = prepared?.confirmationMessages?.message;
    // appendText escapes spaces as &nbsp;
    const text = (typeof message === 'string' ? message : message?.value)?.replace(/&nbsp;/g, ' ');
    assert.match(
      text ?? '',
      /\*\*code\*\*-mode turn in a new session, attaching 1 file: src\/parser\.ts\.[\s\S]*Refactor the parser/,
    );

    const result = await vscode.lm.invokeTool('den_delegateTask', {
      input: { task: 'Add a slugify helper', mode: 'code' },
      toolInvocationToken: undefined,
    });
    const out = toolText(result);
    assert.match(out, /: completed \(mode code\)\./);
    assert.match(out, /Files: .*\(added\)/);
    const sessionId = /Session ([0-9a-f-]{36})/.exec(out)?.[1];
    assert.ok(sessionId, out);

    const status = toolText(
      await vscode.lm.invokeTool('den_sessionStatus', {
        input: { sessionId },
        toolInvocationToken: undefined,
      }),
    );
    assert.match(status, /\(1 turn\)[\s\S]*Task: Add a slugify helper/);
  });

  it('the web task tool confirms the app and query, then returns records and problems', async () => {
    const api = den.api as DenExtensionApi;
    const input = {
      appUrl: 'https://shop.example.com',
      query: 'list products with gaps',
      schema: { name: 'the product name', price: 'the price in USD' },
      maxCount: 3,
    };
    const prepared = await integrations()
      .tool(api, 'den_runWebTask')
      .prepareInvocation?.({ input }, new vscode.CancellationTokenSource().token);
    const message = prepared?.confirmationMessages?.message;
    assert.match(
      (typeof message === 'string' ? message : (message?.value ?? '')).replace(/&nbsp;/g, ' '),
      /shop\.example\.com[\s\S]*list products with gaps[\s\S]*name, price/,
    );
    const out = toolText(
      await vscode.lm.invokeTool('den_runWebTask', { input, toolInvocationToken: undefined }),
    );
    assert.match(out, /^Web task status: DONE.*3 records\./);
    assert.match(out, /Problems against the schema: /);
    assert.match(out, /Records: \[\{/);
  });
});
