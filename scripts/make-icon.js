// @ts-check
// Renders media/icon.png (128×128, the Marketplace icon) from media/den.svg in headless Chromium:
// the activity-bar glyph, white on Den's blue, with rounded corners. Run after editing the glyph:
//   node esbuild.js --tests && node scripts/make-icon.js
const fs = require('fs');
const path = require('path');
// Built by `node esbuild.js --tests`; a computed path, so the type check does not need dist/.
const built = '../dist/test/harness/chromium';
/** @type {typeof import('../test/harness/chromium')} */
const { launchChromium } = require(built);

(async () => {
  const svg = fs
    .readFileSync(path.join(__dirname, '..', 'media', 'den.svg'), 'utf8')
    .replace('currentColor', '#ffffff');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">` +
        `<div style="width:128px;height:128px;border-radius:24px;background:#1f5f99;display:flex;align-items:center;justify-content:center">` +
        `<img style="width:92px;height:92px" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></div></body></html>`,
    );
    await page.screenshot({ path: path.join(__dirname, '..', 'media', 'icon.png'), omitBackground: true });
  } finally {
    await browser.close();
  }
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
