import 'reflect-metadata';
import { z } from 'zod';
import { WorkflowCycleError, WorkflowValidationError, type WorkflowOptions } from '@mcpflow/core';
import { Bind, Step, Workflow, promptArg, workflowTool, type StepOptions } from '@mcpflow/decorators';
import { LINES, type TestServer } from '../helpers/lines';
import { GetHint, registerTools } from './workflows';

/**
 * What use() refuses about faces and workflow calls, on both lines, before it registers anything:
 * a ring of workflow tools, a call of a workflow that is no tool (or with an argument it does not
 * declare), a tool name already taken, and on SDK 1.x a skill. The broken classes are decorated by
 * calls, not decorator syntax, so the compiler (which would refuse them first) does not read them.
 */

/** A workflow class decorated at run time: `steps` maps each property to its @Step options. */
function workflowClass(options: WorkflowOptions, steps: Record<string, StepOptions>): new () => unknown {
  const target = class {};
  Object.defineProperty(target, 'name', {
    value: options.name.replace(/(^|_)(\w)/g, (_, _sep: string, char: string) => char.toUpperCase()),
  });
  for (const [property, step] of Object.entries(steps)) {
    Step(step)(target.prototype, property);
    Bind(property)(target.prototype, property);
  }
  Workflow(options)(target);
  return target;
}

const asTool = (name: string, steps: Record<string, StepOptions>, extra: Partial<WorkflowOptions> = {}) =>
  workflowClass({ name, description: `The ${name} workflow`, arguments: { player: z.string() }, expose: { tool: true }, ...extra }, steps);

function refusal(run: () => unknown): { name: string; message: string; codes: number[] } {
  try {
    run();
  } catch (error) {
    const errors = error instanceof WorkflowValidationError ? error.errors : [error as Error & { code?: number }];
    return { name: (error as Error).name, message: (error as Error).message, codes: errors.map((each) => (each as { code: number }).code) };
  }
  throw new Error('use() accepted what it should refuse');
}

describe.each(LINES)('SDK line $name', (line) => {
  const server = (): TestServer => registerTools(new line.WorkflowServer({ name: 'checks', version: '1.0.0' }), 'ok');

  test('a ring of workflow tools named by string is refused when the use() that closes it comes, naming the ring', () => {
    const ringA = asTool('ring_a', { delegate: { tool: 'ring_b', args: { player: promptArg('player') } } });
    const ringB = asTool('ring_b', { delegate: { tool: 'ring_a', args: { player: promptArg('player') } } });
    const served = server().use(ringA);
    const refused = refusal(() => served.use(ringB));
    expect(refused).toEqual({
      name: 'WorkflowCycleError',
      codes: [91052],
      message:
        "Workflow 'ring_b', step 'delegate': calls workflow tool 'ring_a', which leads back to this workflow: 'ring_b' → 'ring_a' → 'ring_b'. A workflow cannot call itself, directly or through others. Fix: remove one call of the cycle, or move the shared steps into a workflow that calls none of these.",
    });
    expect(() => server().use(ringA, ringB)).toThrow(WorkflowCycleError);
    // Nothing of the refused use() was registered: ring_b can be given a fixed definition later.
    expect(() => served.use(asTool('ring_b', { delegate: { tool: 'hint_for', args: { room: promptArg('player') } } }))).not.toThrow();
  });

  test('a workflow calling its own class is a ring of one', () => {
    const recursive = asTool('recursive', {});
    Step({ tool: workflowTool(recursive), args: { player: promptArg('player') } })(recursive.prototype, 'again');
    expect(() => server().use(recursive)).toThrow(/'recursive' → 'recursive'/);
  });

  test('a call of a workflow class that is no tool, and an argument the called workflow does not declare, are refused at use()', () => {
    const notATool = workflowClass(
      { name: 'not_a_tool', description: 'Only a prompt', arguments: { player: z.string() } },
      {
        fetch: { tool: 'hint_for', args: { room: promptArg('player') } },
      },
    );
    const caller = workflowClass(
      { name: 'caller', description: 'Calls two workflows', arguments: { player: z.string() } },
      {
        first: { tool: workflowTool(notATool), args: { player: promptArg('player') } },
        second: { tool: workflowTool(GetHint), args: { playr: promptArg('player') } },
      },
    );
    const refused = refusal(() => server().use(caller));
    expect(refused.codes).toEqual([91053, 91032]);
    expect(refused.message).toContain(
      "Workflow 'caller', step 'first': calls workflow 'not_a_tool' as a tool (workflowTool(NotATool)), but that workflow is not served as a tool. Fix: add expose: { tool: true } to the @Workflow options of class NotATool.",
    );
    expect(refused.message).toContain("Workflow 'caller', step 'second': maps argument 'playr', but tool get_hint has no such input.");
  });

  test('use() serves the workflow a step calls by class, as it registers the definitions steps use', () => {
    const coach = workflowClass(
      { name: 'coach_only', description: 'Coach', arguments: { player: z.string() } },
      {
        hint: { tool: workflowTool(GetHint), args: { player: promptArg('player') } },
      },
    );
    const served = server().use(coach);
    expect(() => served.validate()).not.toThrow();
    // Serving GetHint again is refused as any second use of one workflow is.
    expect(() => served.use(GetHint)).toThrow(/prompt name 'get_hint'/);
  });

  test('a tool name already taken, by a plain tool or by another workflow tool, is refused naming the fix', () => {
    const taken = server();
    taken.registerTool('get_hint', { description: 'Not the workflow' }, async () => ({ content: [] }));
    expect(() => taken.use(GetHint)).toThrow(
      "Tool get_hint is already registered on this server; give workflow class GetHint a tool name of its own: expose: { tool: { name: '…' } }.",
    );
    const twin = asTool('twin', {}, { expose: { tool: { name: 'get_hint' } } });
    Step({ tool: 'hint_for', args: { room: promptArg('player') } })(twin.prototype, 'fetch');
    expect(() => server().use(GetHint, twin)).toThrow(/Tool get_hint is already registered on this server; give workflow class Twin/);
  });

  test(line.name === 'v1' ? 'skill: true is refused on SDK 1.x, naming @mcpflow/core/v2' : 'skill: true is served on SDK 2.x', () => {
    const skilled = asTool('skilled', { fetch: { tool: 'hint_for', args: { room: promptArg('player') } } }, { expose: { skill: true } });
    if (line.name === 'v2') {
      expect(() => server().use(skilled)).not.toThrow();
      return;
    }
    const refused = refusal(() => server().use(skilled));
    expect(refused).toEqual({
      name: 'SkillFaceUnavailableError',
      codes: [91054],
      message:
        "Workflow 'skilled': is exposed as a skill, but this server (@mcpflow/core/v1) has no skills extension: SEP-2640 skills are served by MCP SDK 2.x. Fix: serve it with WorkflowServer from '@mcpflow/core/v2' (on @modelcontextprotocol/server 2.4 or later), or remove expose.skill.",
    });
  });
});
