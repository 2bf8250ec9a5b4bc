/**
 * quarterly_report: one query's result fans out — the metrics step and the report step both read
 * the `sales` binding, and the report also reads the metrics.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';
import { main } from '../serve';

interface SalesRow {
  region: string;
  revenue: number;
}

@Workflow({
  name: 'quarterly_report',
  description: 'Build the sales report of a quarter',
  arguments: { quarter: z.string().describe('Quarter, such as 2026-Q3') },
})
export class QuarterlyReport {
  @Step({ tool: 'sales_query', args: { quarter: promptArg('quarter') } })
  @Bind('sales')
  sales!: { quarter: string; rows: SalesRow[] };

  @Step({ tool: 'calculate_metrics', args: { rows: field('sales', 'rows') } })
  @Bind('metrics')
  metrics!: { total: number; top_region: string };

  @Step({
    tool: 'format_report',
    args: { quarter: field('sales', 'quarter'), rows: field('sales', 'rows'), total: field('metrics', 'total'), top_region: field('metrics', 'top_region') },
  })
  @Bind('report')
  report!: string;
}

const SALES: Record<string, SalesRow[]> = {
  '2026-Q3': [
    { region: 'EMEA', revenue: 120 },
    { region: 'APAC', revenue: 95 },
    { region: 'AMER', revenue: 180 },
  ],
};

/** The sales server: a query, a metrics calculator, a formatter and the report workflow. */
export function createQuarterlyReportServer(): WorkflowServer {
  const server = new WorkflowServer({ name: 'sales', version: '1.0.0' });
  const row = z.object({ region: z.string(), revenue: z.number() });

  server.registerTool('sales_query', { description: 'Sales by region for a quarter', inputSchema: { quarter: z.string() } }, async ({ quarter }) => {
    const rows = SALES[quarter];
    if (!rows) return { content: [{ type: 'text', text: `No sales data for ${quarter}` }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify({ quarter, rows }) }] };
  });

  server.registerTool('calculate_metrics', { description: 'Total revenue and top region', inputSchema: { rows: z.array(row) } }, async ({ rows }) => {
    const total = rows.reduce((sum, entry) => sum + entry.revenue, 0);
    const top = rows.reduce((best, entry) => (entry.revenue > best.revenue ? entry : best), rows[0]);
    return { content: [{ type: 'text', text: JSON.stringify({ total, top_region: top?.region ?? 'none' }) }] };
  });

  server.registerTool(
    'format_report',
    {
      description: 'Format the quarterly report as markdown',
      inputSchema: { quarter: z.string(), rows: z.array(row), total: z.number(), top_region: z.string() },
    },
    async ({ quarter, rows, total, top_region }) => ({
      content: [
        {
          type: 'text',
          text: `# Sales report ${quarter}\nTotal: ${total}\nTop region: ${top_region}\n${rows.map((entry) => `- ${entry.region}: ${entry.revenue}`).join('\n')}`,
        },
      ],
    }),
  );

  return server.use(QuarterlyReport);
}

if (require.main === module) main('sales', createQuarterlyReportServer);
