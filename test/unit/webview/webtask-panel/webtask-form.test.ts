/**
 * The Web Task page's form in real (headless) Chromium with a fake VS Code API: the remembered form,
 * inline checks as the person types, the host's refusals, Run and Ctrl+Enter, schema files, the
 * passcode line and the draft kept across a reload. Needs Debian's Chromium (see browser-harness.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { EMPTY_WEB_TASK_FORM } from '../../../../src/protocol/webtask-panel/webtask-messages';
import { waitFor } from '../../../support/wait';
import type { Theme } from '../session-panel/browser-harness';
import { FORM, webTaskInit } from './webtask-factories';
import { closeBrowser, openWebTask, SHOTS, type WebTaskHarness } from './webtask-harness';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

const JSON_SCHEMA = JSON.stringify({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    name: { type: 'string', description: 'the product name' },
    price: { type: 'number', minimum: 0 },
  },
  required: ['name'],
});

describe('web task page: the form (Chromium)', function () {
  this.timeout(60_000);
  let h: WebTaskHarness;

  afterEach(async () => {
    await h?.close();
  });

  const runs = async () => (await h.posted()).filter((m) => m.type === 'run');

  it('posts ready on load and shows the form the host remembered, without errors', async () => {
    h = await openWebTask();
    assert.deepEqual(await h.posted(), [{ type: 'ready' }]);
    await h.send(webTaskInit({ form: { ...FORM, mode: 'deepsearch', blockAds: true }, passcodeSet: true }));
    const page = h.page;
    await waitFor('the form filled', async () => (await page.inputValue('#wt-appUrl')) === FORM.appUrl);
    assert.equal(await page.inputValue('#wt-query'), FORM.query);
    assert.equal(await page.inputValue('#wt-schemaText'), FORM.schemaText);
    assert.equal(await page.inputValue('#wt-maxCount'), '50');
    assert.equal(await page.inputValue('#wt-mode'), 'deepsearch');
    assert.equal(await page.isChecked('#wt-stream'), true);
    assert.equal(await page.isChecked('#wt-blockAds'), true);
    assert.equal(await page.locator('#wt-advanced').getAttribute('open'), '', 'an advanced option set: open');
    assert.equal(await page.locator('#wt-passcode-state').innerText(), 'Passcode: set');
    assert.equal(await page.locator('[aria-invalid="true"]').count(), 0);
    assert.equal(await page.locator('#wt-status').isVisible(), false);
    assert.equal(await page.locator('#wt-results').isVisible(), false);
  });

  it('ignores host messages that fail the protocol’s check', async () => {
    h = await openWebTask();
    await h.send(webTaskInit({ form: FORM }));
    await h.page.evaluate(() => {
      window.postMessage({ type: 'passcode', passcodeSet: 'yes' }, '*');
      window.postMessage({ type: 'status', status: { runId: 'r', phase: 'exploded' } }, '*');
      window.postMessage({ type: 'schema', schemaText: 1, schemaSource: '' }, '*');
      window.postMessage({ type: 'passcode', passcodeSet: true }, '*');
    });
    const page = h.page;
    await waitFor(
      'the valid message applied',
      async () => (await page.locator('#wt-passcode-state').innerText()) === 'Passcode: set',
    );
    assert.equal(await page.locator('#wt-status').isVisible(), false);
    assert.equal(await page.inputValue('#wt-schemaText'), FORM.schemaText);
  });

  it('says nothing about an untouched empty form, and shows a field’s error once it loses focus', async () => {
    h = await openWebTask();
    await h.send(webTaskInit());
    const page = h.page;
    await page.getByLabel('App URL').focus();
    assert.equal(await page.locator('.wt-error:visible').count(), 0);
    await page.getByLabel('App URL').fill('not a url');
    assert.equal(
      await page.locator('#wt-appUrl').getAttribute('aria-invalid'),
      null,
      'not while typing first',
    );
    await page.keyboard.press('Tab');
    const url = page.locator('#wt-appUrl');
    assert.equal(await url.getAttribute('aria-invalid'), 'true');
    assert.match((await url.getAttribute('aria-describedby')) ?? '', /\bwt-appUrl-error\b/);
    assert.match(await page.locator('#wt-appUrl-error').innerText(), /absolute address/);
    assert.equal(
      await page.locator('#wt-query').getAttribute('aria-invalid'),
      null,
      'the query is untouched',
    );
  });

  it('runs nothing while a field is bad, then posts exactly the form on Ctrl+Enter once fixed', async () => {
    h = await openWebTask();
    await h.send(webTaskInit());
    const page = h.page;
    await page.getByLabel('App URL').fill('ftp://shop.example');
    await page.getByRole('button', { name: 'Run' }).click();
    assert.deepEqual(await runs(), []);
    assert.equal(await page.locator('#wt-appUrl').getAttribute('aria-invalid'), 'true');
    assert.equal(
      await page.locator('#wt-query').getAttribute('aria-invalid'),
      'true',
      'every error after Run',
    );
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'wt-appUrl', 'the first bad field');

    await page.getByLabel('App URL').fill(FORM.appUrl);
    assert.equal(await page.locator('#wt-appUrl').getAttribute('aria-invalid'), null, 'fixed as typed');
    await page.getByLabel('Query').fill(FORM.query);
    await page.getByLabel('Schema', { exact: true }).fill(FORM.schemaText);
    await page.getByLabel('Max count').fill('50');
    await page.getByLabel('Mode').selectOption('deepsearch');
    await page.getByLabel('Streaming (status as the run goes)').uncheck();
    await page.locator('#wt-advanced > summary').click();
    await page.getByLabel('Solve CAPTCHAs').check();
    await page.getByLabel('Proxy country').fill('NO');
    await page.getByLabel('Query').press('Control+Enter');
    const [run] = await waitFor('the run posted', async () => {
      const r = await runs();
      return r.length > 0 && r;
    });
    assert.deepEqual(run, {
      type: 'run',
      form: {
        ...FORM,
        mode: 'deepsearch',
        stream: false,
        solveCaptchas: true,
        proxyCountry: 'NO',
      },
    });
  });

  it('opens Advanced and focuses a bad zip code hidden in it', async () => {
    h = await openWebTask();
    await h.send(webTaskInit({ form: { ...FORM, proxyZip: '' } }));
    const page = h.page;
    assert.equal(await page.locator('#wt-advanced').getAttribute('open'), null);
    await page.evaluate(() => {
      const zip = document.getElementById('wt-proxyZip') as HTMLInputElement;
      zip.value = 'N-0150';
      zip.dispatchEvent(new Event('input'));
    });
    await page.getByRole('button', { name: 'Run' }).click();
    assert.equal(await page.locator('#wt-advanced').getAttribute('open'), '');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'wt-proxyZip');
    assert.match(await page.locator('#wt-proxyZip-error').innerText(), /zip code as a number/);
    assert.deepEqual(await runs(), []);
  });

  it('shows the host’s refusals by field until the field is edited', async () => {
    h = await openWebTask();
    await h.send(webTaskInit({ form: FORM }));
    await h.send({
      type: 'formErrors',
      errors: { query: 'The service refused this query.', passcode: 'Set a passcode.' },
    });
    const page = h.page;
    const query = page.locator('#wt-query');
    await waitFor('the refusal shown', async () => (await query.getAttribute('aria-invalid')) === 'true');
    assert.equal(await page.locator('#wt-query-error').innerText(), 'The service refused this query.');
    assert.match((await query.getAttribute('aria-describedby')) ?? '', /\bwt-query-error\b/);
    assert.equal(await page.locator('#wt-form-error').innerText(), 'Set a passcode.');
    await query.fill('List the products on sale');
    assert.equal(await query.getAttribute('aria-invalid'), null);
    assert.equal(await page.locator('#wt-query-error').isVisible(), false);
  });

  it('asks for a schema file and shows the chosen one with what its conversion could not say', async () => {
    h = await openWebTask();
    await h.send(webTaskInit({ form: FORM }));
    const page = h.page;
    await page.getByRole('button', { name: 'Choose schema file…' }).click();
    await page.getByRole('button', { name: 'Set Passcode…' }).click();
    assert.deepEqual(
      (await h.posted()).map((m) => m.type),
      ['ready', 'pickSchema', 'setPasscode'],
    );
    await h.send(
      { type: 'schema', schemaText: JSON_SCHEMA, schemaSource: 'schemas/product.denschema.json' },
      { type: 'passcode', passcodeSet: true },
    );
    await waitFor('the schema shown', async () => (await page.inputValue('#wt-schemaText')) === JSON_SCHEMA);
    assert.equal(await page.locator('#wt-schema-source').innerText(), 'From schemas/product.denschema.json');
    const info = await page.locator('#wt-schema-info').innerText();
    assert.match(info, /^Converted from JSON Schema: 1 note, 2 things the service form cannot say/);
    assert.match(info, /\/properties\/price\/minimum/);
    assert.equal(await page.locator('#wt-passcode-state').innerText(), 'Passcode: set');
    await page.getByLabel('Schema', { exact: true }).press('End');
    await page.keyboard.type(' ');
    assert.equal(
      await page.locator('#wt-schema-source').innerText(),
      '',
      'edited text is no longer the file’s',
    );
    // Run posts the conversion beside the text: the host has no converter and runs only that.
    await page.getByRole('button', { name: 'Run' }).click();
    const [run] = await waitFor('the run posted', async () => {
      const r = await runs();
      return r.length > 0 && r;
    });
    assert.deepEqual(run, {
      type: 'run',
      form: { ...FORM, schemaText: `${JSON_SCHEMA} `, schemaSource: '' },
      schema: { name: 'the product name', price: 'price (number)' },
    });
  });

  it('keeps the draft across a reload, over the form the host remembered', async () => {
    h = await openWebTask();
    await h.send(webTaskInit({ form: FORM }));
    await h.page.getByLabel('Query').fill('A half-typed que');
    await h.page.locator('#wt-advanced > summary').click();
    await h.page.getByLabel('Block ads').check();
    const saved = await h.saved();
    await h.close();

    h = await openWebTask({ state: saved });
    await h.send(webTaskInit({ form: FORM }));
    await waitFor(
      'the draft shown',
      async () => (await h.page.inputValue('#wt-query')) === 'A half-typed que',
    );
    assert.equal(await h.page.isChecked('#wt-blockAds'), true);
    assert.equal(await h.page.inputValue('#wt-appUrl'), FORM.appUrl);
    // A later init (same page) is the host's to give.
    await h.send(webTaskInit({ form: EMPTY_WEB_TASK_FORM }));
    await waitFor('the host’s form', async () => (await h.page.inputValue('#wt-query')) === '');
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as Theme[]) {
    it(`looks like VS Code (${theme}): screenshot of the form with an error`, async () => {
      h = await openWebTask({ theme, height: 900 });
      await h.send(webTaskInit({ form: { ...FORM, appUrl: 'shop.example' }, passcodeSet: false }));
      await h.page.locator('#wt-advanced > summary').click();
      await h.page.getByRole('button', { name: 'Run' }).click();
      await h.page.screenshot({ path: join(SHOTS, `webtask-form-${theme}.png`), fullPage: true });
      assert.equal(await h.page.locator('#wt-appUrl-error').isVisible(), true);
    });
  }
});
