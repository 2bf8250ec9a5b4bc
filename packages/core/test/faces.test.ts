import { workflowFaces, skillName, type StepModel, type WorkflowModel } from '../src/model';
import { skillMarkdown } from '../src/adapter-kit/faces/skill-markdown';
import { ServerSkills } from '../src/adapter-kit/faces/skill-source';
import { boundOutputs } from '../src/adapter-kit/faces/tool-outputs';

// The pure pieces of the faces: what expose means, the skill name, the outputs' bound (SKILL.md: skill-markdown.test.ts).

function step(name: string, extra: Partial<StepModel> = {}): StepModel {
  return {
    name,
    property: name,
    action: { kind: 'tool', tool: `${name}_tool` },
    extraActions: [],
    args: [],
    resources: [],
    extraBindings: [],
    fills: [],
    sensitiveArgs: [],
    parallel: false,
    optional: false,
    ...extra,
  };
}

function model(extra: Partial<WorkflowModel> = {}): WorkflowModel {
  return {
    name: 'project_report',
    className: 'ProjectReport',
    description: 'Report on a project',
    arguments: [],
    instructions: [],
    resources: [],
    steps: [step('fetch')],
    strayDecorators: [],
    ...extra,
  };
}

describe('workflowFaces: what expose means, defaults applied', () => {
  test.each([
    [undefined, { prompt: true }],
    [{}, { prompt: true }],
    [{ tool: true }, { prompt: true, tool: { name: 'project_report', title: 'Project report' } }],
    [
      { prompt: false, tool: { name: 'report.v2', title: 'Report' } },
      { prompt: false, tool: { name: 'report.v2', title: 'Report' } },
    ],
    [
      { tool: false, skill: true },
      { prompt: true, skill: { name: 'project-report' } },
    ],
    [{ skill: { name: 'Weekly Report' } }, { prompt: true, skill: { name: 'weekly-report' } }],
  ])('%j', (expose, faces) => {
    expect(workflowFaces({ name: 'project_report', title: 'Project report', expose })).toEqual(faces);
  });

  test('the skill name: lowercase, underscores and spaces become hyphens', () => {
    expect(skillName('Get_Hint now')).toBe('get-hint-now');
  });
});

describe('boundOutputs: a tool result holds its outputs to maxTraceBytes', () => {
  test('outputs that fit come back as they are', () => {
    const outputs = { a: { room: 'Cellar' }, b: [1, 2, 3] };
    expect(boundOutputs(outputs, 4_096)).toEqual({ outputs, truncated: [] });
    expect(boundOutputs(outputs, 4_096).outputs).toBe(outputs);
    expect(boundOutputs(outputs, Infinity).outputs).toBe(outputs);
  });

  test('the largest values are replaced by a note naming the binding and its size, until the rest fits', () => {
    const outputs = { page: 'x'.repeat(6_000), summary: 'y'.repeat(3_000), id: 7 };
    const { outputs: bounded, truncated } = boundOutputs(outputs, 4_096);
    expect(bounded).toEqual({
      page: "[truncated by mcpflow: the value of 'page' (6,002 bytes of JSON) is not shown; the result is limited to 4,096 bytes (maxTraceBytes)]",
      summary: 'y'.repeat(3_000),
      id: 7,
    });
    expect(truncated).toEqual(['page']);
    expect(Buffer.byteLength(JSON.stringify(bounded))).toBeLessThanOrEqual(4_096);
    expect(outputs.page).toHaveLength(6_000);
  });

  test('a value JSON cannot hold is named, not sent', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(boundOutputs({ big: 10n, cycle, fine: 'ok' }, 4_096).outputs).toEqual({
      big: "[not shown by mcpflow: the value of 'big' cannot be represented as JSON]",
      cycle: "[not shown by mcpflow: the value of 'cycle' cannot be represented as JSON]",
      fine: 'ok',
    });
  });
});

describe('skillMarkdown: the SKILL.md of a workflow (what an LLM reads of it: skill-markdown.test.ts)', () => {
  test('front matter: the SEP-2640 name, and the description as a quoted scalar on one line whatever it holds', () => {
    const text = skillMarkdown(
      model({ expose: { skill: true }, description: 'Say "hi":\n  # not a comment' }),
      workflowFaces(model({ expose: { skill: true } })),
    );
    expect(text.split('\n').slice(0, 4)).toEqual(['---', 'name: project-report', 'description: "Say \\"hi\\": # not a comment"', '---']);
  });
});

test('ServerSkills lists skills by name, by code unit, whatever order they were added in', () => {
  const skills = new ServerSkills();
  for (const name of ['zeta', 'alpha-2', 'alpha', 'Ä']) skills.add({ name, description: name, markdown: name });
  expect(skills.skills().map((skill) => skill.name)).toEqual(['alpha', 'alpha-2', 'zeta', 'Ä']);
  expect(skills.has('zeta')).toBe(true);
});
