/**
 * Den's one way to check the shape of untrusted values (wire bodies, socket frames, cached
 * snapshots, host ⇄ webview messages): a schema is a type guard built from these combinators, and
 * its TypeScript type is derived from it (`Infer`), so the type and its runtime check cannot drift
 * apart. Guards check and never copy or coerce; tolerant readers that coerce (`readId`,
 * `readTime`, …) build on the primitives here. See docs/decisions/2026-11-24-one-schema-helper.md.
 * Pure, no imports: the webview bundle uses it too.
 */

/** A runtime check that narrows `unknown` to `T`. */
export type Guard<T> = (v: unknown) => v is T;

/** A guard for an object key that may be absent (or undefined). */
export interface OptionalGuard<T> extends Guard<T | undefined> {
  readonly optional: true;
}

/** The type a guard checks. */
export type Infer<G> = G extends Guard<infer T> ? T : never;

/** An object's fields, each with its guard. */
export type Shape = Record<string, Guard<unknown>>;

type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends OptionalGuard<unknown> ? K : never;
}[keyof S];
type Flatten<T> = { [K in keyof T]: T[K] };

/** The object type a shape describes (optional guards give optional keys). */
export type ObjectOf<S extends Shape> = Flatten<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & {
    [K in OptionalKeys<S>]?: Exclude<Infer<S[K]>, undefined>;
  }
>;

/** The union of `{ [key]: tag } & fields` for every member of a `variant`. */
export type VariantOf<K extends string, M extends Record<string, Shape>> = {
  [T in keyof M & string]: Flatten<{ [P in K]: T } & ObjectOf<M[T]>>;
}[keyof M & string];

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const isString = (v: unknown): v is string => typeof v === 'string';
export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
export const isUnknown = (_v: unknown): _v is unknown => true;
export const isNonNegativeInteger = (v: unknown): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 0;

/** A string of at most `max` characters (the webview's messages are bounded). */
export function stringOfLength(max: number): Guard<string> {
  return (v): v is string => typeof v === 'string' && v.length <= max;
}

/** One of a fixed list of values. */
export function oneOf<const T extends readonly (string | number | boolean | null)[]>(
  values: T,
): Guard<T[number]> {
  return (v): v is T[number] => (values as readonly unknown[]).includes(v);
}

/** An array whose every item passes `item`. */
export function arrayOf<T>(item: Guard<T>): Guard<T[]> {
  return (v): v is T[] => Array.isArray(v) && v.every((x) => item(x));
}

/** A record (plain object) whose every value passes `value`. */
export function recordOf<T>(value: Guard<T>): Guard<Record<string, T>> {
  return (v): v is Record<string, T> => isRecord(v) && Object.values(v).every((x) => value(x));
}

/** The key may be absent or undefined; when present it must pass `g`. */
export function optional<T>(g: Guard<T>): OptionalGuard<T> {
  const guard = ((v: unknown): v is T | undefined => v === undefined || g(v)) as OptionalGuard<T>;
  return Object.assign(guard, { optional: true as const });
}

export function nullable<T>(g: Guard<T>): Guard<T | null> {
  return (v): v is T | null => v === null || g(v);
}

/** Passes what any of the guards passes. */
export function union<G extends Guard<unknown>[]>(...guards: G): Guard<Infer<G[number]>> {
  return (v): v is Infer<G[number]> => guards.some((g) => g(v));
}

/** Adds a condition to a guard (`refine(isString, (s) => s.length > 0)`). */
export function refine<T>(g: Guard<T>, test: (v: T) => boolean): Guard<T> {
  return (v): v is T => g(v) && test(v);
}

/** Types a hand-written check whose type is declared elsewhere (the check stays one function). */
export function custom<T>(test: (v: unknown) => boolean): Guard<T> {
  return test as Guard<T>;
}

/** A plain object with these fields (other keys are allowed and left alone). */
export function object<S extends Shape>(shape: S): Guard<ObjectOf<S>> {
  const entries = Object.entries(shape);
  return (v): v is ObjectOf<S> => isRecord(v) && entries.every(([k, g]) => g(v[k]));
}

/**
 * A union of objects told apart by `key`, one shape per tag: `variant('type', { stop: {}, open:
 * { id: isString } })`. A value whose tag is not listed fails (no fall-through).
 */
export function variant<K extends string, M extends Record<string, Shape>>(
  key: K,
  members: M,
): Guard<VariantOf<K, M>> {
  const guards = new Map(Object.entries(members).map(([tag, shape]) => [tag, object(shape)]));
  return (v): v is VariantOf<K, M> => {
    if (!isRecord(v)) return false;
    const tag = v[key];
    const g = typeof tag === 'string' && Object.hasOwn(members, tag) ? guards.get(tag) : undefined;
    return g !== undefined && g(v);
  };
}
