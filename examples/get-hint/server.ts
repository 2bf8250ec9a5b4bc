/**
 * get_hint (interactive fiction): a tool step finds the player's game, then a resource step reads
 * `if://walkthrough/{game_id}` with the game id taken from the first step's result. Both are
 * definitions: the compiler checks the step's arguments, the `@Bind` type against the tool's
 * output and the template's `{game_id}` against the `@TemplateBinding`; `use()` registers them.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, TemplateBinding, Workflow, defineResource, defineTool, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';
import { main } from '../serve';

const PLAYERS: Record<string, { game_id: string; room: string; moves: number }> = {
  alice: { game_id: 'zork1', room: 'West of House', moves: 3 },
  bob: { game_id: 'hitchhiker', room: 'Dark', moves: 12 },
};

const WALKTHROUGHS: Record<string, string> = {
  zork1: '# Zork I\n1. Open the mailbox.\n2. Read the leaflet.\n3. Go north, then east to the window.',
  hitchhiker: "# The Hitchhiker's Guide\n1. Turn on the light.\n2. Get up.\n3. Take the gown.",
};

export const getMyProgress = defineTool(
  'get_my_progress',
  {
    description: "Get a player's current game, room and move count",
    inputSchema: { player: z.string() },
    outputSchema: { game_id: z.string(), room: z.string(), moves: z.number() },
  },
  async ({ player }) => {
    const progress = PLAYERS[player];
    if (!progress) return { content: [{ type: 'text', text: `No saved game for player '${player}'` }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify(progress) }], structuredContent: progress };
  },
);

export const walkthrough = defineResource(
  'walkthrough',
  'if://walkthrough/{game_id}',
  { description: 'The walkthrough of a game', mimeType: 'text/markdown' },
  async (uri, { game_id }) => {
    const text = WALKTHROUGHS[String(game_id)];
    if (text === undefined) throw new Error(`No walkthrough for game '${String(game_id)}'`);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
  },
);

@Workflow({
  name: 'get_hint',
  description: 'Get a contextual hint for the current game',
  arguments: {
    player: z.string().describe('Player id'),
    style: z.string().optional().describe('Hint style, e.g. gentle or direct'),
  },
  instructions: ['You are a friendly game master: hint at the next move, never spoil the ending.'],
})
export class GetHint {
  @Step({ tool: getMyProgress, args: { player: promptArg('player') }, guidance: "I'll check {player}'s progress first." })
  @Bind('progress')
  progress!: { game_id: string; room: string; moves: number };

  @Step({ resource: walkthrough, guidance: 'Now the walkthrough of that game, to find the next step.' })
  @TemplateBinding('game_id', field('progress', 'game_id'))
  @Bind('walkthrough')
  walkthrough!: string;
}

/** The interactive fiction server: the hint workflow, and through it player progress and walkthroughs. */
export function createGetHintServer(): WorkflowServer {
  return new WorkflowServer({ name: 'interactive-fiction', version: '1.0.0' }).use(GetHint);
}

if (require.main === module) main('interactive-fiction', createGetHintServer);
