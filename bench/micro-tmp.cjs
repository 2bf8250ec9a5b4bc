require('reflect-metadata');
const { z } = require('zod');
const D = require('/work/wt-compiled/packages/decorators/dist/cjs/index.js');
const core = require('/work/wt-compiled/packages/core/dist/cjs/index.js');
const E = require('/work/wt-compiled/packages/core/dist/cjs/engine/index.js');
const C = require('/work/wt-compiled/packages/core/dist/cjs/engine/compiled/compile-plan.js');
const { UriTemplate } = require('@modelcontextprotocol/server');
function chain(steps) {
  class Chain {}
  D.Workflow({ name: 'chain', description: 'A chain', arguments: { input: z.string() } })(Chain);
  for (let i = 0; i < steps; i++) { const p = `s${i}`; D.Bind(`out_${i}`)(Chain.prototype, p); D.Step({ tool: `step_${i}`, args: { value: i === 0 ? D.promptArg('input') : D.field(`out_${i-1}`, 'value') } })(Chain.prototype, p); }
  return E.planWorkflow(core.readWorkflowModel(Chain), (t) => new UriTemplate(t));
}
const signal = new AbortController().signal;
const tools = {}; for (let i = 0; i < 8; i++) tools[`step_${i}`] = { enabled: true, description: `Step ${i}`, i };
const host = { signal, findTool: (n) => tools[n], toolInputs: () => [], validateToolInput: (_t, _n, args) => ({ ok: true, args }),
  invokeTool: async (t, n, args) => ({ content: [{ type: 'text', text: JSON.stringify({ value: `${args.value}>${t.i}` }) }] }),
  checkToolResult: (_t, _n, v) => v, readResource: async () => { throw new Error('x'); } };
const plans = { 1: chain(1), 8: chain(8) };
async function batch(steps, opts, n) { const plan = plans[steps]; const t = process.cpuUsage(); for (let i = 0; i < n; i++) await E.executeWorkflow(plan, { input: 'hello' }, host, opts); const u = process.cpuUsage(t); return (u.user + u.system) / n; }
const variants = {
  'compiled': [false, {}], 'interpreter': [true, {}], 'compiled, no timeout': [false, { defaultStepTimeoutMs: false }], 'interpreter, no timeout': [true, { defaultStepTimeoutMs: false }],
};
(async () => {
  const res = {};
  for (let r = 0; r < 12; r++) for (const [name, [interp, opts]] of Object.entries(variants)) for (const steps of [1, 8]) {
    C.interpretSteps(interp); const v = await batch(steps, opts, 800); if (r >= 2) (res[`${name} ${steps}`] ??= []).push(v);
  }
  const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  for (const name of Object.keys(variants)) { const one = med(res[`${name} 1`]), eight = med(res[`${name} 8`]); console.log(`${name.padEnd(24)} run(1) ${one.toFixed(2)} µs  run(8) ${eight.toFixed(2)} µs  per step ${((eight - one) / 7).toFixed(2)} µs  besides steps ${(one - (eight - one) / 7).toFixed(2)} µs`); }
})();
