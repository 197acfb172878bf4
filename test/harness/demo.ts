import fs from 'node:fs';
import path from 'node:path';
import { startEmulator, type Emulator } from '../emulator';
import { webTaskSampleFiles } from '../emulator/web-task-sample';
import { ROUND_TRIP_SAMPLE } from '../emulator/write-back';
import { startCodeServer, type CodeServer } from './code-server';
import { repoRoot } from './paths';

/**
 * `npm run demo`: the local emulator of the service plus code-server (real VS Code in the browser)
 * with the packaged Den installed, pointed at the emulator and signed in to it (the key goes through
 * SecretStorage), both on 127.0.0.1. Prints the URL to open and the demo keys, then runs until
 * Ctrl+C, stopping everything it started.
 */
async function main(): Promise<void> {
  const root = repoRoot();
  const vsix = path.join(root, 'dist', 'den.vsix');
  if (!fs.existsSync(vsix)) throw new Error(`missing ${vsix}: run npm run package first`);
  const emulatorPort = Number(process.env.DEN_DEMO_EMULATOR_PORT || 7357);
  const editorPort = Number(process.env.DEN_DEMO_PORT || 8080);

  const workspaceDir = path.join(root, '.den-demo', 'workspace');
  const samples: Record<string, string> = {
    'src/greet.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n',
    // The round trip (README): attach it, send a code turn, edit its TODO line, apply the turn.
    'src/total.ts': ROUND_TRIP_SAMPLE.content,
    // Web tasks (README): run one with this schema file, rerun it, compare.
    ...webTaskSampleFiles(),
  };
  for (const [name, text] of Object.entries(samples)) {
    const sample = path.join(workspaceDir, name);
    fs.mkdirSync(path.dirname(sample), { recursive: true });
    if (!fs.existsSync(sample)) fs.writeFileSync(sample, text);
  }

  // Ctrl+C reaches this process twice: from the terminal (the whole process group) and forwarded by
  // `npm run`. Every signal is handled; the first one says so and stops what was started; the
  // harness's own clean-up (test/harness/cleanup.ts, registered later) then ends code-server's tree
  // synchronously and exits, even if the stop is still under way.
  const started: { editor?: CodeServer; emulator?: Emulator } = {};
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      console.log('\nStopping the demo…');
      await started.editor?.stop();
      await started.emulator?.close();
      process.exit(0);
    })());
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void stop()); // SIGHUP: the terminal was closed

  const emulator = (started.emulator = await startEmulator({
    port: emulatorPort,
    eventDelayMs: 40,
    lamSessions: true,
  }));
  const editor = (started.editor = await startCodeServer({
    workspaceDir,
    port: editorPort,
    installVsix: vsix,
    // A new person's first minutes: Den opens its walkthrough in the empty editor area.
    settings: {
      'den.baseUrl': emulator.url,
      'workbench.startupEditor': 'none',
      'den.showWalkthroughOnFirstRun': true,
    },
    // Den stores it in SecretStorage on its first start (src/editor/platform/demo-key.ts): signed in already.
    env: { DEN_DEMO_API_KEY: emulator.keys.primary },
  }));

  console.log(`
Den demo is running.

  Open in a browser:   ${editor.url}/?folder=${encodeURIComponent(workspaceDir)}
  Service (emulator):  ${emulator.url}   (already set as den.baseUrl)
  Demo API key:        ${emulator.keys.primary}
  Second user's key:   ${emulator.keys.second}
  Read-only key:       ${emulator.keys.readOnly}

Den starts signed in with the demo key (kept in the editor's SecretStorage): click the Den icon in
the activity bar and a session to open it. After Den: Sign Out, "Set API Key" takes a key again.
Both servers listen on 127.0.0.1 only; from another machine use an SSH tunnel
(ssh -L ${editorPort}:127.0.0.1:${editorPort} …). The emulator plays back scripted turns; it is not an agent.
Press Ctrl+C to stop.`);
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
