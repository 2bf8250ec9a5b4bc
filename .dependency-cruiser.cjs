/**
 * The architecture of DESIGN.md §4, as rules `npm run lint` enforces:
 *
 *   decorators ─► core/model ◄─ core/rules ◄─ transformer (never the engine, the adapter kit or an SDK)
 *                     ▲             ▲
 *                     └── core/engine: shared ◄ plan ◄ steps ◄ flow ◄ execution ◄ pause
 *                                         ▲
 *                               core/adapter-kit
 *                                         ▲
 *                     core/v1 → SDK 1.x       core/v2 → SDK 2.x   (the only importers of an SDK)
 *
 * Type-only imports count (`tsPreCompilationDeps`): a type names a module as surely as a value does.
 */

const CORE = '^packages/core/src/';
const ENGINE = `${CORE}engine/`;
const SDK = '(^|/)@modelcontextprotocol/';
/** @mcpflow/testing runs a workflow through one SDK line's real Client: each line's module loads it, lazily, like an adapter. */
const TESTING_LINES = '^packages/testing/src/lines/sdk-[12]\\.ts$';
/** @mcpflow/studio (DESIGN §4): an MCP client of the user's server, on the SDK 2.x client. */
const STUDIO = '^packages/studio/src/';
/** @mcpflow/client (DESIGN §2.17, §4): the client side of the tasks wire, on the SDK 2.x client and nothing of core. */
const CLIENT = '^packages/client/src/';

/**
 * The engine's layers, lowest first. Each imports only the layers before it. `shared` holds the
 * small pieces every layer uses: the MCP shapes, the host interface and the run observer it
 * carries, asking, cancellation (try signals, deadlines), redaction, results, sealing, text, the
 * trace and URIs.
 */
const ENGINE_LAYERS = [
  {
    layer: 'shared',
    files: '(content|host|execution-limits|run-observer)\\.ts$|(asking|cancellation|redaction|results|sealing|text|trace|uri)/',
  },
  { layer: 'plan', files: 'plan/' },
  { layer: 'steps', files: 'steps/' },
  { layer: 'flow', files: 'flow/' },
  { layer: 'execution', files: 'execution/' },
  { layer: 'pause', files: 'pause/' },
];

const layerRules = ENGINE_LAYERS.slice(0, -1).map(({ layer, files }, index) => {
  const above = ENGINE_LAYERS.slice(index + 1);
  return {
    name: `engine-${layer}-below-${above[0].layer}`,
    comment: `engine/${layer} is below ${above.map((each) => each.layer).join(', ')}: it must not import them`,
    severity: 'error',
    from: { path: `${ENGINE}(${files})` },
    to: { path: `${ENGINE}(${above.map((each) => each.files).join('|')})` },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'engine-runs-a-plan-and-nothing-else',
      comment: 'the engine never imports the SDK adapters, the adapter kit or serving code: they import it',
      severity: 'error',
      from: { path: ENGINE },
      to: { path: `${CORE}(v1|v2|adapter-kit)/` },
    },
    {
      name: 'engine-barrel-is-for-outside',
      comment: 'engine/index.ts is what the adapters import; a file inside the engine imports the module it needs',
      severity: 'error',
      from: { path: ENGINE },
      to: { path: `${ENGINE}index\\.ts$` },
    },
    {
      name: 'only-adapters-import-an-sdk',
      comment: 'only core/src/v1 and core/src/v2 import an MCP SDK (@modelcontextprotocol/*): everything else is SDK-neutral',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: [`${CORE}v[12]/`, TESTING_LINES, STUDIO, CLIENT] },
      to: { path: SDK },
    },
    {
      name: 'studio-is-a-client',
      comment: "the studio is an MCP client of the user's server: of an SDK it imports only the 2.x client",
      severity: 'error',
      from: { path: STUDIO },
      to: { path: SDK, pathNot: '(^|/)@modelcontextprotocol/client(/|$)' },
    },
    {
      name: 'client-is-a-client',
      comment: 'the client package speaks the tasks wire through the SDK 2.x client: of an SDK it imports only the 2.x client',
      severity: 'error',
      from: { path: CLIENT },
      to: { path: SDK, pathNot: '(^|/)@modelcontextprotocol/client(/|$)' },
    },
    {
      name: 'client-needs-nothing-of-mcpflow',
      comment: "the client package runs in an agent's process, beside no server: it imports nothing of another mcpflow package",
      severity: 'error',
      from: { path: CLIENT },
      to: { path: '^packages/(?!client/)' },
    },
    {
      name: 'studio-reads-core-model-types-only',
      comment:
        'the studio depends on nothing of core but the model types (the _meta["mcpflow/workflow"] shape): a type-only import of core/model',
      severity: 'error',
      from: { path: STUDIO },
      to: { path: '^packages/core/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'studio-reads-core-model-only',
      comment: 'of core, the studio imports only core/model (types)',
      severity: 'error',
      from: { path: STUDIO },
      to: { path: '^packages/core/', pathNot: `${CORE}model/` },
    },
    {
      name: 'only-entries-import-an-adapter',
      comment:
        "an SDK adapter loads its SDK: nothing imports one but the testing kit's module for that line (the core root is SDK-neutral)",
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: [`${CORE}v[12]/`, TESTING_LINES] },
      to: { path: `${CORE}v[12]/` },
    },
    {
      name: 'adapter-kit-is-sdk-neutral',
      comment: 'the adapter kit is what both SDK lines share: it never imports an adapter (each adapter hands it an AdapterLine)',
      severity: 'error',
      from: { path: `${CORE}adapter-kit/` },
      to: { path: `${CORE}v[12]/` },
    },
    {
      name: 'only-the-kit-telemetry-imports-opentelemetry',
      comment:
        '@opentelemetry/api is an optional peer, loaded lazily by adapter-kit/telemetry: the engine reports to its RunObserver and never sees OpenTelemetry',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: `${CORE}adapter-kit/telemetry/` },
      to: { path: '(^|/)@opentelemetry/' },
    },
    {
      name: 'transformer-reads-the-model-only',
      comment: 'the transformer builds the model from the AST and runs the rules: it never reaches the engine, the adapter kit or an SDK',
      severity: 'error',
      from: { path: '^packages/transformer/src/' },
      to: { path: [`${CORE}(engine|adapter-kit|v1|v2)/`, SDK], reachable: true },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle, type-only imports included: a cycle makes two modules one',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    // Resolves the packages' own names to their sources (`@mcpflow/core/model` → packages/core/src/model).
    tsConfig: { fileName: 'tsconfig.test.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.d.ts', '.js', '.cjs', '.mjs', '.json'],
    },
  },
};
