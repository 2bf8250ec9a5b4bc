import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, constant, field, promptArg, workflowTool } from '@mcpflow/decorators';
import type { RunEndEvent, StepEvent } from '@mcpflow/core';
import { MATRIX, type Line, type TestServer } from '../helpers/lines';
import { findSecret } from '../helpers/secrets';

/**
 * Issue 31, points 2 and 11: a run's secrets are one set that flows through sub-workflows both
 * ways. An outer sensitive argument passed to an inner workflow that does not mark it stays
 * redacted in the inner run (its trace, `_meta`, the hooks that see it); an outer argument that
 * feeds an inner workflow's sensitive argument, at any depth below, is sensitive in the outer run.
 */

const PIN = 'pin-4321-secret';
const TOKEN = 'tok-9876-private';

/** Echoes its input: marks nothing sensitive. */
@Workflow({ name: 'apply_code', arguments: { code: z.string() }, expose: { prompt: false, tool: { name: 'apply_code' } } })
class ApplyCode {
  @Step({ tool: 'echo', args: { code: promptArg('code') } })
  @Bind('echoed')
  echoed!: unknown;
}

@Workflow({ name: 'deploy', arguments: { pin: z.string() }, sensitiveArguments: ['pin'] })
class Deploy {
  @Step({ tool: workflowTool(ApplyCode), args: { code: promptArg('pin') } })
  @Bind('applied')
  applied!: unknown;
}

/** Keeps its key secret. */
@Workflow({
  name: 'vault_open',
  arguments: { key: z.string() },
  sensitiveArguments: ['key'],
  expose: { prompt: false, tool: { name: 'vault_open' } },
})
class VaultOpen {
  @Step({ tool: 'echo', args: { code: promptArg('key') } })
  opened!: unknown;
}

/** Passes its argument through, marking nothing. */
@Workflow({ name: 'relay', arguments: { token: z.string() }, expose: { prompt: false, tool: { name: 'relay' } } })
class Relay {
  @Step({ tool: workflowTool(VaultOpen), args: { key: promptArg('token') } })
  relayed!: unknown;
}

@Workflow({ name: 'ship', arguments: { token: z.string() } })
class Ship {
  @Step({ tool: workflowTool(VaultOpen), args: { key: promptArg('token') } })
  opened!: unknown;
}

@Workflow({ name: 'ship_far', arguments: { token: z.string() } })
class ShipFar {
  @Step({ tool: workflowTool(Relay), args: { token: promptArg('token') } })
  relayed!: unknown;
}

const PIN_CONSTANT = '4321-7788-0099';

/** Holds a sensitive constant of its own. */
@Workflow({ name: 'pin_check', arguments: { user: z.string() }, expose: { prompt: false, tool: { name: 'pin_check' } } })
class PinCheck {
  @Step({ tool: 'echo', args: { code: constant('4321-7788-0099') }, sensitiveArgs: ['code'] })
  checked!: unknown;
}

@Workflow({ name: 'audit', arguments: { user: z.string() } })
class Audit {
  @Step({ tool: workflowTool(PinCheck), args: { user: promptArg('user') } })
  checked!: unknown;

  @Step({ tool: 'status', args: { user: promptArg('user') } })
  status!: unknown;
}

const SESSION = 'session-5151-opaque';

/** Logs in and uses the session token a tool returned as a sensitive argument: a secret it holds. */
@Workflow({ name: 'session_probe', arguments: { user: z.string() }, expose: { prompt: false, tool: { name: 'session_probe' } } })
class SessionProbe {
  @Step({ tool: 'login', args: { user: promptArg('user') } })
  @Bind('login')
  login!: { token: string };

  @Step({ tool: 'echo', args: { code: field('login', 'token') }, sensitiveArgs: ['code'] })
  used!: unknown;
}

@Workflow({ name: 'probe_then_report', arguments: { user: z.string() } })
class ProbeThenReport {
  @Step({ tool: workflowTool(SessionProbe), args: { user: promptArg('user') } })
  probed!: unknown;

  // A question after the inner run: on 2026-07-28 the outer run pauses here and resumes from its sealed state.
  @Step({ tool: 'confirm', args: { confirmed: askUser('Report now?') } })
  confirmed!: unknown;

  @Step({ tool: 'whoami', args: { user: promptArg('user') } })
  report!: unknown;
}

function server(line: Line, events: unknown[]) {
  return (): TestServer => {
    const built = new line.WorkflowServer(
      { name: 'nested', version: '1.0.0' },
      { onStep: (event: StepEvent) => void events.push(event), onRunEnd: (event: RunEndEvent) => void events.push(event) },
    );
    built.registerTool('echo', { inputSchema: { code: z.string() } }, async ({ code }: { code: string }) => ({
      content: [{ type: 'text' as const, text: JSON.stringify({ code }) }],
    }));
    // A tool of the outer workflow that happens to reveal the inner workflow's secret.
    built.registerTool('status', { inputSchema: { user: z.string() } }, async () => ({
      content: [{ type: 'text' as const, text: `last PIN used: ${PIN_CONSTANT}` }],
    }));
    built.registerTool('login', { inputSchema: { user: z.string() } }, async () => ({
      content: [{ type: 'text' as const, text: JSON.stringify({ token: SESSION }) }],
    }));
    built.registerTool('confirm', { inputSchema: { confirmed: z.string() } }, async () => ({
      content: [{ type: 'text' as const, text: 'ok' }],
    }));
    built.registerTool('whoami', { inputSchema: { user: z.string() } }, async () => ({
      content: [{ type: 'text' as const, text: `current session ${SESSION}` }],
    }));
    return built.use(Deploy, Ship, ShipFar, Audit, ProbeThenReport);
  };
}

describe.each(MATRIX.filter((entry) => entry.transport !== 'http'))('secrets through nesting: $label', ({ line, transport }) => {
  test('an outer sensitive argument passed to an inner workflow that does not mark it stays redacted in the inner run', async () => {
    const events: unknown[] = [];
    const client = await line.connect(server(line, events), { transport });
    const prompt = await client.getPrompt({ name: 'deploy', arguments: { pin: PIN } });
    const tool = await client.callTool({ name: 'apply_code', arguments: { code: 'not-a-secret' } });
    await client.close();
    expect(findSecret(prompt, PIN)).toBeUndefined();
    // The inner run's own events (hooks see every run): redacted by the outer run's secrets.
    const inner = events.filter((event) => (event as { workflow?: string }).workflow === 'apply_code');
    expect(inner.length).toBeGreaterThan(0);
    expect(findSecret(events, PIN)).toBeUndefined();
    // Called by a client directly, the inner workflow has no outer secrets: nothing is redacted.
    expect(JSON.stringify(tool)).toContain('not-a-secret');
  });

  test("an inner workflow's sensitive constant is a secret of the outer run too (a later outer tool reveals it)", async () => {
    const events: unknown[] = [];
    const client = await line.connect(server(line, events), { transport });
    const prompt = await client.getPrompt({ name: 'audit', arguments: { user: 'ada' } });
    await client.close();
    expect((prompt._meta?.['mcpflow/execution'] as { status: string }).status).toBe('completed');
    expect(JSON.stringify(prompt.messages)).toContain('last PIN used: [redacted]');
    expect(findSecret(prompt, PIN_CONSTANT)).toBeUndefined();
    expect(findSecret(events, PIN_CONSTANT)).toBeUndefined();
  });

  test('a secret an inner run learned from its tools is a secret of the outer run after it, across a pause (a later outer tool reveals it)', async () => {
    const events: unknown[] = [];
    const client = await line.connect(server(line, events), {
      transport,
      elicit: () => ({ action: 'accept', content: { confirmed: 'yes' } }),
    });
    const prompt = await client.getPrompt({ name: 'probe_then_report', arguments: { user: 'ada' } });
    await client.close();
    expect((prompt._meta?.['mcpflow/execution'] as { status: string }).status).toBe('completed');
    expect(JSON.stringify(prompt.messages)).toContain('current session [redacted]');
    expect(findSecret(prompt, SESSION)).toBeUndefined();
  });

  test.each([
    ['one level below', 'ship'],
    ['two levels below, through a workflow that marks nothing', 'ship_far'],
  ])('an outer argument feeding an inner sensitive argument %s is sensitive in the outer run', async (_depth, name) => {
    const events: unknown[] = [];
    const client = await line.connect(server(line, events), { transport });
    const prompt = await client.getPrompt({ name, arguments: { token: TOKEN } });
    await client.close();
    expect((prompt._meta?.['mcpflow/execution'] as { status: string }).status).toBe('completed');
    expect(JSON.stringify(prompt.messages)).toContain('[redacted]');
    expect(findSecret(prompt, TOKEN)).toBeUndefined();
    expect(findSecret(events, TOKEN)).toBeUndefined();
  });
});
