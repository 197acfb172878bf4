/**
 * Scripted turns: the event sequence a turn emits, chosen from the task text (see the emulator
 * contract). Payload fields follow the event-kind table of service-behaviour.md.
 */
import type { FileInfo, Mode } from '../../src/core/client/types';
import { parseFeedback, type FeedbackEntry } from '../../src/model/review/feedback';
import { addressComments, notesFor, rewrite, type AttachedText } from './write-back';

/** One scripted event; `writes` are applied to the session's files when the event is emitted. */
export interface ScriptStep {
  kind: string;
  block_id?: string;
  payload: Record<string, unknown>;
  /** Pause before this event, overriding the emulator's `eventDelayMs`. */
  delayMs?: number;
  /**
   * `delayMs` counts from the previous step's due time, not from when it was sent: a steady rate
   * whatever the timers' drift; steps already due go out at once, in one burst (benchmarks).
   */
  paced?: boolean;
  /** `updatedAt`: what the stored snapshot says (the live snapshot's time); else the event's. */
  writes?: { path: string; content: string; updatedAt?: number }[];
}

export interface ScriptContext {
  sessionId: string;
  task: string;
  mode: Mode;
  /** The fileSnapshot key under which a generated path is published. */
  snapshotKey(path: string): string;
  /** Unix ms used in snapshot payloads. */
  now: number;
  /** The turn's attached workspace text files: a coding turn rewrites each (`write-back.ts`). */
  attachments?: AttachedText[];
  /** The session's generated file at `path` now, as text (a feedback turn edits it). */
  generated?(path: string): string | undefined;
  /**
   * Among the sessions whose first task is this session's first task, this one's place (0 for the
   * first): a `varied` turn picks its body by it, so attempts started together all differ.
   */
  sameTaskIndex?: number;
}

const TERMINAL_KINDS = new Set(['task.completed', 'task.error', 'task.aborted']);

export function isTerminalKind(kind: string): boolean {
  return TERMINAL_KINDS.has(kind);
}

/** The events of a turn after `message.received` and the queued phase, ending with a terminal event (but `approve`). */
export function scriptFor(ctx: ScriptContext): ScriptStep[] {
  const t = ctx.task.toLowerCase();
  const slow = t.includes('slow');
  let steps: ScriptStep[];
  const count = /(\d+)\s+events/.exec(t);
  const tools = /(\d+)\s+events\s+with\s+(\d+)\s+tools/.exec(t);
  // Send Feedback's text first: its comments and quoted code may hold any of the words below.
  const feedback = parseFeedback(ctx.task).entries;
  if (feedback.length) steps = feedbackTurn(ctx, feedback);
  else if (t.includes('approve')) steps = approvalTurn(ctx);
  else if (t.includes('ask me')) steps = questionTurn(ctx);
  else if (t.includes('many steps')) steps = stepsTurn(ctx);
  else if (t.includes('fail')) steps = failTurn(ctx);
  else if (tools) steps = toolsTurn(Math.min(Number(tools[1]), 500_000), Number(tools[2]));
  else if (count) steps = longAnswer(Math.min(Number(count[1]), 500_000), t.includes('marked'));
  else if (t.includes('plan') || ctx.mode === 'plan') steps = planTurn(ctx);
  else if (t.includes('long')) steps = longAnswer(400);
  else if (ctx.mode === 'deepsearch') steps = deepsearchTurn(ctx);
  else steps = codingTurn(ctx);
  if (slow) for (const s of steps) s.delayMs = 300;
  // `rate R`: R events a second, paced; `burst`: every event at once (after the lead-in below).
  const rate = /rate\s+(\d+)/.exec(t);
  if (rate || t.includes('burst')) {
    const gap = rate && Number(rate[1]) > 0 ? 1000 / Number(rate[1]) : 0;
    for (const s of steps) Object.assign(s, { delayMs: gap, paced: true });
    // A lead-in before the first chunk, so that a second client can join before it (benchmarks).
    if (count) steps[1].delayMs = 1500;
  }
  return steps;
}

function slug(task: string): string {
  const words = task
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 2 && !['the', 'and', 'for', 'with', 'slow'].includes(w))
    .slice(0, 3);
  return words.length ? words.join('-') : 'task';
}

function camel(s: string): string {
  return s.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function answerSteps(text: string, chunkSize = 48, block_id = 'answer:main'): ScriptStep[] {
  const steps: ScriptStep[] = [
    { kind: 'block.create', block_id, payload: { type: 'markdown', initial_state: { content: '' } } },
  ];
  for (let i = 0; i < text.length; i += chunkSize) {
    steps.push({ kind: 'markdown.chunk', block_id, payload: { delta: text.slice(i, i + chunkSize) } });
  }
  steps.push({ kind: 'block.update', block_id, payload: { patch: { final: true } } });
  return steps;
}

function toolSteps(
  name: string,
  run: number,
  parameters: Record<string, unknown>,
  logs: { stream: 'stdout' | 'stderr'; data: string }[],
  result: { status: 'success' | 'error'; output: string },
): ScriptStep[] {
  const block_id = `tool:${name}:${run}`;
  return [
    { kind: 'tool.start', block_id, payload: { tool_name: name } },
    { kind: 'tool.parameters', block_id, payload: { parameters } },
    ...logs.map((l) => ({ kind: 'tool.log', block_id, payload: { stream: l.stream, data: l.data } })),
    {
      kind: 'tool.result',
      block_id,
      payload: { status: result.status, output: result.output, finalize: true },
    },
  ];
}

function writeFile(path: string, content: string, run: number): ScriptStep[] {
  const lines = content.split('\n').length;
  return toolSteps(
    'write_file',
    run,
    { path, content },
    [{ stream: 'stdout', data: `Wrote ${lines} lines to ${path}\n` }],
    { status: 'success', output: `File written: ${path} (${Buffer.byteLength(content)} bytes)` },
  );
}

function snapshotStep(ctx: ScriptContext, files: { path: string; content: string }[]): ScriptStep {
  const snapshot: Record<string, { key: string; name: string; updatedAt: number }> = {};
  for (const f of files)
    snapshot[f.path] = { key: ctx.snapshotKey(f.path), name: f.path, updatedAt: ctx.now };
  return {
    kind: 'sandbox.snapshot',
    payload: { sandbox_id: `sbx_${ctx.sessionId.slice(0, 8)}`, snapshot, deleted: [] },
    writes: files.map((f) => ({ ...f, updatedAt: ctx.now })),
  };
}

function completed(
  ctx: ScriptContext,
  files: { path: string; content: string }[],
  summary: string,
): ScriptStep {
  const out: FileInfo[] = files.map((f) => ({
    key: ctx.snapshotKey(f.path),
    name: f.path,
    size: Buffer.byteLength(f.content),
  }));
  const continuation = JSON.stringify({
    session_id: ctx.sessionId,
    summary,
    files: files.map((f) => f.path),
  });
  return { kind: 'task.completed', payload: { continuation, files: out } };
}

/**
 * A Send Feedback turn (`src/model/review/feedback.ts`'s text): each commented file of the session
 * is rewritten with its commented lines changed (`addressComments`), then an answer lists them.
 */
function feedbackTurn(ctx: ScriptContext, entries: FeedbackEntry[]): ScriptStep[] {
  const byPath = new Map<string, FeedbackEntry[]>();
  for (const e of entries) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  const files: { path: string; content: string }[] = [];
  const lines: string[] = [];
  for (const [raw, list] of byPath) {
    const path = raw.replace(/^\/+/, '');
    const current = ctx.generated?.(path);
    if (current === undefined) {
      lines.push(`- \`${path}\`: not a file of this session; nothing changed.`);
      continue;
    }
    const { content, changed } = addressComments(path, current, list);
    files.push({ path, content });
    lines.push(
      `- \`${path}\`: addressed ${changed} of ${list.length} comment${list.length === 1 ? '' : 's'}.`,
    );
  }
  const answer = `I went through your review comments.\n\n${lines.join('\n')}\n`;
  return [
    { kind: 'task.phase', payload: { phase: 'running', eta_seconds: 10 } },
    {
      kind: 'thought',
      block_id: 'thought:1',
      payload: { thought: `Addressing ${entries.length} review comments.`, finalize: true },
    },
    ...files.flatMap((f, i) => writeFile(f.path, f.content, i + 1)),
    ...(files.length ? [snapshotStep(ctx, files)] : []),
    ...answerSteps(answer),
    completed(ctx, files, `Addressed ${entries.length} review comments`),
  ];
}

function codingTurn(ctx: ScriptContext): ScriptStep[] {
  const base = slug(ctx.task);
  const fn = camel(base);
  const src = `src/${base}.ts`;
  const test = `test/${base}.test.ts`;
  const srcContent = [
    `/** ${ctx.task} */`,
    `export interface ${fn[0].toUpperCase()}${fn.slice(1)}Options {`,
    '  enabled: boolean;',
    '  retries?: number;',
    '}',
    '',
    `export function ${fn}(input: string, options: { enabled: boolean }): string {`,
    ...bodyOf(ctx),
    '}',
    '',
  ].join('\n');
  const testContent = [
    "import assert from 'node:assert/strict';",
    `import { ${fn} } from '../src/${base}';`,
    '',
    `describe('${fn}', () => {`,
    "  it('collapses whitespace when enabled', () => {",
    `    assert.equal(${fn}('  a   b ', { enabled: true }), 'a b');`,
    '  });',
    '});',
    '',
  ].join('\n');
  const files = [
    { path: src, content: srcContent },
    { path: test, content: testContent },
  ];
  // `vscode task`: a workspace file that can run code (a task that runs when the folder opens).
  const extras = ctx.task.toLowerCase().includes('vscode task')
    ? [{ path: '.vscode/tasks.json', content: TASKS_JSON }]
    : [];
  files.push(...extras);
  const reviewed = (ctx.attachments ?? []).flatMap((a) => {
    const { content, done } = rewrite(a);
    return [
      { path: a.path, content, done },
      { ...notesFor(a, done), done: [] as number[] },
    ];
  });
  files.push(...reviewed.map(({ path, content }) => ({ path, content })));
  const reviewLines = reviewed
    .filter((_, i) => i % 2 === 0)
    .map(
      (r) =>
        `- \`${r.path}\`: reviewed; ${r.done.length} TODO${r.done.length === 1 ? '' : 's'} implemented (notes in \`${r.path}.notes.md\`).\n`,
    )
    .join('');
  const variant = variantOf(ctx);
  const answer =
    (variant === undefined ? '' : `${VARIED[variant].name}.\n\n`) +
    `I implemented **${ctx.task}**.\n\n` +
    `- \`${src}\`: the new \`${fn}\` function with an options object.\n` +
    `- \`${test}\`: a unit test covering the enabled path.\n` +
    reviewLines +
    '\n' +
    'The test suite passes (`npm test`: 2 passing). One deprecation warning remains from the test runner; it is harmless.\n';
  return [
    { kind: 'task.phase', payload: { phase: 'running', eta_seconds: 42 } },
    {
      kind: 'thought',
      block_id: 'thought:1',
      payload: {
        thought: `The task asks me to ${ctx.task.toLowerCase()}. I'll look at the project layout first, then write the code and a test.`,
        finalize: true,
      },
    },
    { kind: 'focus', payload: { title: 'Writing code', detail: src } },
    ...writeFile(src, srcContent, 1),
    ...writeFile(test, testContent, 2),
    ...extras.flatMap((f, i) => writeFile(f.path, f.content, 10 + i)),
    ...reviewed.flatMap((r, i) => writeFile(r.path, r.content, 3 + i)),
    {
      kind: 'thought',
      block_id: 'thought:2',
      payload: { thought: 'Both files are written. Running the tests to check.', finalize: true },
    },
    ...toolSteps(
      'run_command',
      1,
      { command: 'npm test' },
      [
        { stream: 'stdout', data: `\n> sandbox@1.0.0 test\n> mocha\n\n  ${fn}\n` },
        { stream: 'stdout', data: '    \x1b[32m✔\x1b[0m collapses whitespace when enabled\n' },
        {
          stream: 'stderr',
          data: '\x1b[33m(node:118) Warning:\x1b[0m --experimental-loader may be removed\n',
        },
        ...(ctx.task.toLowerCase().includes('big log') ? bigLog() : []),
        { stream: 'stdout', data: '\n  \x1b[32m2 passing\x1b[0m \x1b[90m(14ms)\x1b[0m\n' },
      ],
      { status: 'success', output: 'exit code 0' },
    ),
    snapshotStep(ctx, files),
    { kind: 'context.usage', payload: { used_tokens: 18_432, max_tokens: 200_000 } },
    ...answerSteps(answer),
    completed(ctx, files, `Implemented ${base}`),
  ];
}

/**
 * The bodies a `varied` coding turn picks from (by `variantOf`), so that attempts of
 * one task (several sessions, `src/model/attempts`) differ: other lines, other counts.
 */
const VARIED = [
  {
    name: 'Variant A: a regular expression',
    body: ['  if (!options.enabled) return input;', '  return input.trim().replace(/\\s+/g, " ");'],
  },
  {
    name: 'Variant B: split and join',
    body: [
      '  if (!options.enabled) return input;',
      '  const words = input.split(" ").filter((w) => w.length > 0);',
      '  return words.join(" ");',
    ],
  },
  {
    name: 'Variant C: a loop',
    body: [
      '  if (!options.enabled) {',
      '    return input;',
      '  }',
      '  let out = "";',
      '  for (const w of input.split(/\\s+/)) if (w) out += (out ? " " : "") + w;',
      '  return out;',
    ],
  },
] as const;

/**
 * Which of `VARIED` a `varied` task's session writes (undefined: not a `varied` task): by its place
 * among the sessions of the same first task, else by a hash of its id.
 */
export function variantOf(
  ctx: Pick<ScriptContext, 'task' | 'sessionId' | 'sameTaskIndex'>,
): number | undefined {
  if (!ctx.task.toLowerCase().includes('varied')) return undefined;
  if (ctx.sameTaskIndex !== undefined) return ctx.sameTaskIndex % VARIED.length;
  let h = 0;
  for (const c of ctx.sessionId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % VARIED.length;
}

function bodyOf(ctx: ScriptContext): readonly string[] {
  const v = variantOf(ctx);
  return v === undefined ? VARIED[0].body : VARIED[v].body;
}

/** The `.vscode/tasks.json` a `vscode task` turn writes: harmless, but it would run on folder open. */
export const TASKS_JSON = `${JSON.stringify(
  {
    version: '2.0.0',
    tasks: [
      {
        label: 'agent: prepare',
        type: 'shell',
        command: 'echo prepared by the agent',
        runOptions: { runOn: 'folderOpen' },
      },
    ],
  },
  null,
  2,
)}\n`;

/** 1 MiB of test output in 16 chunks of 64 KiB (`big log` in the task). */
function bigLog(): { stream: 'stdout'; data: string }[] {
  const line = (n: number): string => `    ok ${String(n).padStart(6, '0')} ${'.'.repeat(49)}\n`;
  const chunk = (i: number): string => {
    let out = '';
    for (let n = i * 1024; n < (i + 1) * 1024; n++) out += line(n);
    return out;
  };
  return Array.from({ length: 16 }, (_, i) => ({ stream: 'stdout' as const, data: chunk(i) }));
}

function failTurn(ctx: ScriptContext): ScriptStep[] {
  return [
    { kind: 'task.phase', payload: { phase: 'running', eta_seconds: 20 } },
    {
      kind: 'thought',
      block_id: 'thought:1',
      payload: { thought: 'Installing the dependencies first.', finalize: true },
    },
    ...toolSteps(
      'run_command',
      1,
      { command: 'npm ci' },
      [
        { stream: 'stdout', data: 'added 312 packages in 4s\n' },
        { stream: 'stderr', data: '\x1b[31mnpm ERR!\x1b[0m code ELIFECYCLE\n' },
      ],
      { status: 'error', output: 'exit code 1' },
    ),
    {
      kind: 'block.create',
      block_id: 'answer:main',
      payload: { type: 'markdown', initial_state: { content: '' } },
    },
    { kind: 'markdown.chunk', block_id: 'answer:main', payload: { delta: `Working on "${ctx.task}": ` } },
    { kind: 'markdown.chunk', block_id: 'answer:main', payload: { delta: 'the install step failed.' } },
    {
      kind: 'task.error',
      payload: { message: 'The sandbox process exited unexpectedly (exit code 1).', code: 'sandbox_failed' },
    },
  ];
}

/**
 * A long turn in steps: a plan, then per step a heading, a `read_file`, a `write_file` and a
 * `run_command` (step 4's fails), the files written, a summary; 80 ms between events.
 */
function stepsTurn(ctx: ScriptContext): ScriptStep[] {
  const STEPS = 10;
  const todos = Array.from({ length: STEPS }, (_, i) => ({
    id: `step-${i + 1}`,
    content: `Port module ${i + 1}`,
    status: 'pending',
  }));
  const plan = (done: number): ScriptStep => ({
    kind: 'plan.update',
    block_id: 'plan:root',
    payload: {
      patch: {
        todos: todos.map((t, i) => ({
          ...t,
          status: i < done ? 'completed' : i === done ? 'active' : 'pending',
        })),
      },
    },
  });
  const files: { path: string; content: string }[] = [];
  const steps: ScriptStep[] = [
    { kind: 'task.phase', payload: { phase: 'running', eta_seconds: 30 } },
    plan(0),
  ];
  for (let i = 1; i <= STEPS; i++) {
    const path = `src/importer/module-${i}.ts`;
    const content = `export const module${i} = ${i};\n`;
    files.push({ path, content });
    steps.push(
      ...answerSteps(
        `## Step ${i}: port module ${i}\n\nReading the old module, then writing the new one.\n`,
        48,
        `answer:step-${i}`,
      ),
      ...toolSteps(
        'read_file',
        i,
        { path: `legacy/module-${i}.js` },
        [{ stream: 'stdout', data: `module ${i}\n` }],
        {
          status: 'success',
          output: `${i * 10} lines`,
        },
      ),
      ...writeFile(path, content, i),
      ...toolSteps(
        'run_command',
        i,
        { command: `npm test -- module-${i}` },
        [
          {
            stream: i === 4 ? 'stderr' : 'stdout',
            data: i === 4 ? 'TypeError: x is undefined\n' : '1 passing\n',
          },
        ],
        i === 4 ? { status: 'error', output: 'exit code 1' } : { status: 'success', output: 'exit code 0' },
      ),
      plan(i),
    );
  }
  steps.push(
    snapshotStep(ctx, files),
    ...answerSteps(
      `## Summary\n\nPorted ${STEPS} modules; the tests of module 4 failed once.\n`,
      48,
      'answer:main',
    ),
    { kind: 'task.completed', payload: {} },
  );
  for (const s of steps) s.delayMs = 80;
  return steps;
}

function planTurn(ctx: ScriptContext): ScriptStep[] {
  const titles = ['Read the existing code', 'Design the change', 'Implement it', 'Write tests', 'Summarize'];
  const todos = titles.map((content, i) => ({ id: `todo-${i + 1}`, content, status: 'pending' }));
  const plan = (): ScriptStep => ({
    kind: 'plan.update',
    block_id: 'plan:root',
    payload: { patch: { todos: todos.map((t) => ({ ...t })) } },
  });
  const steps: ScriptStep[] = [
    { kind: 'task.phase', payload: { phase: 'running', eta_seconds: 60 } },
    { kind: 'thought', block_id: 'thought:1', payload: { thought: `Planning: ${ctx.task}`, finalize: true } },
    plan(),
  ];
  todos.forEach((t, i) => {
    t.status = 'active';
    steps.push(plan());
    steps.push({ kind: 'text', block_id: `text:${i + 1}`, payload: { text: `Working on: ${t.content}.` } });
    t.status = 'completed';
    steps.push(plan());
  });
  const files = [{ path: 'PLAN.md', content: titles.map((x, i) => `${i + 1}. ${x}`).join('\n') + '\n' }];
  steps.push(snapshotStep(ctx, files));
  steps.push(
    ...answerSteps(
      `The plan for **${ctx.task}** is done: ${titles.length} steps, all completed. See \`PLAN.md\`.\n`,
    ),
  );
  steps.push(completed(ctx, files, 'Plan executed'));
  return steps;
}

/**
 * The plan, then a plan-approval request (kind assumed by Den too), then nothing: it waits for an
 * answer over the socket (`afterAnswer`) or until stopped.
 */
function approvalTurn(ctx: ScriptContext): ScriptStep[] {
  return [
    { kind: 'task.phase', payload: { phase: 'running' } },
    { kind: 'thought', block_id: 'thought:1', payload: { thought: `Planning: ${ctx.task}`, finalize: true } },
    planStep(['Make the change'], 'pending'),
    { kind: 'plan.approval_request', payload: { message: 'Approve the plan to go on.' } },
  ];
}

/** A question (`input.request`, kind assumed by Den too), then nothing until it is answered. */
function questionTurn(ctx: ScriptContext): ScriptStep[] {
  return [
    { kind: 'task.phase', payload: { phase: 'running' } },
    { kind: 'thought', block_id: 'thought:1', payload: { thought: `Reading: ${ctx.task}`, finalize: true } },
    { kind: 'input.request', payload: { question: 'Which name should the new module have?' } },
  ];
}

function planStep(todos: string[], status: string): ScriptStep {
  return {
    kind: 'plan.update',
    block_id: 'plan:root',
    payload: { patch: { todos: todos.map((content, i) => ({ id: `todo-${i + 1}`, content, status })) } },
  };
}

/** The request kinds a turn waits on: after one, the turn goes on only with an answer. */
export const REQUEST_KINDS: ReadonlySet<string> = new Set(['plan.approval_request', 'input.request']);

/**
 * What a waiting turn does with the person's answer (the text of a `message` frame sent over its
 * socket; Den's shapes are in src/core/transcript/answers.ts): `Approved…` carries the plan out, `Rejected…`
 * ends the turn with nothing changed, any other answer to a plan revises it with the answer's words
 * and asks again; an answer to a question is used and the turn ends. `round` counts the answers.
 */
export function afterAnswer(ctx: ScriptContext, asked: string, text: string, round: number): ScriptStep[] {
  const block = `answer:${round}`;
  const said = text.replace(/\s+/g, ' ').trim().slice(0, 80);
  if (asked === 'input.request') {
    const files = [{ path: 'ANSWER.md', content: `# ${ctx.task}\n\nThe person answered: ${said}\n` }];
    return [
      snapshotStep(ctx, files),
      ...answerSteps(`Going on with **${said}**: see \`ANSWER.md\`.\n`, 48, block),
      completed(ctx, files, `Answered: ${said}`),
    ];
  }
  if (/^approved\b/i.test(text)) {
    const files = [{ path: 'CHANGE.md', content: `# ${ctx.task}\n\nCarried out as planned.\n` }];
    return [
      planStep(['Make the change'], 'active'),
      snapshotStep(ctx, files),
      planStep(['Make the change'], 'completed'),
      ...answerSteps('The approved plan is carried out: see `CHANGE.md`.\n', 48, block),
      completed(ctx, files, 'Plan approved and carried out'),
    ];
  }
  if (/^rejected\b/i.test(text)) {
    return [
      ...answerSteps('The plan was rejected: nothing was changed.\n', 48, block),
      completed(ctx, [], 'Plan rejected'),
    ];
  }
  return [
    planStep([`Make the change (${said})`, 'Check the result'], 'pending'),
    { kind: 'plan.approval_request', payload: { message: 'Approve the revised plan to go on.' } },
  ];
}

function deepsearchTurn(ctx: ScriptContext): ScriptStep[] {
  const results = [
    { title: 'Official documentation', url: 'https://example.com/docs' },
    { title: 'Benchmark comparison 2025', url: 'https://example.org/benchmarks' },
  ];
  const files = [
    {
      path: 'report.md',
      content: `# ${ctx.task}\n\n${results.map((r) => `- [${r.title}](${r.url})`).join('\n')}\n`,
    },
  ];
  return [
    { kind: 'task.phase', payload: { phase: 'running', eta_seconds: 90 } },
    {
      kind: 'thought',
      block_id: 'thought:1',
      payload: { thought: 'Searching the web for primary sources.', finalize: true },
    },
    ...toolSteps('web_search', 1, { query: ctx.task }, [], {
      status: 'success',
      output: JSON.stringify(results),
    }),
    snapshotStep(ctx, files),
    ...answerSteps(
      `Findings for **${ctx.task}**:\n\n1. The documentation covers the basics [1].\n2. Recent benchmarks disagree [2].\n\n[1]: ${results[0].url}\n[2]: ${results[1].url}\n`,
    ),
    completed(ctx, files, 'Research report'),
  ];
}

const WORDS =
  'the agent reads the repository then writes code runs tests and explains every change in plain words so a reviewer can follow along'.split(
    ' ',
  );

/**
 * A long working turn of `n` events: `tools` `run_command` calls (start, parameters, 3 log lines,
 * result; every 25th fails with exit 1) spread evenly, each followed by an answer block of its own
 * (markdown chunks filling the rest), a thought after every 10th call; every 100th chunk says
 * `migration` (something rare to find). `n` steps in all, from `task.phase running` to
 * `task.completed` (fewer tool calls when `n` is too small for them).
 */
function toolsTurn(n: number, tools: number): ScriptStep[] {
  const steps: ScriptStep[] = [{ kind: 'task.phase', payload: { phase: 'running', eta_seconds: 60 } }];
  const body = Math.max(0, n - 2);
  const slots = Math.max(1, Math.min(tools, Math.floor(body / 6)));
  let made = 0;
  let chunks = 0;
  for (let k = 0; k < slots; k++) {
    const failed = k % 25 === 24;
    const lines = [0, 1, 2].map((j) => ({
      stream: j === 2 && failed ? ('stderr' as const) : ('stdout' as const),
      data: `\x1b[32m✓\x1b[0m step ${k}.${j}: compiled src/m${(k * 3 + j) % 97}.ts\n`,
    }));
    steps.push(
      ...toolSteps('run_command', k, { command: `npm test -- --grep case${k}` }, lines, {
        status: failed ? 'error' : 'success',
        output: failed ? `exit 1: 2 failing in case${k}` : 'exit 0: 12 passing',
      }),
    );
    made += 6;
    if (k % 10 === 9) {
      steps.push({
        kind: 'thought',
        block_id: `thought:${k}`,
        payload: { thought: `Case ${k} passed; next the edge with tabs and CRLF.`, finalize: true },
      });
      made++;
    }
    const end = Math.round(((k + 1) * body) / slots);
    const block_id = `answer:${k}`;
    if (made < end) {
      steps.push({
        kind: 'block.create',
        block_id,
        payload: { type: 'markdown', initial_state: { content: '' } },
      });
      made++;
    }
    for (; made < end; made++) {
      const word = ++chunks % 100 === 0 ? 'migration' : WORDS[made % WORDS.length];
      const sep = made % 12 === 11 ? '.\n\n' : ' ';
      steps.push({ kind: 'markdown.chunk', block_id, payload: { delta: word + sep } });
    }
  }
  steps.push({ kind: 'task.completed', payload: {} });
  return steps;
}

/** Exactly `n` markdown chunks framed by phase, block and terminal events. */
/**
 * `n` markdown chunks of one answer; `marked`: each chunk carries its index as `⟦i⟧`, so a
 * benchmark can find when each one reached a client or the screen.
 */
function longAnswer(n: number, marked = false): ScriptStep[] {
  const steps: ScriptStep[] = [
    { kind: 'task.phase', payload: { phase: 'running', eta_seconds: Math.ceil(n / 100) } },
    {
      kind: 'block.create',
      block_id: 'answer:main',
      payload: { type: 'markdown', initial_state: { content: '' } },
    },
  ];
  for (let i = 0; i < n; i++) {
    const sep = i % 12 === 11 ? '.\n\n' : ' ';
    steps.push({
      kind: 'markdown.chunk',
      block_id: 'answer:main',
      payload: { delta: WORDS[i % WORDS.length] + (marked ? ` ⟦${i}⟧` : '') + sep },
    });
  }
  steps.push({ kind: 'block.update', block_id: 'answer:main', payload: { patch: { final: true } } });
  steps.push({ kind: 'task.completed', payload: {} });
  return steps;
}
