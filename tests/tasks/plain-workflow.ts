import 'reflect-metadata';
import { Bind, Step, Workflow } from '@mcpflow/decorators';

/** A workflow served as a prompt only: no task tool. */
@Workflow({ name: 'tour', description: 'Look around' })
export class Tour {
  @Step({ tool: 'look' })
  @Bind('seen')
  seen!: unknown;
}
