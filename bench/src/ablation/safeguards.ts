import type { ExecutionLimits } from '@mcpflow/core/v1';
import { replacedExport, replacedMethods, type ReplacedExport } from './replaced-export';

/** An SDK line, as the folder of its adapter in `@mcpflow/core`. */
export type Line = 'v1' | 'v2';

/**
 * A safeguard of a workflow run (DESIGN §2.6–2.8), and how the ablation benchmark runs without it:
 * through the server option that turns it off where there is one, else by replacing, in the bench
 * process only, the function that does it (`replacedExport`).
 */
export interface Safeguard {
  /** As the table shows it. */
  readonly name: string;
  /** What "off" means, in a few words. */
  readonly off: string;
  /** Server options that turn it off. */
  readonly options?: ExecutionLimits;
  /** Or the function the bench replaces, on this SDK line. */
  readonly replace?: (line: Line) => ReplacedExport;
}

const noProblem = () => () => undefined;

/**
 * Every safeguard of the engine case (four tool steps returning text), one ablation row each.
 * Not here: input validation (the hand-written baseline validates too), redaction of a workflow
 * with no sensitive value (the redactor is then inactive: one property read a message), and the
 * cancellation checks (a property read a step). When a safeguard gets a switch of its own (a
 * server option), use it instead of replacing a function.
 */
export const SAFEGUARDS: readonly Safeguard[] = [
  {
    name: 'default step timeout',
    off: 'defaultStepTimeoutMs: false (no timer or AbortController per step)',
    options: { defaultStepTimeoutMs: false },
  },
  {
    name: 'trace size bound',
    // boundTrace returns at once for an infinite bound; the size of _meta reserved for it is still computed.
    off: 'maxTraceBytes: Infinity',
    options: { maxTraceBytes: Infinity },
  },
  {
    name: "result shape check (each content block is the protocol's)",
    off: 'contentBlockProblem replaced by a function that finds none',
    replace: () => replacedExport('engine/results/check-content.js', 'contentBlockProblem', noProblem),
  },
  {
    name: 'unrepresentable-value walk (BigInt, cycles)',
    off: 'findUnrepresentable replaced by a function that finds none',
    replace: () => replacedExport('engine/results/find-unrepresentable.js', 'findUnrepresentable', noProblem),
  },
  {
    name: "the SDK's own result check (CallToolResult, output schema)",
    off: "the adapter's checkToolResult replaced by one that returns the result as it is",
    replace: () =>
      replacedExport(
        'adapter-kit/tools/call-tool.js',
        'checkToolResult',
        () => (_line: unknown, _tool: unknown, _name: string, value: unknown) => value,
      ),
  },
  {
    name: 'bounded strings in _meta (error reasons)',
    off: 'boundStrings replaced by the identity',
    replace: () => replacedExport('engine/text/bounded-text.js', 'boundStrings', () => (value: unknown) => value),
  },
  {
    name: 'load limits (runs at once, per process and per session)',
    off: "RunAdmission's enter and enterRound replaced by ones that count nothing (a slot whose channel and end do nothing)",
    replace: () =>
      replacedMethods('adapter-kit/run/run-admission.js', 'RunAdmission', {
        enter: () => Promise.resolve(FREE_SLOT),
        enterRound: () => Promise.resolve(FREE_SLOT),
      }),
  },
];

/** A run place that counts nothing: what the load-limits ablation hands every run. */
const FREE_SLOT = { releasing: <T>(channel: T): T => channel, end: () => undefined };
