import type * as ts from 'typescript';
import type { FileAnalysis } from '../analyzer/analyze-file';
import type { AnalyzedWorkflow } from '../analyzer/analyzed-workflow';

/** The workflow, and the step, a position of a file lies in. */
export interface WorkflowPlace {
  readonly workflow: AnalyzedWorkflow;
  /** The step whose property (decorators included) holds the position, if one does. */
  readonly step?: string;
}

/** The class a workflow was read from: its `@Workflow` decorator's class. */
function workflowClass(t: typeof ts, workflow: AnalyzedWorkflow): ts.ClassLikeDeclaration | undefined {
  return t.findAncestor(workflow.decorator, (node): node is ts.ClassLikeDeclaration => t.isClassLike(node));
}

/**
 * Which workflow class of the file, and which of its steps, `position` lies in: a step's
 * decorators and property, or elsewhere in the class (its `@Workflow` options, say).
 *
 * @example
 * ```ts
 * const place = workflowAt(ts, analysis, diagnostic.start);
 * if (place) console.log(place.workflow.model.name, place.step);
 * ```
 */
export function workflowAt(t: typeof ts, analysis: FileAnalysis, position: number): WorkflowPlace | undefined {
  for (const workflow of analysis.workflows) {
    const declaration = workflowClass(t, workflow);
    if (!declaration || position < declaration.getStart() || position >= declaration.end) continue;
    const file = declaration.getSourceFile();
    for (const [name, nodes] of workflow.steps) {
      const property = nodes.property;
      if (property.getSourceFile() === file && position >= property.getStart() && position < property.end) return { workflow, step: name };
    }
    return { workflow };
  }
  return undefined;
}
