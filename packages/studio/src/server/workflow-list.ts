import { TASKS_EXTENSION } from '@mcpflow/client';
import type { Client } from '@modelcontextprotocol/client';
import type { StepInfo, WorkflowMeta } from '@mcpflow/core/model';
import type { WorkflowProblem, WorkflowView } from './api-types';
import { cappedName } from './capped';

/** The `_meta` key of a workflow's prompt and tool entries (DESIGN §2.15). */
const WORKFLOW_META = 'mcpflow/workflow';

/** How the studio runs a workflow: the names of its prompt and tool entries, and the tool's input schema. */
export interface WorkflowEntries {
  readonly prompt?: string;
  readonly tool?: string;
  readonly inputSchema?: { properties?: Record<string, { type?: unknown }> };
}

/** What `GET /api/workflows` answers, and how each workflow is run. */
export interface WorkflowListing {
  readonly workflows: WorkflowView[];
  readonly problems: WorkflowProblem[];
  readonly entries: ReadonlyMap<string, WorkflowEntries>;
}

interface Entry {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly _meta?: Record<string, unknown>;
}
interface PromptEntry extends Entry {
  readonly arguments?: { name: string; description?: string; required?: boolean }[];
}
interface ToolEntry extends Entry {
  readonly inputSchema?: { properties?: Record<string, { description?: string }>; required?: string[] };
}

/**
 * The server's workflows: every prompt and tool entry carrying `_meta["mcpflow/workflow"]`, merged
 * by workflow name (a workflow served as a prompt and a tool is one workflow with two faces; its
 * tool runs as a task where its `_meta` says so and the server serves the tasks extension). An
 * entry whose `_meta` is not a workflow's (a server of another mcpflow version, a hand-written
 * `_meta`) is a problem that names the entry; the others stay usable.
 */
export async function listWorkflows(client: Client): Promise<WorkflowListing> {
  const capabilities = client.getServerCapabilities() ?? {};
  // A workflow's tool runs as a task where its _meta says so and the server serves the tasks extension.
  const tasksServed = (capabilities as { extensions?: Record<string, unknown> }).extensions?.[TASKS_EXTENSION] !== undefined;
  const prompts: PromptEntry[] = capabilities.prompts ? (await client.listPrompts()).prompts : [];
  const tools = (capabilities.tools ? (await client.listTools()).tools : []) as ToolEntry[];
  const views = new Map<string, WorkflowView>();
  const entries = new Map<string, WorkflowEntries>();
  const problems: WorkflowProblem[] = [];
  const take = (entry: Entry, face: 'prompt' | 'tool'): { view: WorkflowView; entries: WorkflowEntries } | undefined => {
    const raw = entry._meta?.[WORKFLOW_META];
    if (raw === undefined) return undefined;
    const problem = metaProblem(raw);
    if (problem) {
      problems.push({
        name: entry.name,
        error: `The ${face} ${entry.name} carries a _meta["${WORKFLOW_META}"] the studio cannot read: ${problem}.`,
      });
      return undefined;
    }
    const meta = raw as WorkflowMeta;
    const view = views.get(meta.name) ?? {
      name: meta.name,
      title: entry.title,
      description: entry.description,
      arguments: [],
      faces: { prompt: false, tool: false, task: false },
      steps: meta.steps,
      mermaid: neutralMermaid(meta.mermaid),
      sensitive: Array.isArray(meta.sensitive) ? meta.sensitive.filter((name) => typeof name === 'string') : [],
    };
    views.set(meta.name, view);
    return { view, entries: entries.get(meta.name) ?? {} };
  };
  for (const prompt of prompts) {
    const found = take(prompt, 'prompt');
    if (!found) continue;
    found.view.faces.prompt = true;
    found.view.arguments.splice(
      0,
      Infinity,
      ...(prompt.arguments ?? []).map((argument) => ({ ...argument, required: argument.required === true })),
    );
    entries.set(found.view.name, { ...found.entries, prompt: prompt.name });
  }
  for (const tool of tools) {
    const found = take(tool, 'tool');
    if (!found) continue;
    found.view.faces.tool = true;
    found.view.faces.task = tasksServed && (tool._meta?.[WORKFLOW_META] as WorkflowMeta).task !== undefined;
    if (!found.view.faces.prompt) {
      const required = new Set(tool.inputSchema?.required ?? []);
      const properties = Object.entries(tool.inputSchema?.properties ?? {});
      found.view.arguments.splice(
        0,
        Infinity,
        ...properties.map(([name, schema]) => ({ name, description: schema.description, required: required.has(name) })),
      );
    }
    entries.set(found.view.name, { ...found.entries, tool: tool.name, inputSchema: tool.inputSchema as WorkflowEntries['inputSchema'] });
  }
  return { workflows: [...views.values()], problems, entries };
}

/** What is wrong with a `_meta["mcpflow/workflow"]` value, if anything. */
function metaProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return 'it is not an object';
  const meta = raw as Partial<Record<keyof WorkflowMeta, unknown>>;
  if (typeof meta.name !== 'string' || meta.name === '') return 'its name is not a non-empty string';
  if (typeof meta.mermaid !== 'string') return 'its mermaid is not a string';
  if (!Array.isArray(meta.steps)) return 'its steps are not an array';
  const bad = (meta.steps as unknown[]).findIndex((step) => !isStep(step));
  return bad < 0 ? undefined : `its step ${bad + 1} has no name and kind`;
}

function isStep(step: unknown): step is StepInfo {
  return (
    typeof step === 'object' && step !== null && typeof (step as StepInfo).name === 'string' && typeof (step as StepInfo).kind === 'string'
  );
}

/**
 * A server's Mermaid text as the page may draw it: `mcpflow graph` writes `%` and `<` as entity
 * codes already, but another server's text may hold a `%%{init}%%` directive (it restyles the page)
 * or HTML (an `<img>` of another origin): directives are dropped, `<` becomes `#lt;` (no tag, and
 * no flowchart arrow starts with it), and the text is capped.
 */
function neutralMermaid(text: string): string {
  return cappedName(text, MAX_MERMAID_CHARS)
    .replace(/%%\{[\s\S]*?\}%%/g, '')
    .replaceAll('<', '#lt;');
}

/** At most this many characters of a workflow's Mermaid text are drawn. */
const MAX_MERMAID_CHARS = 256 * 1024;
