/**
 * get_hint (interactive fiction): a tool step finds the player's game, then a resource step reads
 * `if://walkthrough/{game_id}` with the game id taken from the first step's result.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Bind, Step, TemplateBinding, Workflow, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';
import { main } from '../serve';

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
  @Step({ tool: 'get_my_progress', args: { player: promptArg('player') }, guidance: "I'll check {player}'s progress first." })
  @Bind('progress')
  progress!: { game_id: string; room: string; moves: number };

  @Step({ resource: 'if://walkthrough/{game_id}', guidance: 'Now the walkthrough of that game, to find the next step.' })
  @TemplateBinding('game_id', field('progress', 'game_id'))
  @Bind('walkthrough')
  walkthrough!: string;
}

const PLAYERS: Record<string, { game_id: string; room: string; moves: number }> = {
  alice: { game_id: 'zork1', room: 'West of House', moves: 3 },
  bob: { game_id: 'hitchhiker', room: 'Dark', moves: 12 },
};

const WALKTHROUGHS: Record<string, string> = {
  zork1: '# Zork I\n1. Open the mailbox.\n2. Read the leaflet.\n3. Go north, then east to the window.',
  hitchhiker: "# The Hitchhiker's Guide\n1. Turn on the light.\n2. Get up.\n3. Take the gown.",
};

/** The interactive fiction server: player progress, walkthroughs, and the hint workflow. */
export function createGetHintServer(): WorkflowServer {
  const server = new WorkflowServer({ name: 'interactive-fiction', version: '1.0.0' });

  server.registerTool(
    'get_my_progress',
    { description: "Get a player's current game, room and move count", inputSchema: { player: z.string() } },
    async ({ player }) => {
      const progress = PLAYERS[player];
      if (!progress) return { content: [{ type: 'text', text: `No saved game for player '${player}'` }], isError: true };
      return { content: [{ type: 'text', text: JSON.stringify(progress) }], structuredContent: progress };
    },
  );

  server.registerResource(
    'walkthrough',
    new ResourceTemplate('if://walkthrough/{game_id}', { list: undefined }),
    { description: 'The walkthrough of a game', mimeType: 'text/markdown' },
    async (uri, { game_id }) => {
      const text = WALKTHROUGHS[String(game_id)];
      if (text === undefined) throw new Error(`No walkthrough for game '${String(game_id)}'`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
    },
  );

  return server.use(GetHint);
}

if (require.main === module) main('interactive-fiction', createGetHintServer);
