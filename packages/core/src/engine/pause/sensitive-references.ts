import type { WorkflowPlan } from '../plan/plan-workflow';
import { secretForms } from '../redaction/secret-forms';
import { sensitiveTexts } from '../redaction/sensitive-texts';
import { SealedStateError } from '../sealing/sealed-state-error';

type Args = Readonly<Record<string, string | undefined>>;

/**
 * A reference reads `REFERENCE <source>.<text>.<form> END` (base 36): the form `<form>` of the
 * text `<text>` of the value of restorable source `<source>`. These noncharacters anywhere else in
 * a sealed string are escaped (`ESCAPE` before them), so text a tool returned can never pass for a
 * reference and have a secret filled into it on resume.
 */
const REFERENCE = '\uFDD2';
const END = '\uFDD3';
const ESCAPE = '\uFDD4';
const SPECIAL = /[\uFDD2-\uFDD4]/;

/**
 * From how many characters an argument is referenced where a task's checkpoint holds it (a tool's
 * echo, the trace's opening message), not sealed again: the task stores its arguments once.
 */
const LARGE_ARGUMENT_CHARACTERS = 4096;

interface Restorable {
  readonly form: string;
  readonly reference: string;
}

/** A state with its sensitive values referenced, and the padding that keeps its sealed length what it was. */
export interface ReferencedState<T> {
  readonly value: T;
  /** False when nothing is referenced (nothing to reference, or the escapes would outweigh it): open it as it is. */
  readonly referenced: boolean;
  /** As many bytes as the references and escapes took off the JSON: the sealed length does not move. */
  readonly padding: string;
}

/**
 * Takes the sensitive values a resume gets back anyway — sensitive prompt arguments (the retry
 * brings them) and sensitive constants (the plan has them) — out of a paused run's state before it
 * is sealed (DESIGN §2.8, issue 19 L7): every string that holds one of their forms (a tool's output
 * that echoes an API key, say) holds a reference instead, filled in again by `restoreReferences`.
 * A secret a tool produced is not referenced: only the state can bring it back.
 *
 * The sealed length must not move with what was referenced: the client chooses its arguments, and
 * a tool's output that holds a secret of the server's next to them would otherwise tell, by the
 * length, whether an argument matched part of it. So `padding` gives back exactly the bytes the
 * references and escapes took off, and the state seals to the length it has without them.
 *
 * With `largeArguments` (a task's checkpoints, which the client never sees, stored beside the
 * task's arguments), every argument of `LARGE_ARGUMENT_CHARACTERS` or more is referenced too where
 * the state holds it (a tool's echo, the trace's opening message), sensitive or not, and what that
 * saves is not padded back: a 4 MiB argument echoed by every step is stored once, with the task.
 *
 * @example
 * ```ts
 * const { value, referenced, padding } = referenceSensitiveValues(state, plan, args);
 * sealer.seal({ plan: fingerprint, references: referenced, padding, state: value }, binding);
 * ```
 */
export function referenceSensitiveValues<T>(state: T, plan: WorkflowPlan, args: Args, largeArguments = false): ReferencedState<T> {
  const sensitive = restorableForms(plan, args, false);
  const restorable = largeArguments ? restorableForms(plan, args, true) : sensitive;
  if (restorable.length === 0) return { value: state, referenced: false, padding: '' };
  const value = mapStrings(state, (text) => referenceText(text, restorable)) as T;
  const saved = jsonBytes(state) - jsonBytes(value);
  // Escapes outweigh references only when tool data is full of these noncharacters: seal as it is.
  if (saved < 0) return { value: state, referenced: false, padding: '' };
  // Only what the sensitive values' references took off is given back: a large argument's references save bytes for good.
  const savedBySensitive =
    restorable === sensitive
      ? saved
      : sensitive.length === 0
        ? 0
        : jsonBytes(state) - jsonBytes(mapStrings(state, (text) => referenceText(text, sensitive)));
  return { value, referenced: true, padding: 'x'.repeat(Math.max(0, savedBySensitive)) };
}

/**
 * Fills the references of `referenceSensitiveValues` in again from the plan and the retry's
 * arguments. Throws `SealedStateError` when one refers to nothing this version of the workflow has.
 */
export function restoreReferences<T>(state: T, plan: WorkflowPlan, args: Args): T {
  const values = restorableValues(plan, args);
  return mapStrings(state, (text) => restoreText(text, (reference) => formOf(values, reference, plan))) as T;
}

/**
 * A value (a task's result) with each argument of `LARGE_ARGUMENT_CHARACTERS` or more referenced
 * where it holds one, as a task's checkpoints are (`referenceSensitiveValues` with `largeArguments`):
 * `referenced` false when none was (open it as it is). `restoreArguments` fills them in again.
 *
 * @example
 * ```ts
 * const { value, referenced } = referenceArguments(result, call.arguments);
 * restoreArguments(value, call.arguments); // result
 * ```
 */
export function referenceArguments<T>(value: T, args: Readonly<Record<string, unknown>>): { value: T; referenced: boolean } {
  const restorable = new Map<string, string>();
  argumentValues(args).forEach((argument, source) =>
    largeTexts(argument).forEach((text) =>
      secretForms(text).forEach((form, formIndex) => restorable.set(form, reference(source, 0, formIndex))),
    ),
  );
  if (restorable.size === 0) return { value, referenced: false };
  const forms = [...restorable].map(([form, ref]) => ({ form, reference: ref })).sort((a, b) => b.form.length - a.form.length);
  const referenced = mapStrings(value, (text) => referenceText(text, forms)) as T;
  return jsonBytes(referenced) < jsonBytes(value) ? { value: referenced, referenced: true } : { value, referenced: false };
}

/** A value of `referenceArguments` with its references filled in from the same arguments; `SealedStateError` for one that refers to none. */
export function restoreArguments<T>(value: T, args: Readonly<Record<string, unknown>>): T {
  const values = argumentValues(args);
  return mapStrings(value, (text) =>
    restoreText(text, (ref) => {
      const [source, , form] = ref.split('.').map((part) => parseInt(part, 36));
      const found = secretForms(largeTexts(values[source])[0] ?? '')[form];
      if (found === undefined) throw new SealedStateError('malformed', 'it refers to an argument the task does not have.');
      return found;
    }),
  ) as T;
}

function argumentValues(args: Readonly<Record<string, unknown>>): unknown[] {
  return Object.keys(args)
    .sort()
    .map((name) => args[name]);
}

/** Each source's value: sensitive prompt arguments, each step's sensitive arguments from a prompt argument or a constant, then called workflows' sensitive constants. */
function restorableValues(plan: WorkflowPlan, args: Args): unknown[] {
  const values: unknown[] = [];
  for (const name of plan.sensitiveArguments) values.push(Object.hasOwn(args, name) ? args[name] : undefined);
  for (const step of plan.steps) {
    for (const argument of step.args) {
      if (!argument.sensitive || (argument.source.kind !== 'promptArg' && argument.source.kind !== 'constant')) continue;
      const resolved = argument.resolve({ args, bindings: {} });
      values.push(resolved.ok ? resolved.value : undefined);
    }
  }
  // The sensitive constants of the workflows it runs by class: held secrets of this run too (in the plan's fingerprint).
  for (const value of plan.calledConstants) values.push(value);
  // Then every argument, by name: a large one is referenced where a run echoes it (`LARGE_ARGUMENT_CHARACTERS`).
  values.push(...argumentValues(args));
  return values;
}

/**
 * Every form of every restorable value with its reference, longest first (a form that holds another
 * is referenced whole): the sensitive ones', and with `largeArguments` those of every argument of
 * `LARGE_ARGUMENT_CHARACTERS` or more.
 */
function restorableForms(plan: WorkflowPlan, args: Args, largeArguments: boolean): Restorable[] {
  const restorable = new Map<string, string>();
  const values = restorableValues(plan, args);
  const sensitiveSources = values.length - Object.keys(args).length;
  values.forEach((value, source) =>
    (source < sensitiveSources ? sensitiveTexts(value) : largeArguments ? largeTexts(value) : []).forEach((text, textIndex) =>
      secretForms(text).forEach((form, formIndex) => {
        if (!restorable.has(form)) restorable.set(form, reference(source, textIndex, formIndex));
      }),
    ),
  );
  return [...restorable].map(([form, ref]) => ({ form, reference: ref })).sort((a, b) => b.form.length - a.form.length);
}

/** An argument's text as a large one (`LARGE_ARGUMENT_CHARACTERS` or more), as `sensitiveTexts` would give it, or none. */
function largeTexts(value: unknown): string[] {
  return typeof value === 'string' && value.length >= LARGE_ARGUMENT_CHARACTERS ? [value] : [];
}

function reference(source: number, text: number, form: number): string {
  return `${REFERENCE}${source.toString(36)}.${text.toString(36)}.${form.toString(36)}${END}`;
}

function formOf(values: readonly unknown[], reference: string, plan: WorkflowPlan): string {
  const [source, text, form] = reference.split('.').map((part) => parseInt(part, 36));
  const found = secretForms(sensitiveTexts(values[source])[text] ?? '')[form];
  if (found === undefined) {
    throw new SealedStateError(
      'stale',
      `it refers to a sensitive value workflow '${plan.model.name}' no longer has. Retry prompts/get '${plan.model.name}' without requestState to start over.`,
    );
  }
  return found;
}

/** The text with each restorable form referenced (longest first, then earliest) and the noncharacters escaped. */
function referenceText(text: string, restorable: readonly Restorable[]): string {
  const hits: { start: number; end: number; reference: string }[] = [];
  for (const { form, reference } of restorable) {
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
      const end = at + form.length;
      if (!hits.some((hit) => at < hit.end && hit.start < end)) hits.push({ start: at, end, reference });
    }
  }
  if (hits.length === 0 && !SPECIAL.test(text)) return text;
  hits.sort((a, b) => a.start - b.start);
  let result = '';
  let last = 0;
  for (const hit of hits) {
    result += escaped(text.slice(last, hit.start)) + hit.reference;
    last = hit.end;
  }
  return result + escaped(text.slice(last));
}

function escaped(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[\uFDD2-\uFDD4]/g, (special) => ESCAPE + special) : text;
}

function restoreText(text: string, formOf: (reference: string) => string): string {
  if (!SPECIAL.test(text)) return text;
  let result = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === ESCAPE) {
      result += text[++index];
    } else if (char === REFERENCE) {
      const end = text.indexOf(END, index);
      result += formOf(text.slice(index + 1, end));
      index = end;
    } else {
      result += char;
    }
  }
  return result;
}

/** How many bytes a value takes as JSON, as the sealer writes it. */
function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** A copy of a JSON-like value with `map` applied to every string, object keys included; what JSON drops stays dropped. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  // What JSON would write for a Date or a Buffer (a tool run in process may return one).
  if (typeof (value as { toJSON?: unknown } | null)?.toJSON === 'function')
    return mapStrings((value as { toJSON(): unknown }).toJSON(), map);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty: a key named __proto__ stays a key instead of replacing the copy's prototype.
    Object.defineProperty(copy, map(key), { value: mapStrings(item, map), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
