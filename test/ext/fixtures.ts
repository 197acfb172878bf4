/**
 * The signed-in fixture of the extension-host tests: test/support/signed-in.ts's recipe, driven
 * through VS Code. `useDen(options)` in a `describe` gives each test its own emulator (optionally
 * behind a recording proxy), Den reset and signed in to it, its notifications captured, and undoes
 * all of it after the test.
 */
import * as vscode from 'vscode';
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator';
import { signedIn, type DenDriver, type Service, type SignedIn } from '../support/signed-in';
import { type ContextTracker, trackContext } from './context-helpers';
import { denApi, type DenApi } from './den-api';
import { captureMessages, type MessageCapture } from './message-helpers';
import { type RecordingProxy, startRecordingProxy } from './network-helpers';
import { type PanelSpy, spyOnPanels } from './panel-helpers';
import { resetDen, signIn } from './sign-in-helpers';

export interface DenTestOptions {
  /** Sign Den in before each test (default), or leave it reset and signed out. */
  signIn?: boolean;
  /** Record the context keys Den sets (`context`). */
  trackContext?: boolean;
  /** Record `panels.open` calls (`panels`). */
  spyOnPanels?: boolean;
}

/** What a test watches, set up before Den is reset and undone after it is reset again. */
interface Watched {
  messages: MessageCapture;
  context?: ContextTracker;
  panels?: PanelSpy;
}

/** The current test's Den and service, read inside a test or its hooks. */
export interface DenTest<S extends Service> {
  readonly api: DenApi;
  readonly service: S;
  /** Den's notifications since the test began; assign a new capture after restoring this one. */
  messages: MessageCapture;
  /** With `trackContext`. */
  readonly context: ContextTracker;
  /** With `spyOnPanels`. */
  readonly panels: PanelSpy;
}

/** A test's emulator, and the recording proxy in front of it when Den signs in through one. */
export interface EmulatorService extends Service {
  readonly emu: Emulator;
  readonly proxy?: RecordingProxy;
}

export interface EmulatorDenTest extends DenTest<EmulatorService> {
  readonly emu: Emulator;
  /** With `through: 'proxy'`: the proxy Den is signed in through. */
  readonly proxy: RecordingProxy;
  /** Closes the test's emulator (if still open) and starts one with `options` in its place; Den is left as it is. */
  replaceEmulator(options?: EmulatorOptions): Promise<Emulator>;
  /** `replaceEmulator`, then Den reset and signed in to the new emulator. */
  restart(options?: EmulatorOptions): Promise<void>;
}

function driver(options: DenTestOptions): DenDriver<DenApi, Watched> {
  return {
    activate: denApi,
    watch: (api, defer) => {
      const watched: Watched = { messages: captureMessages() };
      defer(() => watched.messages.restore());
      if (options.trackContext) {
        const context = (watched.context = trackContext());
        defer(() => context.restore());
      }
      if (options.spyOnPanels) {
        const panels = (watched.panels = spyOnPanels(api));
        defer(() => panels.restore());
      }
      return watched;
    },
    reset: async (api, keepAddress) => {
      api.panels.closeAll();
      // (closing no editor still costs a round trip to the workbench)
      if (vscode.window.tabGroups.all.some((g) => g.tabs.length > 0)) {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      }
      await resetDen(api, { keepAddress });
    },
    signIn: (api, service) => signIn(api, service.url, service.key),
  };
}

class DenTestOf<S extends Service> implements DenTest<S> {
  constructor(protected readonly den: SignedIn<DenApi, S, Watched>) {}
  get api(): DenApi {
    return this.den.api;
  }
  get service(): S {
    return this.den.service;
  }
  get messages(): MessageCapture {
    return this.den.watched.messages;
  }
  set messages(capture: MessageCapture) {
    this.den.watched.messages = capture;
  }
  get context(): ContextTracker {
    return needs(this.den.watched.context, '{ trackContext: true }');
  }
  get panels(): PanelSpy {
    return needs(this.den.watched.panels, '{ spyOnPanels: true }');
  }
}

class EmulatorDenTestOf extends DenTestOf<EmulatorService> implements EmulatorDenTest {
  constructor(
    den: SignedIn<DenApi, EmulatorService, Watched>,
    private readonly start: (options?: EmulatorOptions) => Promise<EmulatorService>,
  ) {
    super(den);
  }
  get emu(): Emulator {
    return this.den.service.emu;
  }
  get proxy(): RecordingProxy {
    return needs(this.den.service.proxy, "{ through: 'proxy' }");
  }
  async replaceEmulator(options?: EmulatorOptions): Promise<Emulator> {
    return (await this.den.replaceService(() => this.start(options))).emu;
  }
  async restart(options?: EmulatorOptions): Promise<void> {
    await this.den.restart(() => this.start(options));
  }
}

function needs<T>(value: T | undefined, option: string): T {
  if (value === undefined) throw new Error(`useDen: pass ${option} to read this`);
  return value;
}

/**
 * Each test gets its own emulator started with `emulator`, Den signed in to it (through a recording
 * proxy with `through: 'proxy'`) with the primary key.
 */
export function useDen(
  options: DenTestOptions & { emulator?: EmulatorOptions; through?: 'proxy' } = {},
): EmulatorDenTest {
  const start = async (emulatorOptions = options.emulator): Promise<EmulatorService> => {
    const emu = await startEmulator(emulatorOptions);
    const proxy =
      options.through === 'proxy'
        ? await startRecordingProxy(emu.url).catch(async (err: unknown) => {
            await emu.close();
            throw err;
          })
        : undefined;
    return {
      emu,
      proxy,
      url: proxy?.url ?? emu.url,
      key: emu.keys.primary,
      close: async () => {
        await proxy?.close();
        await emu.close();
      },
    };
  };
  return new EmulatorDenTestOf(signedIn(driver(options), { start, signIn: options.signIn }), start);
}

/** Each test gets its own service from `start` (e.g. an emulator in a process of its own). */
export function useDenWith<S extends Service>(
  start: () => Promise<S>,
  options: DenTestOptions = {},
): DenTest<S> {
  return new DenTestOf(signedIn(driver(options), { start, signIn: options.signIn }));
}
