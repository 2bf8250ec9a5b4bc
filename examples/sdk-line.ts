/**
 * The SDK line an example runs on. An example's server code is the same on both lines — it builds
 * its `WorkflowServer` and `ResourceTemplate` from the line it is given — and its entry point
 * picks the line from the command line:
 *
 *   node examples/dist/get-hint/server.js            # SDK 1.x (@modelcontextprotocol/sdk)
 *   node examples/dist/get-hint/server.js --sdk 2    # SDK 2.x (@modelcontextprotocol/server); or MCP_SDK=2
 *
 * Only the chosen line is loaded. The classes are typed by the 1.x API, which 2.x shares for every
 * call the examples make (`registerTool`, `registerResource`, `registerPrompt`, `use`).
 */
import type { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WorkflowServer } from '@mcpflow/core/v1';

/** One SDK line's classes, as an example builds its server from them. */
export interface SdkLine {
  readonly name: 'v1' | 'v2';
  readonly WorkflowServer: typeof WorkflowServer;
  readonly ResourceTemplate: typeof ResourceTemplate;
}

/** The line `--sdk 2` / `--sdk 1` (or `MCP_SDK`) asks for; 1.x when neither is given. */
export function sdkLineName(argv = process.argv.slice(2), env = process.env): 'v1' | 'v2' {
  const flag = argv.indexOf('--sdk');
  const asked = flag >= 0 ? argv[flag + 1] : env.MCP_SDK;
  if (asked === undefined || asked === '1' || asked === 'v1') return 'v1';
  if (asked === '2' || asked === 'v2') return 'v2';
  throw new Error(`--sdk ${asked}: the SDK line is 1 (@modelcontextprotocol/sdk) or 2 (@modelcontextprotocol/server)`);
}

/** Loads one line's classes (and only that line's SDK: hence `require`, on demand, not an import). */
/* eslint-disable @typescript-eslint/no-require-imports */
export function loadSdkLine(name: 'v1' | 'v2' = 'v1'): SdkLine {
  if (name === 'v2') {
    return {
      name,
      WorkflowServer: require('@mcpflow/core/v2').WorkflowServer,
      ResourceTemplate: require('@modelcontextprotocol/server').ResourceTemplate,
    };
  }
  return {
    name,
    WorkflowServer: require('@mcpflow/core/v1').WorkflowServer,
    ResourceTemplate: require('@modelcontextprotocol/sdk/server/mcp.js').ResourceTemplate,
  };
}
/* eslint-enable @typescript-eslint/no-require-imports */
