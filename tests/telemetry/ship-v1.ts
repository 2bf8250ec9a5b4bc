import { z } from 'zod';
import { Bind, Step, Workflow, askUser, field, promptArg } from '@mcpflow/decorators';

/** Version 1: build, then ask where to ship. */
@Workflow({ name: 'ship', version: '1', description: 'Ship a release', arguments: { release: z.string() }, expose: { tool: true } })
export class ShipV1 {
  @Step({ tool: 'build', args: { release: promptArg('release') } })
  @Bind('built')
  built!: unknown;

  @Step({ tool: 'deliver', args: { target: askUser('Ship {release} where?', { choices: field('built', 'targets') }) } })
  delivered!: unknown;
}
