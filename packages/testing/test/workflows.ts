import { z } from 'zod';
import type { WorkflowClass } from '@mcpflow/core';
import {
  Bind,
  Step,
  TemplateBinding,
  Workflow,
  askModel,
  askUser,
  defineResource,
  defineTool,
  field,
  fromStep,
  promptArg,
  workflowTool,
} from '@mcpflow/decorators';

/** Real handlers, which run when a test gives no stub for them. */
const getMyProgress = defineTool(
  'get_my_progress',
  { description: "A player's progress", inputSchema: { player: z.string() }, outputSchema: { game_id: z.string(), room: z.string() } },
  async () => {
    const progress = { game_id: 'zork1', room: 'West of House' };
    return { content: [{ type: 'text', text: JSON.stringify(progress) }], structuredContent: progress };
  },
);

const walkthrough = defineResource(
  'walkthrough',
  'if://walkthrough/{game_id}',
  { mimeType: 'text/markdown' },
  async (uri, { game_id }) => ({ contents: [{ uri: uri.href, text: `Walkthrough of ${game_id}` }] }),
);

/** A tool definition, a resource definition, and a tool named by string that only a stub provides. */
@Workflow({ name: 'get_hint', description: 'Get a hint for the current game', arguments: { player: z.string() } })
export class GetHint {
  @Step({ tool: getMyProgress, args: { player: promptArg('player') } })
  @Bind('progress')
  progress!: { game_id: string; room: string };

  @Step({ resource: walkthrough })
  @TemplateBinding('game_id', field('progress', 'game_id'))
  @Bind('walkthrough')
  walkthrough!: string;

  @Step({ tool: 'write_hint', args: { room: field('progress', 'room'), walkthrough: fromStep('walkthrough') } })
  @Bind('hint')
  hint!: string;
}

/** Asks the user to pick a page among the ones a tool found. */
@Workflow({ name: 'add_project_task', description: 'Add a task to a project', arguments: { project: z.string(), task: z.string() } })
export class AddProjectTask {
  @Step({ tool: 'list_pages', args: { query: promptArg('project') } })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({
    tool: 'add_task',
    args: { project: askUser("Which page should '{task}' go on?", { choices: field('pages', 'names') }), task: promptArg('task') },
  })
  @Bind('added')
  added!: { ok: boolean; page: string };
}

/** Asks the model for a label and the user for an owner, in one step. */
@Workflow({ name: 'triage', description: 'Label an issue and pick its owner', arguments: { issue: z.string() } })
export class Triage {
  @Step({ tool: 'fetch_issue', args: { id: promptArg('issue') } })
  @Bind('issue')
  issue!: { title: string };

  @Step({
    tool: 'label_issue',
    args: {
      id: promptArg('issue'),
      label: askModel('Pick one label for this issue', { context: { issue: fromStep('issue') }, schema: z.enum(['bug', 'feature']) }),
      owner: askUser('Who should own {issue}?', { schema: z.object({ owner: z.string(), notify: z.boolean() }) }),
    },
  })
  @Bind('labelled')
  labelled!: unknown;
}

/** Each call of the real `get_price` handler: a test that stubs it must leave this empty. */
export const realPriceCalls: unknown[] = [];

/** A real handler with side effects, which a typo in a stub's name must never let run. */
const getPrice = defineTool(
  'get_price',
  { description: 'The price of an item', inputSchema: { sku: z.string() }, outputSchema: { price: z.number() } },
  async ({ sku }) => {
    realPriceCalls.push(sku);
    return { content: [{ type: 'text', text: '{"price":100}' }], structuredContent: { price: 100 } };
  },
);

/** Asks the user how many, prices the item and places the order; served as a prompt and as a tool. */
@Workflow({ name: 'order', description: 'Order an item', arguments: { sku: z.string() }, expose: { tool: { name: 'order_item' } } })
export class Order {
  @Step({ tool: getPrice, args: { sku: promptArg('sku') } })
  @Bind('price')
  price!: { price: number };

  @Step({ tool: 'place_order', args: { sku: promptArg('sku'), quantity: askUser('How many?', { schema: z.number() }) } })
  @Bind('placed')
  placed!: { id: string };
}

/** Calls `order` as a sub-workflow, then notes the result: its stubs and answers are those of both. */
@Workflow({ name: 'reorder', description: 'Order an item again', arguments: { sku: z.string() } })
export class Reorder {
  @Step({ tool: workflowTool(Order), args: { sku: promptArg('sku') } })
  @Bind('ordered')
  ordered!: unknown;

  @Step({ tool: 'note_order', args: { status: field('ordered', 'status') } })
  noted!: unknown;
}

/** A class whose second step reads `analysis`, bound only as `analysis_result`: decorated at run time, as the compiler would refuse it. */
export function brokenWorkflow(): WorkflowClass {
  class Review {
    analyze!: unknown;
    review!: unknown;
  }
  Bind('analysis_result')(Review.prototype, 'analyze');
  Step({ tool: 'analyze' })(Review.prototype, 'analyze');
  Step({ tool: 'review', args: { analysis: fromStep('analysis') } })(Review.prototype, 'review');
  Workflow({ name: 'review', arguments: { code: z.string().optional() } })(Review);
  return Review;
}
