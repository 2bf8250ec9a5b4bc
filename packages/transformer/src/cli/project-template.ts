/** What `mcpflow init` writes a project for: the MCP SDK line and the module format. */
export interface ProjectChoices {
  /** The package name (from the folder's name). */
  readonly name: string;
  readonly sdk: 1 | 2;
  readonly module: 'esm' | 'cjs';
  /** The version range of the mcpflow packages: the CLI's own release. */
  readonly mcpflow: string;
}

/**
 * The version ranges a new project depends on: the toolchain mcpflow is built and tested with
 * (TypeScript 6.0, never 7, for the transformer; jest 29.7, as jest 30 does not install everywhere).
 */
export const PROJECT_DEPENDENCIES = {
  '@modelcontextprotocol/sdk': '^1.32.2',
  '@modelcontextprotocol/server': '^2.4.0',
  '@modelcontextprotocol/client': '^2.4.0',
  '@modelcontextprotocol/node': '^2.1.2',
  zod: '^4.2.0',
  typescript: '~6.0.3',
  'ts-patch': '^3.3.0',
  '@types/node': '^20.19.0',
  jest: '^29.7.0',
  'ts-jest': '^29.4.0',
  '@types/jest': '^29.5.14',
} as const;

/** The text `field()` reads the forecast's conditions with: a test breaks it to see the build refuse it (TS91001). */
export const BINDING_READ = "field('forecast', 'conditions')";

/** The key of the question the workflow asks the user (`<step>/<argument>`), which its test answers. */
export const QUESTION_KEY = 'outfit/occasion';

/** The test script of an ES-module project: the shell expands the glob, so node 20, 22 and 24 all get the same files. */
export const ESM_TEST_SCRIPT = 'tspc && node --test dist/*.test.js';

/** The `release` script: build (checking against the last lock), then lock this release's steps in `mcpflow.lock.json`. */
const RELEASE_SCRIPT = 'npm run build && mcpflow lock';

/** The `prebuild` and `pretest` scripts: `mcpflow preflight` stops a build tspc cannot run (TypeScript 7) with the fix. */
const PREFLIGHT_SCRIPT = 'mcpflow preflight';

/**
 * The files of a new project, by path: one workflow whose second step reads the first step's
 * binding and asks the user a question, a server serving it over stdio (or HTTP when `PORT` is
 * set), one `runWorkflow` test that answers the question, and the configuration that keeps
 * mcpflow's checks on (`tspc`, `experimentalDecorators`, `noEmitOnError`).
 *
 * @example
 * ```ts
 * projectFiles({ name: 'weather', sdk: 2, module: 'esm', mcpflow: '^0.1.0' })['src/workflow.ts'];
 * ```
 */
export function projectFiles(choices: ProjectChoices): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': packageJson(choices),
    'tsconfig.json': tsconfigJson(choices),
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': readme(choices),
    'src/tools.ts': TOOLS,
    'src/workflow.ts': workflow(choices),
    'src/server.ts': server(choices),
    'src/workflow.test.ts': choices.module === 'esm' ? nodeTest(choices) : jestTest(choices),
  };
  if (choices.module === 'cjs') files['jest.config.js'] = JEST_CONFIG;
  return files;
}

function packageJson({ name, sdk, module, mcpflow }: ProjectChoices): string {
  const versions = PROJECT_DEPENDENCIES;
  const sdkPackages: Record<string, string> =
    sdk === 1
      ? { '@modelcontextprotocol/sdk': versions['@modelcontextprotocol/sdk'] }
      : // serveHttp on SDK 2.x needs the Node HTTP transport, as the README's project has it.
        {
          '@modelcontextprotocol/node': versions['@modelcontextprotocol/node'],
          '@modelcontextprotocol/server': versions['@modelcontextprotocol/server'],
        };
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    ...(module === 'esm' ? { type: 'module' } : {}),
    scripts: {
      // Before the build and the tests: on TypeScript 7, where tspc crashes, mcpflow's message and fix instead.
      prebuild: PREFLIGHT_SCRIPT,
      build: 'tspc',
      start: 'node dist/server.js',
      pretest: PREFLIGHT_SCRIPT,
      // ESM: node's own test runner on the build (jest runs ESM only behind a node flag).
      test: module === 'esm' ? ESM_TEST_SCRIPT : 'jest',
      // A release step: the build checks the change against the last release's lock (91050), then the lock records this one (commit it).
      release: RELEASE_SCRIPT,
    },
    dependencies: sorted({
      '@mcpflow/core': mcpflow,
      '@mcpflow/decorators': mcpflow,
      ...sdkPackages,
      zod: versions.zod,
    }),
    devDependencies: sorted({
      '@mcpflow/testing': mcpflow,
      '@mcpflow/transformer': mcpflow,
      ...(sdk === 2 ? { '@modelcontextprotocol/client': versions['@modelcontextprotocol/client'] } : {}),
      '@types/node': versions['@types/node'],
      'ts-patch': versions['ts-patch'],
      typescript: versions.typescript,
      ...(module === 'cjs' ? { '@types/jest': versions['@types/jest'], jest: versions.jest, 'ts-jest': versions['ts-jest'] } : {}),
    }),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function tsconfigJson({ module }: ProjectChoices): string {
  const config = {
    compilerOptions: {
      rootDir: 'src',
      outDir: 'dist',
      module: 'nodenext',
      // Not esnext: Node cannot run native decorators, and ES2022 output runs on node 20.
      target: 'es2022',
      types: module === 'esm' ? ['node'] : ['node', 'jest'],
      sourceMap: true,
      strict: true,
      skipLibCheck: true,
      // mcpflow's decorators are TypeScript's (experimental) decorators.
      experimentalDecorators: true,
      // A broken workflow emits nothing: no half-built dist/ to run by mistake.
      noEmitOnError: true,
      ...(module === 'esm' ? { verbatimModuleSyntax: true } : {}),
      isolatedModules: true,
      plugins: [{ transform: '@mcpflow/transformer', transformProgram: true }, { name: '@mcpflow/transformer/language-service' }],
    },
    include: ['src'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

const JEST_CONFIG = `/** @type {import('jest').Config} */
module.exports = {
  // ts-jest through mcpflow's preset: tests are type-checked with mcpflow's checks on.
  preset: '@mcpflow/transformer/jest',
  // The tests in src/ only, not their compiled copies in dist/.
  roots: ['<rootDir>/src'],
};
`;

const TOOLS = `import { z } from 'zod';
import { defineTool } from '@mcpflow/decorators';

/** A tool, defined once with its schemas: the compiler checks every step that calls it. */
export const getForecast = defineTool(
  'get_forecast',
  {
    description: 'Get the weather forecast for a city',
    inputSchema: { city: z.string() },
    outputSchema: { city: z.string(), temperature: z.number(), conditions: z.string() },
  },
  async ({ city }) => {
    const forecast = { city, temperature: 18, conditions: 'light rain' };
    return { content: [{ type: 'text', text: JSON.stringify(forecast) }], structuredContent: forecast };
  },
);

export const suggestOutfit = defineTool(
  'suggest_outfit',
  {
    description: 'Suggest what to wear in some weather',
    inputSchema: { conditions: z.string(), occasion: z.enum(['work', 'a walk']) },
    outputSchema: { outfit: z.string() },
  },
  async ({ conditions, occasion }) => {
    const top = occasion === 'work' ? 'a shirt' : 'a t-shirt';
    const suggestion = { outfit: conditions.includes('rain') ? \`\${top}, a raincoat and boots\` : top };
    return { content: [{ type: 'text', text: JSON.stringify(suggestion) }], structuredContent: suggestion };
  },
);
`;

function workflow({ module }: ProjectChoices): string {
  return `import { z } from 'zod';
import { Bind, Step, Workflow, askUser, constant, field, promptArg } from '@mcpflow/decorators';
import { getForecast, suggestOutfit } from './tools${extension(module)}';

/**
 * The prompt \`plan_my_day\`: the server calls get_forecast, asks the user what the day is for (the
 * client shows the question: elicitation), then calls suggest_outfit with the forecast's conditions
 * and the answer, and returns the conversation. Misspell the binding in ${BINDING_READ} and
 * \`npm run build\` fails with TS91001.
 */
@Workflow({
  name: 'plan_my_day',
  description: 'Check the forecast and suggest what to wear',
  arguments: { city: z.string().describe('Where you are today') },
})
export class PlanMyDay {
  @Step({ tool: getForecast, args: { city: promptArg('city') }, guidance: "I'll check the forecast for {city}." })
  @Bind('forecast')
  forecast!: { city: string; temperature: number; conditions: string };

  @Step({
    tool: suggestOutfit,
    args: {
      conditions: ${BINDING_READ},
      occasion: askUser('What is your day in {city} for?', { choices: constant(['work', 'a walk']) }),
    },
  })
  @Bind('outfit')
  outfit!: { outfit: string };
}
`;
}

function server({ name, sdk, module }: ProjectChoices): string {
  return `import { WorkflowServer, serveHttp, serveStdio } from '@mcpflow/core/v${sdk}';
import { PlanMyDay } from './workflow${extension(module)}';

const createServer = () => new WorkflowServer({ name: '${name}', version: '0.1.0' }).use(PlanMyDay);

// Streamable HTTP on 127.0.0.1 when PORT is set, else stdio. stdout carries the protocol: log on stderr.
// A start that fails is printed by mcpflow (its code, workflow, step and fix): here, only the exit code.
if (process.env.PORT) {
  serveHttp(createServer, { port: Number(process.env.PORT) }).then(
    (serving) => console.error(\`${name}: serving MCP on \${serving.url}\`),
    () => process.exit(1),
  );
} else {
  // A server that cannot serve ends the process in serveStdio; what else stops it is printed here.
  serveStdio(createServer).then(
    () => console.error('${name}: serving MCP over stdio'),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
`;
}

/** The test's run: the workflow through a real client of the project's SDK line, its tools stubbed. */
function testRun(sdk: ProjectChoices['sdk']): string {
  return `runWorkflow(PlanMyDay, {
    sdk: ${sdk},
    arguments: { city: 'Lyon' },
    tools: {
      get_forecast: ({ city }) => ({ city, temperature: 9, conditions: 'heavy rain' }),
      suggest_outfit: ({ conditions, occasion }) => ({ outfit: \`something for \${occasion} in \${conditions}\` }),
    },
    answers: { '${QUESTION_KEY}': 'work' }, // the user's answer to the question of step 'outfit'
  })`;
}

function nodeTest({ sdk }: ProjectChoices): string {
  return `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorkflow } from '@mcpflow/testing';
import { PlanMyDay } from './workflow.js';

test('plan_my_day asks what the day is for, then suggests an outfit for the forecast and the answer', async () => {
  const run = await ${testRun(sdk)};
  assert.equal(run.status, 'completed');
  assert.deepEqual(run.calls, [
    { tool: 'get_forecast', arguments: { city: 'Lyon' } },
    { tool: 'suggest_outfit', arguments: { conditions: 'heavy rain', occasion: 'work' } },
  ]);
  assert.deepEqual(run.outputs.outfit, { outfit: 'something for work in heavy rain' });
});
`;
}

function jestTest({ sdk }: ProjectChoices): string {
  return `import { runWorkflow } from '@mcpflow/testing';
import { PlanMyDay } from './workflow';

test('plan_my_day asks what the day is for, then suggests an outfit for the forecast and the answer', async () => {
  const run = await ${testRun(sdk)};
  expect(run.status).toBe('completed');
  expect(run.calls).toEqual([
    { tool: 'get_forecast', arguments: { city: 'Lyon' } },
    { tool: 'suggest_outfit', arguments: { conditions: 'heavy rain', occasion: 'work' } },
  ]);
  expect(run.outputs.outfit).toEqual({ outfit: 'something for work in heavy rain' });
});
`;
}

function readme({ name, sdk, module }: ProjectChoices): string {
  const sdkPackage = sdk === 1 ? '@modelcontextprotocol/sdk' : '@modelcontextprotocol/server';
  const httpPackage = sdk === 1 ? '' : ' (with `@modelcontextprotocol/node`, the Node HTTP transport)';
  const tests =
    module === 'esm'
      ? "`npm test` builds, then runs the tests in `dist/` with node's own test runner (`node --test dist/*.test.js`, the same on node 20, 22 and 24)."
      : '`npm test` runs jest on the tests in `src/` through `@mcpflow/transformer/jest` (type-checked, with the mcpflow checks on).';
  return `# ${name}

An MCP server with one workflow prompt, \`plan_my_day\`, built with [mcpflow](https://www.npmjs.com/package/@mcpflow/core)
on the MCP TypeScript SDK ${sdk}.x (\`${sdkPackage}\`), as ${module === 'esm' ? 'ES modules' : 'CommonJS'}.

\`\`\`sh
npm install
npm run build   # tspc: TypeScript with mcpflow's checks
npm test
npm start       # serves over stdio; PORT=3000 npm start serves Streamable HTTP on 127.0.0.1:3000
\`\`\`

- \`src/tools.ts\`: the tools, defined once with \`defineTool\`.
- \`src/workflow.ts\`: the workflow. Its second step reads the first step's binding
  (\`${BINDING_READ}\`); misspell \`'forecast'\` and \`npm run build\` fails with TS91001. It also asks the
  user what the day is for (\`askUser\`): the client shows the question and sends the answer back.
- \`src/server.ts\`: serves it over stdio with \`serveStdio\`, or over HTTP with \`serveHttp\`${httpPackage}
  when \`PORT\` is set, from \`@mcpflow/core/v${sdk}\`.
- \`src/workflow.test.ts\`: runs the workflow with \`runWorkflow\` from \`@mcpflow/testing\`, through a real
  MCP client in memory, with stub tools, answering the question by its key (\`'${QUESTION_KEY}'\`). ${tests}

## Why \`tspc\`

\`npm run build\` runs \`tspc\` (from ts-patch): TypeScript with mcpflow's transformer loaded, whatever
\`npm install\` does to the installed \`typescript\`. Plain \`tsc\` builds the project too, but without
mcpflow's checks: a broken workflow would build. The tsconfig keeps \`experimentalDecorators\` on (mcpflow's
decorators need it), targets ES2022 (Node cannot run native decorators) and sets \`noEmitOnError\`, so a
workflow with an error leaves nothing to run.

## More

- \`npx mcpflow validate\`: mcpflow's checks with its own TypeScript, for CI or another compiler.
- \`npx mcpflow graph src/workflow.ts\`: the workflow's steps as a Mermaid flowchart.
- \`npm run release\` when you release: builds, then \`mcpflow lock\` writes \`mcpflow.lock.json\` (commit it).
  From then on the build fails (TS91050) on a change that would refuse runs paused on that release,
  unless you keep the old class in \`@Workflow({ previous })\`: see mcpflow's docs/deploying.md.
- Try the server in the MCP Inspector: \`npx @modelcontextprotocol/inspector@1 node dist/server.js\` (version 1 runs on
  node 20; version 2 needs node 22.19); scripted, with \`--cli\`:
  \`npx @modelcontextprotocol/inspector@1 --cli node dist/server.js --method prompts/get --prompt-name plan_my_day --prompt-args city=Lyon\`.
`;
}

/** The relative-import suffix of the module format: ESM (nodenext) names the emitted file. */
function extension(module: ProjectChoices['module']): string {
  return module === 'esm' ? '.js' : '';
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
