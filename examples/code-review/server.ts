/**
 * code_review: three tool steps run by the server. The analysis feeds the review through `field`,
 * the review's recommendations feed the formatter, and `constant` fixes the review's focus. The
 * tools are definitions: the compiler checks every step's arguments against their inputs, and
 * `use()` registers them.
 *
 *   npm run example                       # serves this over stdio
 *   npm run example -- --http --port 3000 # or over Streamable HTTP at http://127.0.0.1:3000/mcp
 */
import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, constant, defineTool, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';
import { main } from '../serve';

export const analyzeCode = defineTool(
  'analyze_code',
  {
    description: 'Analyze source code for size and common issues',
    inputSchema: { code: z.string(), language: z.string().default('typescript') },
    outputSchema: { language: z.string(), lines: z.number(), summary: z.string(), issues: z.array(z.string()) },
  },
  async ({ code, language }) => {
    const lines = code.split('\n').length;
    const issues = [
      ...(code.includes('any') ? ['Uses the any type'] : []),
      ...(code.includes('catch {}') || code.includes('catch (e) {}') ? ['Swallows errors'] : []),
      ...(lines > 40 ? ['Function is long'] : []),
    ];
    const result = {
      language,
      lines,
      summary: `${lines} line(s) of ${language}; ${issues.length} issue(s): ${issues.join(', ') || 'none'}`,
      issues,
    };
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  },
);

export const reviewCode = defineTool(
  'review_code',
  { description: 'Turn an analysis into review recommendations', inputSchema: { summary: z.string(), focus: z.array(z.string()) } },
  async ({ summary, focus }) => {
    const recommendations = focus.map((area) => `Check ${area}: ${summary}`);
    const approval = summary.includes('0 issue(s)') ? 'approved' : 'conditional';
    return { content: [{ type: 'text', text: JSON.stringify({ recommendations, approval }) }] };
  },
);

export const formatResults = defineTool(
  'format_results',
  { description: 'Annotate the code with the review recommendations', inputSchema: { code: z.string(), issues: z.array(z.string()) } },
  async ({ code, issues }) => {
    const annotated = `${issues.map((issue, index) => `// TODO ${index + 1}: ${issue}`).join('\n')}\n\n${code}`;
    return { content: [{ type: 'text', text: JSON.stringify({ annotated, count: issues.length }) }] };
  },
);

@Workflow({
  name: 'code_review',
  description: 'Review source code: analyze it, review the findings, and annotate the code',
  arguments: {
    code: z.string().describe('Source code to review'),
    language: z.string().optional().describe('Programming language (default: typescript)'),
  },
})
export class CodeReview {
  @Step({
    tool: analyzeCode,
    args: { code: promptArg('code'), language: promptArg('language') },
    guidance: "I'll analyze the code first, then review the findings and annotate the code.",
  })
  @Bind('analysis')
  analysis!: { language: string; lines: number; summary: string; issues: string[] };

  @Step({ tool: reviewCode, args: { summary: field('analysis', 'summary'), focus: constant(['security', 'performance']) } })
  @Bind('review')
  review!: { recommendations: string[]; approval: 'approved' | 'conditional' };

  @Step({ tool: formatResults, args: { code: promptArg('code'), issues: field('review', 'recommendations') } })
  @Bind('report')
  report!: { annotated: string; count: number };
}

/** The code review server: the workflow, and through it the three tools it chains. */
export function createCodeReviewServer(): WorkflowServer {
  return new WorkflowServer({ name: 'code-review', version: '1.0.0' }).use(CodeReview);
}

if (require.main === module) main('code-review', createCodeReviewServer);
