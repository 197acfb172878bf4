/**
 * The header's context window meter in real (headless) Chromium: hidden until the service reports
 * use, then "18k of 200k tokens" with a bar, role="meter" and its values and words for screen
 * readers, coloured by the theme as it fills; a report Den cannot read stays a generic block.
 * Screenshots of the header go to shots/panel-context-meter-*.png (untracked), to look at.
 * Needs Debian's Chromium (see browser-harness.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { eventFactory } from '../../../support/events';
import { closeBrowser, openHarness, started, type Harness, type Theme } from './browser-harness';
import { AGENT, header, loadFixture, scenario } from './helpers';
import type { ContextUsage } from '../../../../src/core/transcript/model';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import { liveTranscript } from '../../core/transcript/helpers';

const SHOTS = join(__dirname, '../../../../../shots');

after(closeBrowser);

/** The meter's attributes and texts as a screen reader and a person get them. */
async function meterOf(h: Harness) {
  const m = h.page.locator('#context-meter');
  return {
    visible: await m.isVisible(),
    role: await m.getAttribute('role'),
    min: await m.getAttribute('aria-valuemin'),
    max: await m.getAttribute('aria-valuemax'),
    now: await m.getAttribute('aria-valuenow'),
    label: await m.getAttribute('aria-label'),
    valueText: await m.getAttribute('aria-valuetext'),
    level: await m.getAttribute('data-level'),
    text: (await m.locator('.context-meter-text').textContent()) ?? '',
  };
}

/** A turn header delta carrying a reading, as the host posts it after a `context.usage` event. */
function usageTurn(u: ContextUsage, id = AGENT) {
  const t = liveTranscript(id);
  return { type: 'turn' as const, turn: { ...header(t.turns[0]), contextUsage: u } };
}

describe('webview in Chromium: the context window meter', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('stays hidden until the service reports use, then shows it in the header, not in the transcript', async () => {
    h = await openHarness();
    const events = loadFixture('coding-turn.jsonl');
    const at = events.findIndex((e) => e.kind === 'context.usage');
    const s = scenario(events, 1);
    await h.send(s.init, ...s.batches.slice(0, at));
    await h.probe();
    assert.equal((await meterOf(h)).visible, false, 'shown before any report');

    await h.send(...s.batches.slice(at));
    await h.probe();
    assert.deepEqual(await meterOf(h), {
      visible: true,
      role: 'meter',
      min: '0',
      max: '200000',
      now: '18432',
      label: 'Context window: 18,432 of 200,000 tokens used (9%)',
      valueText: '9%',
      level: 'ok',
      text: '18k of 200k tokens',
    });
    assert.ok(
      await h.page.locator('header.panel-header #context-meter').isVisible(),
      'the meter is in the header',
    );
    const d = await h.probe();
    assert.deepEqual(
      d.turns[0].blocks.filter((b) => b.type === 'generic').map((b) => b.id),
      ['focus#5'],
      'the report is no block of the transcript',
    );
  });

  it('follows the latest turn that reported use and takes the warning and error colours as it fills', async () => {
    h = await openHarness({ theme: 'dark' });
    const batch = await started(h);
    const colours = async () =>
      h.page.evaluate(() => {
        const fill = document.querySelector('.context-meter-fill')!;
        const root = getComputedStyle(document.documentElement);
        return {
          fill: getComputedStyle(fill).backgroundColor,
          warning: root.getPropertyValue('--vscode-editorWarning-foreground').trim(),
          error: root.getPropertyValue('--vscode-errorForeground').trim(),
        };
      });
    const hex = (rgb: string) =>
      '#' +
      (rgb.match(/\d+/g) ?? [])
        .slice(0, 3)
        .map((n) => Number(n).toString(16).padStart(2, '0'))
        .join('');

    await h.send(batch([usageTurn({ used: 170_000, max: 200_000, fraction: 0.85 })]));
    await h.probe();
    let m = await meterOf(h);
    assert.equal(m.level, 'warning');
    assert.equal(m.text, '170k of 200k tokens');
    let c = await colours();
    assert.equal(hex(c.fill), c.warning);
    await h.page
      .locator('header.panel-header')
      .screenshot({ path: join(SHOTS, 'panel-context-meter-warning-dark.png') });

    // a later turn with no report of its own does not hide the meter; one that reports replaces it
    const later = liveTranscript('agent-0002').turns[0];
    await h.send(batch([{ type: 'turn', turn: header(later) }]));
    await h.probe();
    assert.equal((await meterOf(h)).text, '170k of 200k tokens');
    await h.send(batch([usageTurn({ used: 1_990_000, max: 2_000_000, fraction: 0.995 }, 'agent-0002')]));
    await h.probe();
    m = await meterOf(h);
    assert.deepEqual([m.level, m.text, m.now, m.max], ['full', '2M of 2M tokens', '1990000', '2000000']);
    c = await colours();
    assert.equal(hex(c.fill), c.error);
    await h.page
      .locator('header.panel-header')
      .screenshot({ path: join(SHOTS, 'panel-context-meter-full-dark.png') });
  });

  it('reads a share without counts in percent', async () => {
    h = await openHarness();
    const batch = await started(h);
    await h.send(batch([usageTurn({ fraction: 0.42 })]));
    await h.probe();
    const m = await meterOf(h);
    assert.deepEqual(
      [m.text, m.min, m.max, m.now, m.label],
      ['42% of context', '0', '100', '42', 'Context window: 42% used'],
    );
  });

  it('keeps a report it cannot read as a generic block and shows no meter', async () => {
    h = await openHarness();
    const t = liveTranscript();
    const cs = applyEvent(t, AGENT, eventFactory()('context.usage', { used_tokens: 'lots' }));
    assert.equal(t.turns[0].contextUsage, undefined);
    const batch = await started(h);
    await h.send(batch([{ type: 'block', turnId: AGENT, block: t.turns[0].blocks[0] }]));
    await h.probe();
    assert.deepEqual(cs.blocksCreated, ['context.usage#1']);
    assert.equal(await h.page.locator('.block[data-block-type="generic"]').count(), 1);
    assert.equal((await meterOf(h)).visible, false);
  });

  it('refuses a header whose reading it cannot draw (the host never sends one)', async () => {
    h = await openHarness();
    const batch = await started(h);
    await h.send(batch([usageTurn({ used: 1, max: 2, fraction: 7 })]));
    await h.frames();
    assert.equal((await meterOf(h)).visible, false);
  });

  for (const theme of ['light', 'high-contrast'] as Theme[]) {
    it(`looks like VS Code (${theme}): a screenshot of the header`, async () => {
      h = await openHarness({ theme });
      const batch = await started(h);
      await h.send(batch([usageTurn({ used: 18_432, max: 200_000, fraction: 0.09216 })]));
      await h.probe();
      assert.ok((await meterOf(h)).visible);
      await h.page
        .locator('header.panel-header')
        .screenshot({ path: join(SHOTS, `panel-context-meter-${theme}.png`) });
    });
  }
});
