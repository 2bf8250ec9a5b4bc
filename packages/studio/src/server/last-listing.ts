import type { WorkflowListing } from './workflow-list';

/**
 * The server's workflows as the studio last listed them. `GET /api/workflows` lists afresh (the
 * page asks on load and after each reconnect); a run started from the page takes its workflow's
 * entries from the last listing, so a run costs the server its own request and no `prompts/list` +
 * `tools/list` before it. A workflow the last listing lacks is listed again; a failed listing is
 * not kept, and a reconnect forgets the listing (the server may have changed).
 *
 * @example
 * ```ts
 * const listings = new LastListing(() => listWorkflows(client));
 * await listings.fresh();           // GET /api/workflows
 * await listings.naming('deploy');  // POST /api/runs: no request when the last listing has it
 * ```
 */
export class LastListing {
  private last?: Promise<WorkflowListing>;

  constructor(private readonly list: () => Promise<WorkflowListing>) {}

  /** Lists the workflows from the server, and keeps the listing. */
  fresh(): Promise<WorkflowListing> {
    const listed = this.list();
    this.last = listed;
    listed.catch(() => {
      if (this.last === listed) this.last = undefined;
    });
    return listed;
  }

  /** The last listing when it has `workflow`, else a fresh one. */
  async naming(workflow: string): Promise<WorkflowListing> {
    const last = await this.last?.catch(() => undefined);
    return last?.entries.has(workflow) ? last : this.fresh();
  }

  /** Forgets the last listing (the connection to the server is new). */
  forget(): void {
    this.last = undefined;
  }
}
