/**
 * Runs the emulator as a process for UI tests and the demo:
 *   node dist/test/emulator/cli.js [--port N] [--extra-sessions N] [--variant legacy] [--state-snapshot]
 *     [--no-seed] [--lam-sessions]
 * Prints the URL and the three keys, then runs until SIGINT/SIGTERM.
 */
import { startEmulator } from './index';
import type { EmulatorOptions } from './types';

function parseArgs(argv: string[]): EmulatorOptions {
  const opts: EmulatorOptions = {};
  const num = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < 0)
      throw new Error(`${flag} needs a non-negative integer`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = num(a, argv[++i]);
    else if (a === '--extra-sessions') opts.extraSessions = num(a, argv[++i]);
    else if (a === '--variant') {
      const v = argv[++i];
      if (v !== 'legacy' && v !== 'current') throw new Error('--variant is "legacy" or "current"');
      opts.variant = v;
    } else if (a === '--state-snapshot') opts.stateSnapshot = true;
    else if (a === '--no-seed') opts.seed = false;
    else if (a === '--lam-sessions') opts.lamSessions = true;
    else throw new Error(`Unknown argument ${a}`);
  }
  return opts;
}

async function main(): Promise<void> {
  const emulator = await startEmulator(parseArgs(process.argv.slice(2)));
  process.stdout.write(
    [
      `URL: ${emulator.url}`,
      `API key: ${emulator.keys.primary}`,
      `Second user's key: ${emulator.keys.second}`,
      `Read-only key: ${emulator.keys.readOnly}`,
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`emulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
