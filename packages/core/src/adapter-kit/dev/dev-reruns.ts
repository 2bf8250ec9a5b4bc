import type { WorkflowPlan } from '../../engine';
import type { AdapterLine } from '../adapter-line';
import { parsePromptArguments } from '../prompts/parse-prompt-arguments';
import type { WorkflowArguments, WorkflowCall, WorkflowRunner } from '../run/workflow-runner';
import { RERUN_METHOD, rerunRequest } from './rerun-request';
import type { RunRecords } from './run-records';

/** A face of a workflow a rerun can run through: its plan, whether it asks, how it is called, and the schema its arguments are parsed with. */
interface RerunnableFace {
  readonly plan: WorkflowPlan;
  readonly asks: boolean;
  readonly call: WorkflowCall;
  readonly schema: object | undefined;
}

/**
 * A dev server's `mcpflow/rerun` (DESIGN §2.15): registered on the server only in dev mode (else
 * the SDK answers `-32601`), it finds the recorded run, checks new arguments as the face it ran
 * through would (`prompts/get`'s or `tools/call`'s messages), and runs it again through that face —
 * its result is the face's usual one (the messages, or the `CallToolResult`), with
 * `_meta["mcpflow/run"]` naming the new run and its origin.
 *
 * @example
 * ```ts
 * const reruns = new DevReruns(server, line, runner, records);
 * reruns.serve({ face: 'prompt', name: 'build' }, plan, asks, schema);
 * ```
 */
export class DevReruns<Server, Context> {
  private readonly faces = new Map<string, RerunnableFace>();

  constructor(
    server: Server,
    private readonly line: AdapterLine<Server, Context>,
    private readonly runner: WorkflowRunner<Server, Context>,
    private readonly records: RunRecords,
  ) {
    line.handleRequest(server, RERUN_METHOD, (params, context) => this.rerun(params, context));
  }

  /** A workflow face this server serves: a run through it can be rerun here. */
  serve(call: WorkflowCall, plan: WorkflowPlan, asks: boolean, schema: object | undefined): void {
    this.faces.set(faceKey(call.face, call.name), { plan, asks, call, schema });
  }

  private async rerun(params: unknown, context: Context): Promise<unknown> {
    const invalid = (message: string) => this.line.invalidParams(message);
    const { record, rerun, arguments: raw } = rerunRequest(this.records, params, invalid);
    const face = this.faces.get(faceKey(record.face, record.name));
    if (face?.plan !== record.plan)
      throw invalid(
        `${RERUN_METHOD}: run '${record.id}' ran ${record.face} ${record.name} of workflow '${record.plan.model.name}', which this server does not serve. ` +
          `Rerun it through the server that ran it.`,
      );
    const args =
      raw === undefined
        ? record.args
        : ((await parsePromptArguments(this.line as AdapterLine<unknown, unknown>, record.face, record.name, face.schema, raw, true)) ??
          {});
    return this.runner.rerun(face.plan, face.asks, args as WorkflowArguments, context, face.call, rerun);
  }
}

function faceKey(face: 'prompt' | 'tool', name: string): string {
  return `${face} ${name}`;
}
