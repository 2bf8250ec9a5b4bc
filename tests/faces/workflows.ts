import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, defineTool, field, promptArg, workflowTool, type WorkflowToolResult } from '@mcpflow/decorators';
import type { TestServer } from '../helpers/lines';

/**
 * The workflows of the faces tests: one served as a prompt and a tool, one as a tool only, one
 * that asks, and two that call another workflow (by its class, and by its tool's name).
 */

const lookupPlayer = defineTool(
  'lookup_player',
  { description: "A player's progress", inputSchema: { player: z.string() }, outputSchema: { room: z.string(), score: z.number() } },
  async ({ player }) => {
    const progress = { room: player === 'ada' ? 'West of House' : 'Cellar', score: 7 };
    return { content: [{ type: 'text', text: JSON.stringify(progress) }], structuredContent: progress };
  },
);

@Workflow({
  name: 'get_hint',
  title: 'Get a hint',
  description: 'Get a contextual hint for a player',
  arguments: { player: z.string().describe("The player's name"), level: z.string().optional().describe('How much to reveal') },
  expose: { tool: true },
})
export class GetHint {
  @Step({ tool: lookupPlayer, args: { player: promptArg('player') }, guidance: "I'll look up {player}'s progress." })
  @Bind('progress')
  progress!: { room: string; score: number };

  @Step({ tool: 'hint_for', args: { room: field('progress', 'room') } })
  @Bind('hint')
  hint!: { text: string };
}

@Workflow({
  name: 'quiet_hint',
  description: 'A hint, served only as a tool',
  arguments: { player: z.string() },
  expose: { prompt: false, tool: { name: 'quiet_hint_tool', title: 'Quiet hint' } },
})
export class QuietHint {
  @Step({ tool: lookupPlayer, args: { player: promptArg('player') } })
  @Bind('progress')
  progress!: { room: string; score: number };
}

@Workflow({
  name: 'dated_hint',
  description: 'A hint for a day the user picks',
  arguments: { player: z.string() },
  expose: { tool: true },
})
export class DatedHint {
  @Step({ tool: 'hint_for', args: { room: promptArg('player'), day: askUser('Which day is it for {player}?') } })
  @Bind('hint')
  hint!: { text: string };
}

@Workflow({ name: 'coach', description: 'Coach a player with a hint', arguments: { player: z.string() } })
export class Coach {
  @Step({ tool: workflowTool(GetHint), args: { player: promptArg('player') } })
  @Bind('hint')
  hint!: WorkflowToolResult<{ progress?: { room: string; score: number }; hint?: { text: string } }>;

  @Step({ tool: 'note', args: { status: field('hint', 'status'), room: field('hint', 'outputs.progress.room') } })
  @Bind('noted')
  noted!: unknown;
}

@Workflow({ name: 'dated_coach', description: 'Coach a player with a hint for a day', arguments: { player: z.string() } })
export class DatedCoach {
  @Step({ tool: workflowTool(DatedHint), args: { player: promptArg('player') } })
  @Bind('hint')
  hint!: WorkflowToolResult<{ hint?: { text: string } }>;
}

@Workflow({ name: 'coach_by_name', description: 'Coach a player, calling get_hint by name', arguments: { player: z.string() } })
export class CoachByName {
  @Step({ tool: 'get_hint', args: { player: promptArg('player') } })
  @Bind('hint')
  hint!: unknown;

  @Step({ tool: 'note', args: { status: field('hint', 'status') } })
  noted!: unknown;
}

/** How the `hint_for` tool behaves in a scenario. */
export type HintTool = 'ok' | 'throws' | 'needs a day';

/** Registers the plain tools the workflows call by name: `hint_for` as the scenario wants it, and `note`. */
export function registerTools(server: TestServer, hint: HintTool, calls: string[] = []): TestServer {
  const inputSchema = { room: z.string(), day: hint === 'needs a day' ? z.string() : z.string().optional() };
  server.registerTool('hint_for', { description: 'A hint for a room', inputSchema }, async ({ room, day }) => {
    calls.push(`hint_for ${room}`);
    if (hint === 'throws') throw new Error('the hint service is down');
    const text = `Try the mailbox in ${room}${day ? ` on ${day}` : ''}`;
    return { content: [{ type: 'text', text: JSON.stringify({ text }) }], structuredContent: { text } };
  });
  server.registerTool(
    'note',
    { description: 'Note how coaching went', inputSchema: { status: z.string(), room: z.string().optional() } },
    async (args) => {
      calls.push(`note ${JSON.stringify(args)}`);
      return { content: [{ type: 'text', text: 'noted' }] };
    },
  );
  return server;
}
