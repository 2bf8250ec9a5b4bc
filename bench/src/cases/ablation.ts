import type { BenchCase, Figure } from '../case';
import { SAFEGUARDS, type Line } from '../ablation/safeguards';
import type { ReplacedExport } from '../ablation/replaced-export';
import type { PromptClient } from '../engine-overhead';
import { pairedRatio, sideBySide } from '../measure';
import { fmt, range } from '../report';
import { sized } from '../run-options';
import type { ExecutionLimits } from '@mcpflow/core/v1';

/** One way of running the engine case's workflow: every safeguard on, one off, all off, or redaction on. */
interface Variant {
  readonly label: string;
  readonly how: string;
  readonly options: ExecutionLimits;
  readonly switches: readonly ReplacedExport[];
  readonly sensitiveInput: boolean;
  /** A gate on the variant's paired ratio to the hand-written prompt; the others are reported. */
  readonly target?: number;
}

/** How a line connects a client to the chain workflow (with server options, the input sensitive or not) and to the hand-written baseline. */
export interface AblationConnections {
  workflow(options: ExecutionLimits, sensitiveInput: boolean): Promise<PromptClient>;
  baseline(): Promise<PromptClient>;
}

const INPUT = 'hello';

/** Issue 28: a workflow with one sensitive argument within 1.6× the hand-written prompt, on each line. */
const REDACTION_TARGET = 1.6;

function variants(line: Line): Variant[] {
  const replaced = SAFEGUARDS.map((safeguard) => safeguard.replace?.(line));
  const single = SAFEGUARDS.map((safeguard, index): Variant => ({
    label: `${safeguard.name} off`,
    how: safeguard.off,
    options: safeguard.options ?? {},
    switches: replaced[index] ? [replaced[index]] : [],
    sensitiveInput: false,
  }));
  return [
    { label: 'every safeguard on (the default)', how: 'default server options', options: {}, switches: [], sensitiveInput: false },
    ...single,
    {
      label: 'every safeguard above off',
      how: 'all of the above at once: the floor the safeguards sit on',
      options: Object.assign({}, ...SAFEGUARDS.map((safeguard) => safeguard.options ?? {})) as ExecutionLimits,
      switches: replaced.filter((entry): entry is ReplacedExport => entry !== undefined),
      sensitiveInput: false,
    },
    {
      label: 'redaction on (the input marked sensitive)',
      how: "sensitiveArguments: ['input']: every outgoing text is searched for the input's forms (without a sensitive value the redactor is inactive)",
      options: {},
      switches: [],
      sensitiveInput: true,
      target: REDACTION_TARGET,
    },
  ];
}

/** What a variant's trace must equal: the baseline's, with the input shown as the redactor shows it when it is sensitive. */
function expectedTrace(baseline: unknown[], variant: Variant): string {
  const text = JSON.stringify(baseline);
  return variant.sensitiveInput ? text.split(INPUT).join('[redacted]') : text;
}

/**
 * The engine case run once per safeguard with that safeguard off (and once with all off, once with
 * redaction on), every variant and the hand-written baseline side by side in one process, each as
 * a ratio to the baseline: what each guarantee costs. Refuses to run unless every variant builds
 * the baseline's trace.
 */
export function ablationCase(name: string, line: Line, lineName: string, connect: AblationConnections): BenchCase {
  return {
    name,
    async run(options) {
      const all = variants(line);
      const baseline = await connect.baseline();
      const clients = await Promise.all(all.map((variant) => connect.workflow(variant.options, variant.sensitiveInput)));
      const request = { name: 'chain', arguments: { input: INPUT } };
      const contenders: Record<string, () => Promise<unknown>> = { baseline: () => baseline.getPrompt(request) };
      all.forEach((variant, index) => {
        contenders[variant.label] = async () => {
          for (const entry of variant.switches) entry.off();
          try {
            return await clients[index].getPrompt(request);
          } finally {
            for (const entry of variant.switches) entry.on();
          }
        };
      });
      const expected = (await baseline.getPrompt(request)).messages;
      for (const variant of all) {
        const { messages } = (await contenders[variant.label]()) as { messages: unknown[] };
        if (JSON.stringify(messages) !== expectedTrace(expected, variant))
          throw new Error(`${lineName}, ${variant.label}: the workflow and the baseline do not build the same trace`);
      }
      const measured = await sideBySide(contenders, sized(options, { warmup: 1000, rounds: 60, batch: 200 }));
      await Promise.all([baseline.close(), ...clients.map((client) => client.close())]);
      const ratios = Object.fromEntries(all.map((variant) => [variant.label, pairedRatio(measured[variant.label], measured.baseline)]));
      const full = ratios[all[0].label].median;
      const figures: Figure[] = all.map((variant) => {
        const ratio = ratios[variant.label];
        const difference = ratio.median - full;
        const share = variant === all[0] ? '' : `; ${difference < 0 ? '−' : '+'}${fmt(Math.abs(difference), 3)} against every safeguard on`;
        const figure = {
          benchmark: `12. ablation, ${lineName}: ${variant.label}`,
          figure: `paired ratio to the hand-written prompt ${range(ratio, '', 3)}${share} (${variant.how})`,
        };
        return variant.target === undefined
          ? { ...figure, target: 'reported' }
          : { ...figure, target: `paired ratio ≤ ${variant.target}`, met: ratio.median <= variant.target };
      });
      return { result: { measured, ratios }, figures };
    },
  };
}
