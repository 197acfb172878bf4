// @ts-check
// Import cycles in src/, type-only imports included (ESLint's import-x/no-cycle follows value
// imports only; a type-level cycle still ties two files together). Uses TypeScript's own import
// scanner. `node scripts/check-cycles.js [dir]` prints each cycle and exits 1 if there is one.
'use strict';
const fs = require('fs');
const path = require('path');
const ts = require('typescript');
const { listTs } = require('./lib/list-ts');

/**
 * @param {string} from
 * @param {string} spec
 * @returns {string | undefined}
 */
function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [`${base}.ts`, base, path.join(base, 'index.ts')]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return undefined;
}

/**
 * The strongly connected groups of more than one file (Tarjan), each sorted.
 * @param {string} dir
 * @returns {string[][]}
 */
function findCycles(dir) {
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  for (const file of listTs(dir)) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const deps = importedFiles
      .filter((i) => i.fileName.startsWith('.'))
      .map((i) => resolve(file, i.fileName))
      .filter(/** @returns {f is string} */ (f) => f !== undefined && f !== file);
    graph.set(file, deps);
  }
  let next = 0;
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  /** @type {Set<string>} */
  const onStack = new Set();
  /** @type {string[][]} */
  const groups = [];
  /** A visited file's number (set before it is read). @param {Map<string, number>} m @param {string} f */
  const at = (m, f) => /** @type {number} */ (m.get(f));
  /** @param {string} v */
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(at(low, v), at(low, w)));
      } else if (onStack.has(w)) low.set(v, Math.min(at(low, v), at(index, w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do {
      w = /** @type {string} */ (stack.pop());
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return groups;
}

module.exports = { findCycles };

if (require.main === module) {
  const dir = path.resolve(process.argv[2] ?? 'src');
  const cycles = findCycles(dir);
  for (const c of cycles) {
    console.error(`import cycle: ${c.map((f) => path.relative(process.cwd(), f)).join(' ⇄ ')}`);
  }
  process.exit(cycles.length ? 1 : 0);
}
