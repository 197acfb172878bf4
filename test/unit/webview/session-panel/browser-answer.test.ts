/**
 * A turn that waits for the person is answered where it asks (issue 24), in real (headless)
 * Chromium: the question with Approve, Revise… and Reject for a plan, a reply box for a question;
 * each posts `answer` once, the box waits for the host's result, and the composer answers too.
 */
import assert from 'node:assert/strict';
import type { TurnHeader } from '../../../../src/protocol/session-panel/messages';
import { closeBrowser, openHarness, started, type Harness } from './browser-harness';
import { AGENT, composer } from './helpers';

after(closeBrowser);

const asking = (asks: 'approval' | 'reply', needsInput: string): TurnHeader => ({
  id: AGENT,
  userMessage: { id: 'u1', text: 'do it', files: [], createdAt: 1_700_000_000_000 },
  status: 'running',
  hasContinuation: false,
  createdAt: 1_700_000_000_000,
  needsInput,
  asks,
});

type Answer = { type: string; turnId?: string; kind?: string; text?: string; sendId?: string };
const answers = async (h: Harness): Promise<Answer[]> =>
  ((await h.posted()) as Answer[]).filter((m) => m.type === 'answer');

describe('webview: answering a turn that waits', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('a plan: the question with Approve, Revise… and Reject; Approve posts once and waits for the host', async () => {
    h = await openHarness();
    const next = await started(h, { composer: composer({ running: true }) });
    await h.send(next([{ type: 'turn', turn: asking('approval', 'Approve the plan to go on.') }]));
    const box = h.page.locator('.needs-input');
    await box.waitFor();
    assert.match(await box.innerText(), /The agent needs your input:\s*Approve the plan to go on\./);
    assert.equal(await box.getAttribute('role'), 'group');
    const buttons = box.locator('button');
    assert.deepEqual(await buttons.allInnerTexts(), ['Approve', 'Revise…', 'Reject']);
    await box.getByRole('button', { name: 'Approve' }).click();
    // a second press while the answer is on its way does nothing
    await h.page.evaluate(() => document.querySelector<HTMLButtonElement>('.needs-input button')?.click());
    const posted = await answers(h);
    assert.equal(posted.length, 1, 'answered twice');
    assert.deepEqual([posted[0].turnId, posted[0].kind, posted[0].text], [AGENT, 'approve', undefined]);
    assert.equal(typeof posted[0].sendId, 'string');
    assert.ok(await box.getByRole('button', { name: 'Approve' }).isDisabled());
    assert.match(await box.innerText(), /Sending your answer…/);
    // refused (the socket was down): usable again
    await h.send(next([{ type: 'sendResult', sendId: posted[0].sendId!, outcome: 'refused' }]));
    await h.frames(2);
    assert.ok(await box.getByRole('button', { name: 'Approve' }).isEnabled());
    // the turn received the answer: the box goes
    const { needsInput: _n, asks: _a, ...moved } = asking('approval', 'x');
    await h.send(next([{ type: 'turn', turn: moved }]));
    await box.waitFor({ state: 'detached' });
  });

  it('Revise… opens a box in place: Enter sends the revision, Escape closes it; Reject sends what was typed as why', async () => {
    h = await openHarness();
    const next = await started(h, { composer: composer({ running: true }) });
    await h.send(next([{ type: 'turn', turn: asking('approval', 'Approve?') }]));
    const box = h.page.locator('.needs-input');
    await box.getByRole('button', { name: 'Revise…' }).click();
    const input = box.getByRole('textbox', { name: 'What should change in the plan?' });
    await h.page.waitForFunction(() => document.activeElement?.classList.contains('answer-input'));
    await input.press('Escape');
    await input.waitFor({ state: 'detached' });
    await box.getByRole('button', { name: 'Revise…' }).click();
    await input.fill('smaller steps');
    await input.press('Enter');
    const [revise] = await answers(h);
    assert.deepEqual([revise.kind, revise.text], ['revise', 'smaller steps']);
    await h.send(next([{ type: 'sendResult', sendId: revise.sendId!, outcome: 'refused' }]));
    await h.frames(2);
    assert.equal(await input.inputValue(), 'smaller steps', 'the refused text was lost');
    await box.getByRole('button', { name: 'Reject' }).click();
    const reject = (await answers(h))[1];
    assert.deepEqual([reject.kind, reject.text], ['reject', 'smaller steps']);
  });

  it('a question: a reply box (no Approve); the composer says it answers, and its send is an answer', async () => {
    h = await openHarness();
    const next = await started(h, { composer: composer({ running: true }) });
    await h.send(next([{ type: 'turn', turn: asking('reply', 'Which name?') }]));
    const box = h.page.locator('.needs-input');
    await box.waitFor();
    assert.equal(await box.getByRole('button', { name: 'Approve' }).count(), 0);
    const input = box.getByRole('textbox', { name: 'Your answer' });
    await input.fill('parser-v2');
    await box.getByRole('button', { name: 'Send Answer' }).click();
    const [reply] = await answers(h);
    assert.deepEqual([reply.kind, reply.text], ['reply', 'parser-v2']);
    await h.send(next([{ type: 'sendResult', sendId: reply.sendId!, outcome: 'answered' }]));
    await h.frames(2);
    assert.equal(await input.inputValue(), '', 'an answered box keeps its text');
    const composerInput = h.page.locator('#composer-input');
    assert.match((await composerInput.getAttribute('placeholder')) ?? '', /^Answer the agent/);
    await composerInput.fill('v3');
    assert.equal(await h.page.locator('#send').innerText(), 'Answer');
  });
});
