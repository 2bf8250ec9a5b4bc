// The kind's folder, imported first: the mock factories below read it when the tables first load.
import { delayAction } from './delay/delay-action';
import { delayStep } from './delay/delay-step';
import 'reflect-metadata';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { WorkflowServer as WorkflowServerV1 } from '@mcpflow/core/v1';
import { WorkflowServer as WorkflowServerV2 } from '@mcpflow/core/v2';
import { InvalidStepActionError, InvalidStepOptionError, WorkflowValidationError } from '@mcpflow/core/rules';
import { Bind, Step, Workflow, field, promptArg } from '@mcpflow/decorators';
import { connect, messageText } from '../helpers/connect';

/**
 * A third kind of step, known only to this test, proves what CONTRIBUTING.md says a new kind
 * touches: its folder (./delay: the action's entry and the engine's kind) and one entry in each
 * table, added here as a kind's author adds them to the tables' files. Nothing else learns of it,
 * yet `@Step({ delay })` is read, checked, planned, run and described on both SDK lines.
 *
 * (The compile-time reader loads the built tables, which do not hold this kind: the test compiles
 * without mcpflow's diagnostics, see jest.config.js.)
 */
jest.mock('../../packages/core/src/model/step-actions', () => {
  const actual = jest.requireActual('../../packages/core/src/model/step-actions');
  return { ...actual, STEP_ACTIONS: [...actual.STEP_ACTIONS, delayAction] };
});
jest.mock('../../packages/core/src/engine/steps/step-kinds', () => {
  const actual = jest.requireActual('../../packages/core/src/engine/steps/step-kinds');
  return { ...actual, STEP_KINDS: [...actual.STEP_KINDS, delayStep] };
});

/** What the kind adds to `@Step`'s options, as its line in `StepActionOptions` would. */
declare module '../../packages/core/src/model/step-actions' {
  interface StepActionOptions {
    /** How long to wait, in milliseconds. */
    delay?: number;
  }
}

@Workflow({ name: 'wait_then_greet', description: 'Wait, then greet', arguments: { name: z.string() } })
class WaitThenGreet {
  @Step({ delay: 20, guidance: 'Letting {name} settle in.' })
  @Bind('waited')
  waited!: { waitedMs: number };

  @Step({ tool: 'greet', args: { name: promptArg('name'), waited: field('waited', 'waitedMs') } })
  greeting!: unknown;
}

const greet = { inputSchema: { name: z.string(), waited: z.number() } };
const greeting = ({ name, waited }: { name: string; waited: number }) => ({
  content: [{ type: 'text' as const, text: `Hello ${name}, after ${waited} ms` }],
});

const lines = [
  {
    sdk: 1,
    run: async (target: new () => unknown, args: Record<string, string>) => {
      const server = new WorkflowServerV1({ name: 'waits', version: '1.0.0' });
      server.registerTool('greet', greet, greeting);
      const client = await connect(server.use(target));
      try {
        return await client.getPrompt({ name: 'wait_then_greet', arguments: args });
      } finally {
        await client.close();
      }
    },
  },
  {
    sdk: 2,
    run: async (target: new () => unknown, args: Record<string, string>) => {
      const server = new WorkflowServerV2({ name: 'waits', version: '1.0.0' });
      server.registerTool('greet', { inputSchema: z.object(greet.inputSchema) }, greeting);
      const client = new ClientV2({ name: 'delay-test', version: '1.0.0' });
      const [clientTransport, serverTransport] = InMemoryTransportV2.createLinkedPair();
      await server.use(target).connect(serverTransport);
      await client.connect(clientTransport);
      try {
        return await client.getPrompt({ name: 'wait_then_greet', arguments: args });
      } finally {
        await client.close();
      }
    },
  },
];

describe.each(lines)('a test-only delay step on SDK $sdk.x', ({ run }) => {
  test('is planned, announced, run and valued, and a later step reads its binding', async () => {
    const result = await run(WaitThenGreet, { name: 'Ada' });
    expect(result.messages.map(messageText)).toEqual([
      'Wait, then greet\nArguments:\n- name: Ada',
      'Plan:\n1. waited: wait 20 ms\n2. greeting: call tool greet',
      'Letting Ada settle in.',
      'Waiting 20 ms',
      'Calling tool greet with arguments: {"name":"Ada","waited":20}',
      'Result of greet:\nHello Ada, after 20 ms',
    ]);
    expect(result._meta?.['mcpflow/execution']).toEqual({
      status: 'completed',
      steps: [
        { name: 'waited', status: 'completed' },
        { name: 'greeting', status: 'completed' },
      ],
    });
  });

  test('takes the engine step policy as every kind does: its timeout fails it', async () => {
    @Workflow({ name: 'wait_then_greet', arguments: { name: z.string() } })
    class TooLong {
      @Step({ delay: 60_000, timeoutMs: 20 })
      @Bind('waited')
      waited!: unknown;
    }
    const result = await run(TooLong, { name: 'Ada' });
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'failed',
      stoppedAt: 'waited',
      reason: 'the wait timed out after 20 ms',
    });
  });

  test('is checked by the rules from its table entry: exactly one action, and a value the kind accepts', async () => {
    @Workflow({ name: 'wait_then_greet', arguments: { name: z.string() } })
    class Backwards {
      @Step({ delay: -5 })
      waited!: unknown;

      @Step({ delay: 5, tool: 'greet' })
      both!: unknown;
    }
    const thrown = await run(Backwards, { name: 'Ada' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(WorkflowValidationError);
    const { errors } = thrown as WorkflowValidationError;
    expect(errors).toEqual([expect.any(InvalidStepOptionError), expect.any(InvalidStepActionError)]);
    expect(errors[0].message).toContain("option 'delay' is -5; it must be 0 or more milliseconds.");
  });
});
