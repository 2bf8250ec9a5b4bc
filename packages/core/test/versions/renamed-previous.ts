import { z } from 'zod';
import { Step, Workflow, promptArg } from '@mcpflow/decorators';
import { AddProjectTaskV1 } from '../versions-workflow';

/** A class that names, as its previous version, a workflow of another name. */
@Workflow({ name: 'add_task_v3', arguments: { project: z.string() }, previous: [AddProjectTaskV1] })
export class RenamedPrevious {
  @Step({ tool: 'list_pages', args: { query: promptArg('project') } })
  pages!: unknown;
}
