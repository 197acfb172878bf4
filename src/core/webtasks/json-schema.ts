import { l10n } from '../shared/l10n';
/**
 * JSON Schema (the draft-07 / 2020-12 subset a schema of records uses) → the service's schema form.
 * The service's form knows only field names, descriptions and nesting, so a conversion keeps what it
 * can and reports the rest: `notes` say what was filled in (a description taken from `title` or
 * the property name), `problems` what could not be expressed (each with the JSON pointer of the
 * keyword in the input). Nothing is dropped silently. Rules (docs/web-tasks.md):
 *
 * - `properties` become fields, in order; `description` is the field's string, else `title`, else
 *   the property name with a type hint (`price (number)`), with a note.
 * - an object with `properties` becomes a nested schema; an object without becomes a text field.
 * - an array of objects becomes its item's fields (the form has no list; a problem says so); an
 *   array of anything else becomes one text field (a problem too).
 * - `$ref` to `#/definitions/…` or `#/$defs/…` is followed; a cycle or another target is a problem
 *   and the field stays a text field. `allOf` of one schema, and `anyOf`/`oneOf`/type lists that only
 *   add `null`, are unwrapped; other combinations are problems.
 * - constraints (`enum`, `const`, `format`, `pattern`, `required`, bounds, `additionalProperties`,
 *   `default`, …) are problems: the service cannot be told them, and results are not held to them.
 * - annotations (`$schema`, `$id`, `$comment`, `title`, `examples`, `readOnly`, …) are ignored.
 */
import { isRecord } from '../shared/schema';
import { MAX_SCHEMA_DEPTH, serviceSchemaErrors, type ServiceSchema } from './service-schema';

/** Something a conversion filled in or could not express, at a JSON pointer into the input. */
export interface ConversionIssue {
  pointer: string;
  message: string;
}

export interface Conversion {
  /** The service schema (possibly empty when nothing could be converted: see `problems`). */
  schema: ServiceSchema;
  /** What was filled in, such as a description made from a property name. */
  notes: ConversionIssue[];
  /** What the service's form cannot express; the schema is usable but says less than the input. */
  problems: ConversionIssue[];
}

/** Keywords that describe rather than constrain: dropping them loses nothing the service could use. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  'title',
  'description',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'definitions',
  '$defs',
]);
/** Keywords the conversion itself reads. */
const STRUCTURE = new Set(['type', 'properties', 'items', '$ref', 'allOf', 'anyOf', 'oneOf']);

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/** A JSON pointer segment (`~` → `~0`, `/` → `~1`). */
const seg = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unseg = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

class Converter {
  readonly notes: ConversionIssue[] = [];
  readonly problems: ConversionIssue[] = [];
  /** `$ref` targets being expanded, for cycles. */
  readonly #expanding: string[] = [];

  readonly #doc: Record<string, unknown>;
  constructor(doc: Record<string, unknown>) {
    this.#doc = doc;
  }

  problem(pointer: string, message: string): void {
    this.problems.push({ pointer: pointer || '/', message });
  }

  note(pointer: string, message: string): void {
    this.notes.push({ pointer: pointer || '/', message });
  }

  /** The top: an object schema (or an array of one, converted to its item). */
  root(): ServiceSchema {
    const { node, at, release } = this.#resolve(this.#doc, '');
    try {
      if (node === undefined) return {};
      const kind = this.#kind(node, at);
      if (kind === 'object') return this.#object(node, at, 1);
      if (kind === 'array' && isRecord(node.items)) {
        this.#otherKeywords(node, at);
        this.problem(
          at,
          l10n.t('a list of records: the service returns a list anyway, so its item is converted'),
        );
        return this.#listItemRoot(node.items, `${at}/items`);
      }
      this.problem(at, l10n.t('the top of a schema must be an object with `properties`'));
      return {};
    } finally {
      release();
    }
  }

  #listItemRoot(node: Record<string, unknown>, at: string): ServiceSchema {
    const r = this.#resolve(node, at);
    try {
      if (r.node && this.#kind(r.node, r.at) === 'object') return this.#object(r.node, r.at, 1);
      this.problem(at, l10n.t('the list item must be an object with `properties`'));
      return {};
    } finally {
      r.release();
    }
  }

  /** The fields of an object schema. */
  #object(node: Record<string, unknown>, at: string, depth: number): ServiceSchema {
    this.#otherKeywords(node, at);
    const out: ServiceSchema = {};
    const props = node.properties;
    if (!isRecord(props)) return out;
    for (const [name, sub] of Object.entries(props)) {
      const p = `${at}/properties/${seg(name)}`;
      if (name.trim() === '') {
        this.problem(p, l10n.t('a property with an empty name cannot be a field; left out'));
        continue;
      }
      out[name] = this.#field(name, sub, p, depth);
    }
    return out;
  }

  /** One property: a description string or a nested schema. */
  #field(name: string, raw: unknown, at: string, depth: number): string | ServiceSchema {
    if (raw === true || raw === false || !isRecord(raw)) {
      this.problem(at, l10n.t('not a schema object (a boolean schema says nothing about the field)'));
      return this.#describe(name, {}, at, undefined);
    }
    const { node, at: where, release, outer } = this.#resolve(raw, at);
    try {
      if (node === undefined) return this.#describe(name, raw, at, undefined);
      // A description next to a `$ref` describes this use of the target: it wins.
      const own = { ...node, ...pickText(outer) };
      const kind = this.#kind(node, where);
      if (kind === 'object' && isRecord(node.properties) && Object.keys(node.properties).length > 0) {
        if (depth >= MAX_SCHEMA_DEPTH) {
          this.problem(
            where,
            l10n.t('nests deeper than {0} levels; kept as one text field', MAX_SCHEMA_DEPTH),
          );
          return this.#describe(name, own, where, kind);
        }
        this.#descriptionLost(raw, at, node, where);
        return this.#object(node, where, depth + 1);
      }
      if (kind === 'array') {
        this.#otherKeywords(node, where);
        const items = node.items;
        if (isRecord(items)) {
          const item = this.#resolve(items, `${where}/items`);
          try {
            if (item.node && this.#kind(item.node, item.at) === 'object' && isRecord(item.node.properties)) {
              this.problem(
                where,
                l10n.t(
                  'a list of objects: the service schema has no list form, so the item’s fields are asked for',
                ),
              );
              this.#descriptionLost(raw, at, node, where);
              const nested = this.#object(item.node, item.at, depth + 1);
              if (Object.keys(nested).length > 0) return nested;
              return this.#describe(name, own, where, kind);
            }
            if (item.node) this.#otherKeywords(item.node, item.at);
          } finally {
            item.release();
          }
        } else if (items !== undefined) {
          this.problem(`${where}/items`, l10n.t('a tuple (`items` as a list) cannot be expressed'));
        }
        this.problem(
          where,
          l10n.t('a list of values: the service schema has no list form; asked for as one text field'),
        );
        return this.#describe(name, own, where, kind);
      }
      if (kind === 'object') {
        this.#otherKeywords(node, where);
        this.problem(where, l10n.t('an object without `properties`: asked for as one text field'));
        return this.#describe(name, own, where, kind);
      }
      this.#otherKeywords(node, where);
      return this.#describe(name, own, where, kind);
    } finally {
      release();
    }
  }

  /** The field's string: its description, else its title, else its name with a type hint (noted). */
  #describe(name: string, node: Record<string, unknown>, at: string, kind: string | undefined): string {
    const d = text(node.description) ?? text(node.title);
    if (d !== undefined) return d;
    const hint =
      kind && kind !== 'string' && kind !== 'object' ? ` (${kind === 'integer' ? 'number' : kind})` : '';
    const made = `${name}${hint}`;
    this.note(at, l10n.t('no description: the field is described as "{0}"', made));
    return made;
  }

  /** A nested object's own description has no place in the service's form. */
  #descriptionLost(
    outer: Record<string, unknown>,
    at: string,
    node: Record<string, unknown>,
    where: string,
  ): void {
    const [n, p] = text(outer.description) !== undefined ? [outer, at] : [node, where];
    if (text(n.description) !== undefined) {
      this.note(
        `${p}/description`,
        l10n.t('the description of an object has no place in the service schema'),
      );
    }
  }

  /** The type a node has: `type` (a null-only alternative removed) or what its keywords imply. */
  #kind(node: Record<string, unknown>, at: string): string | undefined {
    const t = node.type;
    if (typeof t === 'string') {
      if (!TYPES.has(t)) this.problem(`${at}/type`, l10n.t('unknown type "{0}"', t));
      return t;
    }
    if (Array.isArray(t)) {
      const rest = t.filter((x) => x !== 'null');
      if (rest.length === 1 && typeof rest[0] === 'string') {
        if (rest.length < t.length)
          this.note(`${at}/type`, l10n.t('may be null: the results check reports nulls anyway'));
        return rest[0];
      }
      this.problem(
        `${at}/type`,
        l10n.t('a choice of types ({0}) cannot be expressed; asked for as text', t.join(', ')),
      );
      return 'string';
    }
    if (t !== undefined) this.problem(`${at}/type`, l10n.t('unreadable `type`'));
    if (isRecord(node.properties)) return 'object';
    if (node.items !== undefined) return 'array';
    return undefined;
  }

  /** Each keyword that is neither an annotation nor read by the conversion is a problem. */
  #otherKeywords(node: Record<string, unknown>, at: string): void {
    for (const key of Object.keys(node)) {
      if (ANNOTATIONS.has(key) || STRUCTURE.has(key)) continue;
      this.problem(`${at}/${seg(key)}`, unexpressed(key));
    }
  }

  /**
   * Follows `$ref`, one-schema `allOf`, and null-only `anyOf`/`oneOf` to the schema that says what the
   * field is. `release` must be called when done (it ends the cycle guard of the refs followed).
   * `node` is undefined when nothing usable was found (already reported).
   */
  #resolve(
    start: Record<string, unknown>,
    at: string,
  ): {
    node: Record<string, unknown> | undefined;
    at: string;
    outer: Record<string, unknown>;
    release: () => void;
  } {
    let node = start;
    let where = at;
    const pushed: string[] = [];
    const release = (): void => {
      for (let i = 0; i < pushed.length; i++) this.#expanding.pop();
    };
    for (let hops = 0; hops < 64; hops++) {
      if (typeof node.$ref === 'string') {
        const ref = node.$ref;
        for (const key of Object.keys(node)) {
          if (key !== '$ref' && !ANNOTATIONS.has(key))
            this.problem(`${where}/${seg(key)}`, unexpressed(key, true));
        }
        if (this.#expanding.includes(ref)) {
          this.problem(`${where}/$ref`, l10n.t('a cycle through {0}: kept as one text field', ref));
          return { node: undefined, at: where, outer: start, release };
        }
        const target = this.#lookup(ref);
        if (target === undefined) {
          this.problem(
            `${where}/$ref`,
            l10n.t('{0} is not a local #/definitions or #/$defs entry; kept as one text field', ref),
          );
          return { node: undefined, at: where, outer: start, release };
        }
        this.#expanding.push(ref);
        pushed.push(ref);
        node = target;
        where = ref.slice(1);
        continue;
      }
      if (Array.isArray(node.allOf) && node.allOf.length === 1 && isRecord(node.allOf[0])) {
        this.#reportSiblings(node, where, 'allOf');
        node = node.allOf[0];
        where = `${where}/allOf/0`;
        continue;
      }
      for (const key of ['anyOf', 'oneOf'] as const) {
        const alts = node[key];
        if (!Array.isArray(alts)) continue;
        const rest = alts.filter((a) => !(isRecord(a) && a.type === 'null'));
        if (rest.length === 1 && isRecord(rest[0]) && rest.length < alts.length) {
          this.note(`${where}/${key}`, l10n.t('may be null: the results check reports nulls anyway'));
          this.#reportSiblings(node, where, key);
          const i = alts.indexOf(rest[0]);
          node = rest[0];
          where = `${where}/${key}/${i}`;
          break;
        }
        this.problem(
          `${where}/${key}`,
          l10n.t('{0} (a choice of schemas) cannot be expressed; asked for as one text field', key),
        );
        this.#reportSiblings(node, where, key);
        return { node: { ...pickText(node) }, at: where, outer: start, release };
      }
      if (Array.isArray(node.allOf)) {
        this.problem(
          `${where}/allOf`,
          l10n.t('allOf of several schemas cannot be expressed; asked for as one text field'),
        );
        this.#reportSiblings(node, where, 'allOf');
        return { node: { ...pickText(node) }, at: where, outer: start, release };
      }
      return { node, at: where, outer: start, release };
    }
    this.problem(at, l10n.t('too many $ref hops'));
    return { node: undefined, at, outer: start, release };
  }

  /** Keywords beside a combinator other than annotations, which the unwrapped schema does not carry. */
  #reportSiblings(node: Record<string, unknown>, at: string, used: string): void {
    for (const key of Object.keys(node)) {
      if (key === used || ANNOTATIONS.has(key) || key === 'type') continue;
      this.problem(`${at}/${seg(key)}`, unexpressed(key, used));
    }
  }

  /** The schema a local ref points at: `#/definitions/x`, `#/$defs/x` (nested pointers allowed). */
  #lookup(ref: string): Record<string, unknown> | undefined {
    if (!ref.startsWith('#/definitions/') && !ref.startsWith('#/$defs/')) return undefined;
    let cur: unknown = this.#doc;
    for (const part of ref.slice(2).split('/').map(unseg)) {
      if (!isRecord(cur) || !Object.hasOwn(cur, part)) return undefined;
      cur = cur[part];
    }
    return isRecord(cur) ? cur : undefined;
  }
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function pickText(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (text(node.description) !== undefined) out.description = node.description;
  if (text(node.title) !== undefined) out.title = node.title;
  return out;
}

/** Why `key` is dropped; `next`: beside a `$ref` (true) or the named combinator. */
function unexpressed(key: string, next?: string | true): string {
  if (next === undefined)
    return l10n.t(
      '`{0}` cannot be expressed in the service schema; the service is not told it and results are not held to it',
      key,
    );
  if (next === true)
    return l10n.t(
      '`{0}` cannot be expressed in the service schema; the service is not told it and results are not held to it (next to a $ref)',
      key,
    );
  return l10n.t(
    '`{0}` cannot be expressed in the service schema; the service is not told it and results are not held to it (next to {1})',
    key,
    next,
  );
}

/** Converts a JSON Schema document to the service's schema form (see the rules at the top). */
export function convertJsonSchema(doc: unknown): Conversion {
  if (!isRecord(doc)) {
    return {
      schema: {},
      notes: [],
      problems: [{ pointer: '/', message: l10n.t('a JSON Schema must be an object') }],
    };
  }
  const c = new Converter(doc);
  const schema = c.root();
  if (Object.keys(schema).length === 0 && c.problems.length === 0)
    c.problem('', l10n.t('the schema names no properties'));
  return { schema, notes: c.notes, problems: c.problems };
}

/** Whether a parsed file is a JSON Schema rather than a service schema. */
export function looksLikeJsonSchema(doc: unknown): boolean {
  if (!isRecord(doc)) return false;
  if (typeof doc.$schema === 'string' || isRecord(doc.$defs) || isRecord(doc.definitions)) return true;
  return (doc.type === 'object' || doc.type === 'array') && (isRecord(doc.properties) || isRecord(doc.items));
}

/** A schema file (`*.denschema.json`) read: the service schema and how it was obtained. */
export interface SchemaDocument extends Conversion {
  /** `service`: the file was already in the service's form; `json-schema`: it was converted. */
  source: 'service' | 'json-schema';
  /** Why the result is not a usable service schema (none: usable). */
  errors: { path: string; message: string }[];
}

/**
 * Reads a parsed schema file: a JSON Schema (`$schema`, `$defs`/`definitions`, or a top `type` of
 * `object`/`array` with `properties`/`items`) is converted; anything else must be in the service's
 * form. A service schema whose fields are literally `type` and `properties` is read as JSON Schema.
 */
export function readSchemaDocument(doc: unknown): SchemaDocument {
  if (looksLikeJsonSchema(doc)) {
    const c = convertJsonSchema(doc);
    return { ...c, source: 'json-schema', errors: serviceSchemaErrors(c.schema) };
  }
  const errors = serviceSchemaErrors(doc);
  const schema = errors.length === 0 ? (doc as ServiceSchema) : {};
  return { schema, notes: [], problems: [], source: 'service', errors };
}
