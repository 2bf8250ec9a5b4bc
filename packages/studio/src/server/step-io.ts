import type { StepIO } from './api-types';

/** A plan line of the trace: `2. used: call tool use — the use tool`. */
const PLAN_LINE = /^\d+\. (.+?): call tool (\S+)/;
const CALL = /^Calling tool (\S+) with arguments: ([\s\S]*)$/;
const RESULT = /^Result of (\S+):\n([\s\S]*)$/;
/** At most this many characters of a message are read (a server's text may be megabytes). */
const MAX_TEXT = 16 * 1024;
/** At most this many calls of one `forEach` step are kept. */
const MAX_ITEMS = 200;

/** JSON when the text is JSON, else the text itself. */
function value(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function textOf(content: unknown): string | undefined {
  const block = content as { type?: unknown; text?: unknown } | undefined;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text.slice(0, MAX_TEXT) : undefined;
}

interface Slot {
  readonly step: string;
  readonly tool: string;
  readonly forEach: boolean;
  readonly inputs: unknown[];
  readonly outputs: unknown[];
}

/**
 * Each tool step's input and output as the server's trace shows them — `Calling tool <tool> with
 * arguments: <JSON>` and `Result of <tool>:` — so sensitive values are already `[redacted]` by the
 * server, never seen raw here. The trace names tools, not steps: its plan (`2. used: call tool use`)
 * maps them, each call going to the first step of that tool at or after the last one called (a
 * `forEach` step takes every call of its items). A step's reason (why it failed or was skipped)
 * comes from `_meta["mcpflow/execution"]`.
 */
export function stepIO(
  contents: readonly unknown[],
  executed: readonly { name?: unknown; status?: unknown; reason?: unknown }[],
  forEachSteps: ReadonlySet<string>,
): StepIO[] {
  const slots: Slot[] = [];
  let cursor = 0;
  let last: Slot | undefined;
  for (const content of contents) {
    const text = textOf(content);
    if (text === undefined) continue;
    if (text.startsWith('Plan:') && slots.length === 0) {
      for (const line of text.split('\n').slice(1)) {
        const planned = PLAN_LINE.exec(line);
        if (planned) slots.push({ step: planned[1], tool: planned[2], forEach: forEachSteps.has(planned[1]), inputs: [], outputs: [] });
      }
      continue;
    }
    const call = CALL.exec(text);
    if (call) {
      const at = slots.findIndex((slot, index) => index >= cursor && slot.tool === call[1] && (slot.forEach || slot.inputs.length === 0));
      last = at < 0 ? undefined : slots[at];
      if (last && last.inputs.length < MAX_ITEMS) last.inputs.push(value(call[2]));
      if (at >= 0) cursor = at;
      continue;
    }
    const result = RESULT.exec(text);
    if (result && last?.tool === result[1] && last.outputs.length < MAX_ITEMS) last.outputs.push(value(result[2]));
  }
  const reasons = new Map(
    executed.filter((step) => typeof step.name === 'string' && typeof step.reason === 'string').map((step) => [step.name, step.reason]),
  );
  return slots
    .filter((slot) => slot.inputs.length > 0 || reasons.has(slot.step))
    .map((slot) => {
      const io: StepIO = { step: slot.step };
      if (slot.inputs.length > 0) io.input = slot.forEach ? slot.inputs : slot.inputs[0];
      if (slot.outputs.length > 0) io.output = slot.forEach ? slot.outputs : slot.outputs[0];
      const reason = reasons.get(slot.step);
      if (typeof reason === 'string') io.reason = reason;
      return io;
    });
}
