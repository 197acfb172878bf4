// @ts-check
// The TypeScript sources under a folder (no `.d.ts`), for the scripts that read `src/`.
'use strict';
const fs = require('fs');
const path = require('path');

/**
 * @param {string} dir
 * @returns {string[]}
 */
function listTs(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return listTs(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

module.exports = { listTs };
