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
 * @example
 * ```ts
 * const { value, referenced, padding } = referenceSensitiveValues(state, plan, args);
 * sealer.seal({ plan: fingerprint, references: referenced, padding, state: value }, binding);
 * ```
 */
export function referenceSensitiveValues<T>(state: T, plan: WorkflowPlan, args: Args): ReferencedState<T> {
  const restorable = restorableForms(plan, args);
  if (restorable.length === 0) return { value: state, referenced: false, padding: '' };
  const value = mapStrings(state, (text) => referenceText(text, restorable)) as T;
  const saved = jsonBytes(state) - jsonBytes(value);
  // Escapes outweigh references only when tool data is full of these noncharacters: seal as it is.
  if (saved < 0) return { value: state, referenced: false, padding: '' };
  return { value, referenced: true, padding: 'x'.repeat(saved) };
}

/**
 * Fills the references of `referenceSensitiveValues` in again from the plan and the retry's
 * arguments. Throws `SealedStateError` when one refers to nothing this version of the workflow has.
 */
export function restoreReferences<T>(state: T, plan: WorkflowPlan, args: Args): T {
  const values = restorableValues(plan, args);
  return mapStrings(state, (text) => restoreText(text, (reference) => formOf(values, reference, plan))) as T;
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
  return values;
}

/** Every form of every restorable value with its reference, longest first (a form that holds another is referenced whole). */
function restorableForms(plan: WorkflowPlan, args: Args): Restorable[] {
  const restorable = new Map<string, string>();
  restorableValues(plan, args).forEach((value, source) =>
    sensitiveTexts(value).forEach((text, textIndex) =>
      secretForms(text).forEach((form, formIndex) => {
        if (!restorable.has(form)) restorable.set(form, reference(source, textIndex, formIndex));
      }),
    ),
  );
  return [...restorable].map(([form, ref]) => ({ form, reference: ref })).sort((a, b) => b.form.length - a.form.length);
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
