import type { ToolAction } from '../../model/actions/tool-action';
import type { PlannedArgument, PlannedStep } from '../plan/plan-workflow';
import { runWithUris } from '../steps/run-step';
import type { StepContext } from '../steps/step-context';
import type { StepOutcome } from '../steps/step-outcome';
import { argumentsJson, shownArguments } from '../steps/tool/shown-arguments';
import { ToolCall, missesRequiredInput, missingInputs, valueFree, type CallAnnouncer } from '../steps/tool/run-tool-step';
import { toolCallText } from '../steps/tool/tool-messages';
import { isPromiseLike } from '../../util/is-promise-like';
import { ownRecord } from '../../util/own-record';
import { NO_VALUE, compileReader, type Reader } from './compile-reader';

/** A step compiled for its plan: runs it against one run's context, as the interpreter's `runStep` does. */
export type CompiledStep = (context: StepContext) => Promise<StepOutcome>;

interface CompiledArgument {
  readonly name: string;
  readonly read: Reader;
  readonly planned: PlannedArgument;
}

/**
 * A tool step's runner, built once per plan: each argument a direct reader, the sensitive ones
 * listed apart, the call's announcement chosen for what its arguments can hold. The call itself —
 * validation, timeout, cancellation, the result's checks and value — is the interpreter's
 * `ToolCall` (retry and sub-workflows included), and its URI variables and embedded resources are
 * the interpreter's `runWithUris`, so both engines share every guarantee. An argument that asks
 * reads its answer through its planned resolver.
 */
export function compileToolStep(step: PlannedStep, action: ToolAction): CompiledStep {
  const name = action.tool;
  const readers: CompiledArgument[] = step.args.map((planned) => ({
    name: planned.name,
    read: compileReader(planned.source, planned.resolve),
    planned,
  }));
  const sensitive = readers.some((argument) => argument.planned.sensitive);
  // Only the client's values can be marked or shown as a reference to the intent: without one, the arguments are plain JSON.
  const announce: CallAnnouncer = step.args.some((argument) => argument.fromClient) ? announceMarked : announcePlain;

  const call: CompiledStep = (context) => {
    const { host, scope } = context;
    const tool = host.findTool(name);
    if (!tool) return Promise.resolve(valueFree(`tool ${name} is not registered on this server`));
    if (!tool.enabled) return Promise.resolve(valueFree(`tool ${name} is disabled`));
    const args = ownRecord<unknown>();
    let unresolved: Map<string, string> | undefined;
    for (let index = 0; index < readers.length; index += 1) {
      const argument = readers[index];
      let value = argument.read(scope);
      if (value === NO_VALUE) {
        // The rare path: the planned resolver says why there is no value.
        const resolution = argument.planned.resolve(scope);
        if (!resolution.ok) {
          (unresolved ??= new Map()).set(argument.name, resolution.reason);
          continue;
        }
        value = resolution.value;
      }
      args[argument.name] = value;
    }
    if (sensitive) learnSecrets(readers, args, context);
    const inputs = host.toolInputs(tool);
    if (missesRequiredInput(inputs, args)) return Promise.resolve(missingInputs(name, inputs, args, unresolved));
    const validated = host.validateToolInput(tool, name, args);
    const toolCall = new ToolCall(step, context, tool, name, announce);
    return isPromiseLike(validated)
      ? Promise.resolve(validated).then((input) => toolCall.start(input, args))
      : toolCall.start(validated, args);
  };
  return withUrisAndGuidance(step, call);
}

/**
 * A step's call preceded by what the plan says comes first, decided now rather than per run: its
 * guidance (if any), then its URI variables and embedded resources (if any, as the interpreter
 * fills and reads them).
 */
function withUrisAndGuidance(step: PlannedStep, call: CompiledStep): CompiledStep {
  const { guidance } = step;
  const run: CompiledStep =
    step.resources.length === 0 && step.fills.length === 0 ? call : (context) => runWithUris(step, context, () => call(context));
  if (!guidance) return run;
  return (context) => {
    context.trace.assistant(guidance(context.scope, context.redactor.client));
    return run(context);
  };
}

/** The sensitive arguments' values become secrets of the run, as the interpreter teaches them (a loop's element as learned). */
function learnSecrets(readers: readonly CompiledArgument[], args: Record<string, unknown>, context: StepContext): void {
  for (const { name, planned } of readers) {
    if (!planned.sensitive || !Object.hasOwn(args, name)) continue;
    if (planned.source.kind === 'item') context.redactor.learn(args[name], 'server');
    else context.redactor.add(args[name], planned.fromClient ? 'client' : 'server');
  }
}

function announcePlain(_step: PlannedStep, name: string, given: Record<string, unknown>): string {
  return toolCallText(name, JSON.stringify(given));
}

function announceMarked(step: PlannedStep, name: string, given: Record<string, unknown>, context: StepContext): string {
  return toolCallText(name, argumentsJson(step, shownArguments(step, given), context.redactor));
}
