/**
 * The Web Task form: labelled controls for every field of `WebTaskForm`, validated with the
 * shared `checkForm` as the person types (a field once it lost focus, every field after a Run
 * attempt), the host's `formErrors` shown the same way, and Run (button or Ctrl/Cmd+Enter) posting
 * the form only when it has no errors.
 */
import { l10n } from '../../core/shared/l10n';
import { readSchemaDocument } from '../../core/webtasks/json-schema';
import { checkForm, readSchemaText } from '../../protocol/webtask-panel/webtask-form';
import type { WebTaskForm } from '../../protocol/webtask-panel/webtask-messages';
import { clear, h } from '../shared/dom';
import type { WebTaskPost } from '../shared/post';
import { button } from './parts';
import { bounded } from './texts';

type Field = keyof WebTaskForm;
type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type Flag = 'stream' | 'blockAds' | 'solveCaptchas';

/** The fields with a control, in page order: the first bad one in this order gets the focus. */
const ORDER: Exclude<Field, 'schemaSource'>[] = [
  'appUrl',
  'query',
  'schemaText',
  'maxCount',
  'mode',
  'stream',
  'blockAds',
  'solveCaptchas',
  'proxyCity',
  'proxyCountry',
  'proxyState',
  'proxyZip',
];

/** Conversion notes and problems listed under the schema box, at most. */
const MAX_SCHEMA_ITEMS = 12;

export interface FormViewOptions {
  post: WebTaskPost;
  /** Called with the form after every change (the page saves it as the draft). */
  persist: (form: WebTaskForm) => void;
}

export class FormView {
  readonly el: HTMLFormElement;
  private form: WebTaskForm;
  private readonly controls = new Map<Field, Control>();
  private readonly errorEls = new Map<Field, HTMLElement>();
  private readonly hintIds = new Map<Field, string>();
  private readonly touched = new Set<Field>();
  private submitted = false;
  private hostErrors: Record<string, string> = {};
  private readonly general: HTMLElement;
  private readonly schemaSource: HTMLElement;
  private readonly schemaInfo: HTMLElement;
  private readonly advanced: HTMLDetailsElement;
  private readonly passcode: HTMLElement;
  private readonly runButton: HTMLButtonElement;
  private schemaInfoFor: string | undefined;

  constructor(
    private readonly options: FormViewOptions,
    form: WebTaskForm,
  ) {
    this.form = { ...form };
    const text = (attrs: Record<string, string> = {}): HTMLInputElement =>
      h('input', { attrs: { type: 'text', spellcheck: 'false', autocomplete: 'off', ...attrs } });
    this.schemaSource = h('span', { id: 'wt-schema-source', class: 'wt-note' });
    this.schemaInfo = h('div', { id: 'wt-schema-info', class: 'wt-schema-info' });
    this.general = h('div', { id: 'wt-form-error', class: 'wt-error', attrs: { role: 'alert' } });
    this.passcode = h('span', { id: 'wt-passcode-state' });
    this.runButton = h('button', {
      id: 'wt-run',
      text: l10n.t('Run'),
      attrs: { type: 'button', 'aria-keyshortcuts': 'Control+Enter Meta+Enter' },
      on: { click: () => this.run() },
    });
    const mode = h('select', {}, [
      h('option', { text: l10n.t('Service default'), attrs: { value: '' } }),
      h('option', { text: l10n.t('deepsearch (experimental)'), attrs: { value: 'deepsearch' } }),
    ]);
    this.advanced = h('details', { id: 'wt-advanced', class: 'wt-advanced' }, [
      h('summary', {}, [
        l10n.t('Advanced '),
        h('span', { class: 'wt-experimental', text: l10n.t('Experimental (the service says so)') }),
      ]),
      h('div', { class: 'wt-checks' }, [
        this.check('blockAds', l10n.t('Block ads')),
        this.check('solveCaptchas', l10n.t('Solve CAPTCHAs')),
      ]),
      h('div', { class: 'wt-grid' }, [
        this.field('proxyCity', l10n.t('Proxy city'), text()),
        this.field('proxyCountry', l10n.t('Proxy country'), text()),
        this.field('proxyState', l10n.t('Proxy state'), text()),
        this.field('proxyZip', l10n.t('Proxy zip'), text({ inputmode: 'numeric' })),
      ]),
    ]);
    this.el = h(
      'form',
      {
        id: 'wt-form',
        class: 'wt-form',
        attrs: { novalidate: '', 'aria-labelledby': 'wt-form-title' },
        on: {
          submit: (e) => e.preventDefault(),
          keydown: (e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              this.run();
            }
          },
        },
      },
      [
        h('h2', { id: 'wt-form-title', text: l10n.t('Web task') }),
        this.field(
          'appUrl',
          l10n.t('App URL'),
          h('input', {
            attrs: {
              type: 'url',
              spellcheck: 'false',
              autocomplete: 'url',
              placeholder: 'https://example.com',
            },
          }),
        ),
        this.field(
          'query',
          l10n.t('Query'),
          h('textarea', { attrs: { rows: '3' } }),
          l10n.t('What the task should find or do, in plain words.'),
        ),
        this.field(
          'schemaText',
          l10n.t('Schema'),
          h('textarea', { class: 'wt-code', attrs: { rows: '6', spellcheck: 'false' } }),
          l10n.t('JSON: each field name with a description of what it holds, or a JSON Schema. Optional.'),
          [
            h('div', { class: 'wt-row' }, [
              button('wt-pick-schema', l10n.t('Choose schema file…'), () =>
                this.options.post({ type: 'pickSchema' }),
              ),
              this.schemaSource,
            ]),
            this.schemaInfo,
          ],
        ),
        h('div', { class: 'wt-grid' }, [
          this.field(
            'maxCount',
            l10n.t('Max count'),
            text({ inputmode: 'numeric' }),
            l10n.t('Most records to return. Optional.'),
          ),
          this.field('mode', l10n.t('Mode'), mode, l10n.t('How the service works on the task.')),
        ]),
        h('div', { class: 'wt-checks' }, [
          this.check('stream', l10n.t('Streaming (status as the run goes)')),
        ]),
        this.advanced,
        this.general,
        h('div', { class: 'wt-actions' }, [
          this.runButton,
          h('span', {
            class: 'wt-note',
            text: l10n.t(
              '{0}+Enter runs from anywhere in the form.',
              /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl',
            ),
          }),
          h('span', { class: 'wt-passcode' }, [
            this.passcode,
            button('wt-set-passcode', l10n.t('Set Passcode…'), () =>
              this.options.post({ type: 'setPasscode' }),
            ),
          ]),
        ]),
      ],
    );
    this.general.hidden = true;
    this.setPasscode(false);
    this.write();
  }

  /** The form as typed. */
  value(): WebTaskForm {
    return { ...this.form };
  }

  /** Replaces the whole form (the host's remembered form, or the saved draft). */
  setForm(form: WebTaskForm): void {
    this.form = { ...form };
    this.hostErrors = {};
    this.write();
    this.options.persist(this.value());
  }

  /** A chosen schema file's text and path replace the schema. */
  setSchema(schemaText: string, schemaSource: string): void {
    this.form.schemaText = schemaText;
    this.form.schemaSource = schemaSource;
    delete this.hostErrors.schemaText;
    this.touched.add('schemaText');
    this.write();
    this.options.persist(this.value());
  }

  /** The host refused the run: its messages, shown until the field is edited. */
  setHostErrors(errors: Record<string, string>): void {
    this.hostErrors = { ...errors };
    this.validate();
    this.focusFirstError();
  }

  setPasscode(set: boolean): void {
    this.passcode.textContent = set ? l10n.t('Passcode: set') : l10n.t('Passcode: not set');
    this.passcode.dataset.set = String(set);
  }

  /** Runs when the form has no errors; else shows them all and focuses the first. */
  run(): void {
    this.submitted = true;
    const errors = this.validate();
    if (errors > 0) {
      this.focusFirstError();
      return;
    }
    const form = this.value();
    const read = readSchemaText(form.schemaText, readSchemaDocument).schema;
    this.options.post(
      read?.source === 'json-schema' ? { type: 'run', form, schema: read.schema } : { type: 'run', form },
    );
  }

  private field(
    key: Field,
    label: string,
    control: Control,
    hint?: string,
    extra: HTMLElement[] = [],
  ): HTMLElement {
    control.id = `wt-${key}`;
    control.setAttribute('name', key);
    this.controls.set(key, control);
    control.addEventListener('input', () => this.edited(key, control.value));
    control.addEventListener('blur', (e) => {
      this.touched.add(key);
      // Leaving for Run: its click checks everything; an error shown now would move the button
      // away between mouse down and up, and the click would be lost.
      if ((e as FocusEvent).relatedTarget !== this.runButton) this.validate();
    });
    const error = h('div', { id: `wt-${key}-error`, class: 'wt-error' });
    error.hidden = true;
    this.errorEls.set(key, error);
    const parts: HTMLElement[] = [h('label', { text: label, attrs: { for: control.id } })];
    if (hint) {
      this.hintIds.set(key, `wt-${key}-hint`);
      parts.push(h('div', { id: `wt-${key}-hint`, class: 'wt-note', text: hint }));
    }
    return h('div', { class: 'wt-field', attrs: { 'data-field': key } }, [
      ...parts,
      control,
      error,
      ...extra,
    ]);
  }

  private check(key: Flag, label: string): HTMLElement {
    const box = h('input', { id: `wt-${key}`, attrs: { type: 'checkbox', name: key } });
    this.controls.set(key, box);
    box.addEventListener('change', () => {
      this.form[key] = box.checked;
      this.options.persist(this.value());
    });
    return h('label', { class: 'wt-check' }, [box, ` ${label}`]);
  }

  private edited(key: Field, value: string): void {
    (this.form as Record<Field, string | boolean>)[key] = value;
    delete this.hostErrors[key];
    if (key === 'schemaText' && this.form.schemaSource) {
      // Edited text is no longer the file's.
      this.form.schemaSource = '';
      this.showSchemaSource();
    }
    this.validate();
    this.options.persist(this.value());
  }

  /** Writes the form into the controls. */
  private write(): void {
    for (const key of ORDER) {
      const c = this.controls.get(key);
      const v = this.form[key];
      if (c instanceof HTMLInputElement && c.type === 'checkbox') c.checked = v === true;
      else if (c instanceof HTMLSelectElement) {
        const mode = String(v);
        if (![...c.options].some((o) => o.value === mode))
          c.append(h('option', { text: mode, attrs: { value: mode } }));
        c.value = mode;
      } else if (c) c.value = String(v);
    }
    if (
      this.form.blockAds ||
      this.form.solveCaptchas ||
      ORDER.some((k) => k.startsWith('proxy') && this.form[k])
    )
      this.advanced.open = true;
    this.showSchemaSource();
    this.validate();
  }

  private showSchemaSource(): void {
    this.schemaSource.textContent = this.form.schemaSource ? l10n.t('From {0}', this.form.schemaSource) : '';
    this.schemaSource.title = this.form.schemaSource;
  }

  /** Shows the errors due now; returns how many errors the form has (shown or not). */
  private validate(): number {
    const check = checkForm(this.form, readSchemaDocument);
    for (const key of ORDER) {
      const local = this.submitted || this.touched.has(key) ? check.errors[key] : undefined;
      this.showError(key, this.hostErrors[key] ?? local);
    }
    const other = Object.entries(this.hostErrors).filter(([k]) => !this.controls.has(k as Field));
    this.general.textContent = other.map(([, msg]) => msg).join(' ');
    this.general.hidden = other.length === 0;
    this.showSchemaInfo();
    return Object.keys(check.errors).length + Object.keys(this.hostErrors).length;
  }

  private showError(key: Field, message: string | undefined): void {
    const c = this.controls.get(key);
    const e = this.errorEls.get(key);
    if (!c || !e) return;
    e.textContent = message ?? '';
    e.hidden = !message;
    const described = [this.hintIds.get(key), message ? e.id : undefined].filter(Boolean).join(' ');
    if (message) c.setAttribute('aria-invalid', 'true');
    else c.removeAttribute('aria-invalid');
    if (described) c.setAttribute('aria-describedby', described);
    else c.removeAttribute('aria-describedby');
  }

  private focusFirstError(): void {
    const bad = ORDER.find((k) => this.controls.get(k)?.getAttribute('aria-invalid') === 'true');
    const c = bad ? this.controls.get(bad) : undefined;
    if (!c) return;
    if (this.advanced.contains(c)) this.advanced.open = true;
    c.focus();
  }

  /** What converting a JSON Schema filled in or could not say, under the schema box. */
  private showSchemaInfo(): void {
    if (this.schemaInfoFor === this.form.schemaText) return;
    this.schemaInfoFor = this.form.schemaText;
    clear(this.schemaInfo);
    const doc = readSchemaText(this.form.schemaText, readSchemaDocument).schema;
    if (!doc || doc.source !== 'json-schema' || doc.notes.length + doc.problems.length === 0) return;
    this.schemaInfo.append(
      h('div', {
        text: l10n.t(
          'Converted from JSON Schema: {0}, {1} the service form cannot say',
          doc.notes.length === 1
            ? l10n.t('1 note')
            : l10n.t('{0} notes', doc.notes.length.toLocaleString('en-US')),
          doc.problems.length === 1
            ? l10n.t('1 thing')
            : l10n.t('{0} things', doc.problems.length.toLocaleString('en-US')),
        ),
      }),
    );
    const items = [
      ...doc.problems.map((p) => ({ ...p, kind: 'problem' })),
      ...doc.notes.map((n) => ({ ...n, kind: 'note' })),
    ];
    const { shown, more } = bounded(items, MAX_SCHEMA_ITEMS);
    const list = h(
      'ul',
      {},
      shown.map((i) =>
        h('li', { class: `wt-schema-${i.kind}` }, [
          h('code', { text: i.pointer || '/' }),
          ` ${i.kind === 'problem' ? l10n.t('cannot say: ') : ''}${i.message}`,
        ]),
      ),
    );
    if (more > 0) list.append(h('li', { text: l10n.t('and {0} more', more) }));
    this.schemaInfo.append(list);
  }
}
