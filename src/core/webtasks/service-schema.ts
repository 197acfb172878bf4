import { l10n } from '../shared/l10n';
/**
 * The schema of a web task (`POST /lam/run`, interface.md 4.8) in the service's own form: each key
 * is an output field name; each value is a string describing that field, or a nested object of the
 * same form. The form has no list type: a list of objects is asked for with its item's fields (see
 * `json-schema.ts`). Browser-safe: imports only `core/client/types.ts`, `core/shared/schema.ts`, `core/shared/l10n.ts`.
 */
import type { LamSchema } from '../client/types';
import { isRecord } from '../shared/schema';

/** A service schema: field name → description, or a nested schema. */
export type ServiceSchema = LamSchema;

/** Deepest nesting accepted (the service's form is meant for records, not trees). */
export const MAX_SCHEMA_DEPTH = 32;

/** One reason a value is not a service schema, at a path such as `fields.address.city`. */
export interface SchemaError {
  path: string;
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `parent.key`, or `parent["odd key"]` for keys that are not identifiers. */
export function fieldPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * Every reason `value` is not a service schema (none: it is one). Rules: an object with at least one
 * field; each field name non-empty; each value a non-blank string or a nested schema (itself with
 * at least one field); at most `MAX_SCHEMA_DEPTH` levels. `root` names the value in paths.
 */
export function serviceSchemaErrors(value: unknown, root = 'fields'): SchemaError[] {
  const errors: SchemaError[] = [];
  const walk = (v: Record<string, unknown>, at: string, depth: number): void => {
    const keys = Object.keys(v);
    if (keys.length === 0) errors.push({ path: at, message: l10n.t('must name at least one field') });
    if (depth > MAX_SCHEMA_DEPTH) {
      errors.push({ path: at, message: l10n.t('nests deeper than {0} levels', MAX_SCHEMA_DEPTH) });
      return;
    }
    for (const key of keys) {
      const p = fieldPath(at, key);
      const x = v[key];
      if (key.trim() === '') errors.push({ path: p, message: l10n.t('a field name must not be empty') });
      if (typeof x === 'string') {
        if (x.trim() === '')
          errors.push({ path: p, message: l10n.t('must describe the field (empty string)') });
      } else if (isRecord(x)) {
        walk(x, p, depth + 1);
      } else {
        errors.push({ path: p, message: l10n.t('must be a string or an object') });
      }
    }
  };
  if (!isRecord(value)) return [{ path: root, message: l10n.t('must be an object of fields') }];
  walk(value, root, 1);
  return errors;
}

/** Whether `value` is a service schema (see `serviceSchemaErrors` for the rules). */
export function isServiceSchema(value: unknown): value is ServiceSchema {
  return serviceSchemaErrors(value).length === 0;
}

/** `path: message` lines, one per error. */
export function describeSchemaErrors(errors: readonly SchemaError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}

/** One described field of a schema: its key path from the top and its description. */
export interface SchemaLeaf {
  path: string[];
  description: string;
}

/** The described (leaf) fields of a schema, depth first in key order. */
export function schemaLeaves(schema: ServiceSchema): SchemaLeaf[] {
  const out: SchemaLeaf[] = [];
  const walk = (s: ServiceSchema, at: string[]): void => {
    for (const [key, v] of Object.entries(s)) {
      if (typeof v === 'string') out.push({ path: [...at, key], description: v });
      else walk(v, [...at, key]);
    }
  };
  walk(schema, []);
  return out;
}
