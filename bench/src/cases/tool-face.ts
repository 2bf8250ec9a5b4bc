import type { BenchCase } from '../case';
import { pairedRatio, sideBySide } from '../measure';
import { fmt, range, ratioFigure } from '../report';
import { inMemoryClientV2 } from '../fixtures/servers-v2';
import { baselineToolServerV2, toolFaceServerV2 } from '../fixtures/tool-face-servers';

/**
 * One workflow, two faces, on SDK 2.x in memory: the 4-step chain called as a tool (`tools/call`)
 * against the same workflow through `prompts/get` on the same server and client; and the workflow
 * tool against a hand-written tool that makes the same calls and returns the same result, which is
 * mcpflow's own cost for the tool face (the SDK's `tools/call` validates the request twice and the
 * result once on the server, and its client probes and validates the result: costs any tool pays).
 * Refuses to run unless the three return the same trace.
 */
export const toolFace: BenchCase = {
  name: 'tool-face',
  async run() {
    const client = await inMemoryClientV2(toolFaceServerV2(4));
    const baseline = await inMemoryClientV2(baselineToolServerV2(4));
    const request = { name: 'chain', arguments: { input: 'hello' } };
    const tool = () => client.callTool(request);
    const prompt = () => client.getPrompt(request);
    const handWritten = () => baseline.callTool(request);
    const [called, got, written] = await Promise.all([tool(), prompt(), handWritten()]);
    if (JSON.stringify(called.content) !== JSON.stringify(got.messages.map((message) => message.content)))
      throw new Error('tool-face: tools/call and prompts/get do not return the same trace');
    if (JSON.stringify(called) !== JSON.stringify(written))
      throw new Error('tool-face: the workflow tool and the hand-written tool differ');
    const measured = await sideBySide({ tool, prompt, handWritten }, { warmup: 2000, rounds: 60, batch: 250 });
    await Promise.all([client.close(), baseline.close()]);
    const faces = pairedRatio(measured.tool, measured.prompt);
    const overhead = pairedRatio(measured.tool, measured.handWritten);
    return {
      result: { tool: measured.tool, prompt: measured.prompt, handWritten: measured.handWritten, faces, overhead },
      figures: [
        {
          benchmark: 'a workflow as a tool vs as a prompt (4 steps, SDK 2.x, in memory)',
          figure: `${ratioFigure('tools/call', measured.tool, 'prompts/get', measured.prompt)}; paired by round ${range(faces, '', 3)} (${fmt(faces.median, 3)})`,
          target: 'paired ratio ≤ 1.05',
          met: faces.median <= 1.05,
        },
        {
          benchmark: 'a workflow tool vs a hand-written tool, same result (4 steps, SDK 2.x, in memory)',
          figure: `${ratioFigure('workflow', measured.tool, 'hand-written', measured.handWritten)}; paired by round ${range(overhead, '', 3)}`,
          target: 'paired ratio ≤ 1.10',
          met: overhead.median <= 1.1,
        },
      ],
    };
  },
};
