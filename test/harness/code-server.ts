import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { addCleanup } from './cleanup';
import { harnessPaths } from './paths';
import { killTree, killTreeSync } from './process-tree';

/** How to start code-server (real VS Code 1.139.1, web workbench + Node 24 extension host). */
export interface CodeServerOptions {
  /** The folder code-server opens by default. */
  workspaceDir: string;
  /** Default: a fresh temp folder, removed by `stop()`. */
  extensionsDir?: string;
  /** Default: a fresh temp folder, removed by `stop()`. */
  userDataDir?: string;
  /** Merged over the offline test defaults into `<userDataDir>/User/settings.json`. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server, inherited by the extension host. */
  env?: Record<string, string>;
  /** 0 or absent: pick a free port. Always bound to 127.0.0.1. */
  port?: number;
  /** Pass `--vscode-option enable-smoke-test-driver` (needed for the `payload` test parameters). */
  smokeTestDriver?: boolean;
  /** A .vsix installed into the extensions folder before the server starts. */
  installVsix?: string;
  /** Unpacked extension folders (with a package.json) copied into the extensions folder and registered. */
  extraExtensions?: string[];
  /** How long to wait for /healthz, default 30 s. */
  startTimeoutMs?: number;
}

/** A running code-server. */
export interface CodeServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** code-server's process (the root of its process tree: the extension host runs under it). */
  readonly pid: number;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** code-server's stdout and stderr (inside the temp folder: gone after `stop()` unless DEN_KEEP_TEMP=1). */
  readonly logFile: string;
  /** Stops the whole process tree and removes the temp folders. Idempotent. */
  stop(): Promise<void>;
}

/** Settings for a quiet, offline workbench (docs/vscode-in-tests.md §2). */
export const OFFLINE_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': 'off',
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // Tests start from a fresh profile each time; the walkthrough is tested where it is wanted.
  'den.showWalkthroughOnFirstRun': false,
};

/**
 * For the test tiers only (not the demo a person uses): no motion and no blinking cursor, so a
 * workbench that waits repaints nothing (two workbenches share two cores in the e2e tier).
 */
export const STILL_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.reduceMotion': 'on',
  'editor.cursorBlinking': 'solid',
  'editor.smoothScrolling': false,
  'workbench.list.smoothScrolling': false,
};

const CONFIG_YAML = 'auth: none\ndisable-telemetry: true\ndisable-update-check: true\n';

/**
 * Copies unpacked extensions into an extensions folder and lists them in its `extensions.json`, as
 * an install would (e.g. the test-only stub language model, test/stub-model).
 */
function addExtensions(extensionsDir: string, folders: string[]): void {
  const listFile = path.join(extensionsDir, 'extensions.json');
  const list = fs.existsSync(listFile) ? (JSON.parse(fs.readFileSync(listFile, 'utf8')) as unknown[]) : [];
  for (const folder of folders) {
    const m = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
    };
    const rel = `${m.publisher}.${m.name}-${m.version}`;
    const target = path.join(extensionsDir, rel);
    fs.cpSync(folder, target, { recursive: true });
    list.push({
      identifier: { id: `${m.publisher}.${m.name}` },
      version: m.version,
      location: { $mid: 1, path: target, scheme: 'file' },
      relativeLocation: rel,
      metadata: { installedTimestamp: Date.now(), source: 'vsix' },
    });
  }
  fs.writeFileSync(listFile, JSON.stringify(list));
}

/** Extensions folders where code-server installed a .vsix, by the .vsix's path, size and time. */
const installs = new Map<string, Promise<string>>();

/**
 * Installs the .vsix with code-server's own `--install-extension` into a folder of its own, once per
 * process and package (it takes a whole code-server start); each server then gets a copy of that
 * installed folder (`copyInstalled`), as if installed into it.
 */
function installedOnce(vsix: string, env: NodeJS.ProcessEnv): Promise<string> {
  const file = path.resolve(vsix);
  const st = fs.statSync(file);
  const key = `${file}:${st.size}:${st.mtimeMs}`;
  let done = installs.get(key);
  if (!done) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-cs-installed-'));
    addCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    const paths = harnessPaths();
    const userData = path.join(dir, 'user-data');
    const extensions = path.join(dir, 'extensions');
    const config = path.join(dir, 'config.yaml');
    fs.writeFileSync(config, CONFIG_YAML);
    done = new Promise<string>((resolve, reject) => {
      execFile(
        paths.node24,
        [
          paths.codeServerEntry,
          '--config',
          config,
          '--user-data-dir',
          userData,
          '--extensions-dir',
          extensions,
          '--install-extension',
          file,
        ],
        { env, timeout: 60_000 },
        (err, stdout, stderr) =>
          err
            ? reject(new Error(`installing ${vsix} failed: ${err.message}\n${stdout}${stderr}`))
            : resolve(extensions),
      );
    });
    installs.set(key, done);
    done.catch(() => installs.delete(key));
  }
  return done;
}

/** Copies an installed extensions folder, pointing its `extensions.json` at the copy. */
function copyInstalled(from: string, to: string): void {
  for (const entry of fs.readdirSync(from)) {
    if (entry === 'extensions.json') continue;
    fs.cpSync(path.join(from, entry), path.join(to, entry), { recursive: true });
  }
  const list = path.join(from, 'extensions.json');
  if (fs.existsSync(list)) {
    const text = fs
      .readFileSync(list, 'utf8')
      .split(JSON.stringify(from).slice(1, -1))
      .join(JSON.stringify(to).slice(1, -1));
    fs.writeFileSync(path.join(to, 'extensions.json'), text);
  }
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitHealthy(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  logFile: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `code-server exited (${child.exitCode ?? child.signalCode}) before /healthz:\n${tail(logFile)}`,
      );
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs} ms:\n${tail(logFile)}`);
}

/**
 * Starts code-server on 127.0.0.1 with auth off, no gallery, test-friendly settings and Node 24 first
 * on PATH; resolves once /healthz answers. The caller must `stop()` it (exit/SIGINT/SIGTERM also do).
 */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const paths = harnessPaths();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'den-cs-'));
  const userDataDir = options.userDataDir ?? path.join(tmp, 'user-data');
  const extensionsDir = options.extensionsDir ?? path.join(tmp, 'extensions');
  const configFile = path.join(tmp, 'config.yaml');
  const logFile = path.join(tmp, 'code-server.log');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(configFile, CONFIG_YAML);
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...OFFLINE_SETTINGS, ...options.settings }, null, 2),
  );
  const removeTemp = (): void => {
    if (process.env.DEN_KEEP_TEMP === '1') return;
    fs.rmSync(tmp, { recursive: true, force: true });
  };

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // code-server keeps its own logs and heartbeat under $XDG_DATA_HOME/code-server: keep them per run
    XDG_DATA_HOME: path.join(tmp, 'xdg-data'),
    ...options.env,
    EXTENSIONS_GALLERY: '{"serviceUrl":""}',
    PATH: `${paths.node24Bin}${path.delimiter}${process.env.PATH ?? ''}`,
  };
  // npm's nodedir/user-agent variables point at Node 20 and would confuse anything code-server builds
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  const vsix = options.installVsix;
  try {
    if (vsix) copyInstalled(await installedOnce(vsix, env), extensionsDir);
  } catch (err) {
    removeTemp();
    throw err;
  }
  if (options.extraExtensions?.length) addExtensions(extensionsDir, options.extraExtensions);

  const port = options.port || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const args = [
    paths.codeServerEntry,
    ...common,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    ...(options.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    options.workspaceDir,
  ];
  const logFd = fs.openSync(logFile, 'a');
  // detached: its own process group, so stragglers that lose their parent can still be found
  const child = spawn(paths.node24, args, {
    cwd: options.workspaceDir,
    env,
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  fs.closeSync(logFd);
  child.unref();
  const pid = child.pid;
  if (pid === undefined) {
    removeTemp();
    throw new Error(`could not start ${paths.node24} ${paths.codeServerEntry}`);
  }
  const unregister = addCleanup(() => {
    killTreeSync(pid);
    removeTemp();
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      unregister();
      await killTree(pid);
      removeTemp();
    })());

  try {
    await waitHealthy(url, child, options.startTimeoutMs ?? 30_000, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, pid: child.pid ?? 0, userDataDir, extensionsDir, logFile, stop };
}
