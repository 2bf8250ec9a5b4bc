import type * as ts from 'typescript';
import type { ArgumentMapping, Condition, DataSource, StepModel, StrayDecorator, TemplateBindingModel } from '@mcpflow/core/model';
import { StepOutsideWorkflowError, type WorkflowDefinitionError } from '@mcpflow/core/rules';
import { NotALiteralError } from '../errors/not-a-literal-error';
import type { AnalyzedWorkflow, SourceNodes, StepNodes } from './analyzed-workflow';
import { CONDITIONS, DATA_SOURCES, DecoratorSource } from './decorator-source';
import { LiteralReader } from './literal-reader';

/** An error found while reading, already tied to its node. */
export interface NodeError {
  readonly error: WorkflowDefinitionError;
  readonly node: ts.Node;
}

/** What the analyzer found in one file. */
export interface FileAnalysis {
  readonly workflows: AnalyzedWorkflow[];
  readonly errors: NodeError[];
}

interface DecoratorCall {
  readonly name: string;
  readonly call: ts.CallExpression;
}

/** Finds the mcpflow workflow classes of a file and reads each into the shared model. */
export function analyzeFile(tsApi: typeof ts, checker: ts.TypeChecker, file: ts.SourceFile): FileAnalysis {
  const analysis: FileAnalysis = { workflows: [], errors: [] };
  if (!file.text.includes('@')) return analysis;
  const reader = new ClassReader(tsApi, checker, analysis.errors);
  const visit = (node: ts.Node): void => {
    if (tsApi.isClassDeclaration(node) || tsApi.isClassExpression(node)) {
      const workflow = reader.read(node);
      if (workflow) analysis.workflows.push(workflow);
    }
    tsApi.forEachChild(node, visit);
  };
  visit(file);
  return analysis;
}

class ClassReader {
  private readonly source: DecoratorSource;
  private readonly literals: LiteralReader;

  constructor(
    private readonly t: typeof ts,
    checker: ts.TypeChecker,
    private readonly errors: NodeError[],
  ) {
    this.source = new DecoratorSource(t, checker);
    this.literals = new LiteralReader(t, checker);
  }

  read(node: ts.ClassLikeDeclaration): AnalyzedWorkflow | undefined {
    const workflowCall = this.decorators(node).find((decorator) => decorator.name === 'Workflow');
    const className = node.name?.text ?? '(anonymous class)';
    const members = node.members.filter((member): member is ts.PropertyDeclaration => this.t.isPropertyDeclaration(member));
    if (!workflowCall) {
      for (const member of members) {
        const step = this.decorators(member).find((decorator) => decorator.name === 'Step');
        if (step) this.errors.push({ error: new StepOutsideWorkflowError(className, member.name.getText()), node: step.call.expression });
      }
      return undefined;
    }
    const options = this.literals.properties(workflowCall.call.arguments[0]);
    const nameNode = options?.get('name') ?? workflowCall.call;
    const name = this.literals.string(options?.get('name'));
    let complete = true;
    const incomplete = (what: string, at: ts.Node, step?: string) => {
      complete = false;
      this.errors.push({ error: new NotALiteralError(name ?? className, step, what, { kind: 'workflowName' }), node: at });
    };
    if (name === undefined) incomplete(`the workflow name of class ${className}`, nameNode);
    const argumentNames = this.argumentNames(options?.get('arguments'), () => incomplete(`the arguments of workflow class ${className}`, options?.get('arguments') ?? nameNode));
    const resourcesNode = options?.get('resources');
    const resourceNodes = resourcesNode && this.t.isArrayLiteralExpression(resourcesNode) ? [...resourcesNode.elements] : [];
    if (resourcesNode && !this.t.isArrayLiteralExpression(resourcesNode)) incomplete(`the resources of workflow class ${className}`, resourcesNode);
    const resources = resourceNodes.map((node) => this.literals.string(node) ?? (incomplete(`an instruction resource URI of workflow class ${className}`, node), ''));

    const steps: StepModel[] = [];
    const stepNodes = new Map<string, StepNodes>();
    const strays: StrayDecorator[] = [];
    const strayNodes = new Map<string, ts.Node>();
    for (const member of members) {
      const decorators = this.decorators(member);
      const property = this.literals.propertyName(member.name) ?? member.name.getText();
      const stepCall = decorators.find((decorator) => decorator.name === 'Step');
      if (!stepCall) {
        for (const decorator of decorators) {
          if (decorator.name === 'Bind' || decorator.name === 'TemplateBinding') {
            strays.push({ property, decorator: decorator.name });
            strayNodes.set(`${property}:${decorator.name}`, decorator.call.expression);
          }
        }
        continue;
      }
      const read = this.readStep(member, property, stepCall, decorators, (what, at, step) => incomplete(what, at, step));
      steps.push(read.model);
      if (!stepNodes.has(read.model.name)) stepNodes.set(read.model.name, read.nodes);
    }
    return {
      model: {
        name: name ?? className,
        className,
        arguments: argumentNames.map((argument) => ({ name: argument, required: true })),
        instructions: [],
        resources,
        steps,
        strayDecorators: strays,
      },
      nameNode,
      steps: stepNodes,
      strays: strayNodes,
      resources: resourceNodes,
      complete,
    };
  }

  private readStep(
    member: ts.PropertyDeclaration,
    property: string,
    stepCall: DecoratorCall,
    decorators: DecoratorCall[],
    incomplete: (what: string, at: ts.Node, step?: string) => void,
  ): { model: StepModel; nodes: StepNodes } {
    const options = this.literals.properties(stepCall.call.arguments[0]) ?? new Map<string, ts.Expression>();
    const optionsNode = stepCall.call.arguments[0];
    if (!optionsNode || !this.t.isObjectLiteralExpression(this.literals.unwrap(optionsNode))) incomplete(`the options of @Step on '${property}'`, stepCall.call);
    const nameNode = options.get('name');
    const stepName = nameNode ? this.literals.string(nameNode) : property;
    if (stepName === undefined && nameNode) incomplete(`the step name of '${property}'`, nameNode);
    const name = stepName ?? property;
    const text = (key: string): string | undefined => {
      const node = options.get(key);
      if (!node) return undefined;
      const value = this.literals.string(node);
      if (value === undefined) incomplete(`option '${key}' of step '${name}'`, node, name);
      return value;
    };
    const tool = text('tool');
    const resource = text('resource');
    const guidance = text('guidance');

    const embeddedNode = options.get('resources');
    const embedded = embeddedNode && this.t.isArrayLiteralExpression(embeddedNode) ? [...embeddedNode.elements] : [];
    if (embeddedNode && !this.t.isArrayLiteralExpression(embeddedNode)) incomplete(`the resources of step '${name}'`, embeddedNode, name);
    const resources = embedded.map((node) => this.literals.string(node) ?? (incomplete(`a resource URI of step '${name}'`, node, name), ''));

    const args: ArgumentMapping[] = [];
    const argNodes = new Map<string, SourceNodes>();
    const argsNode = options.get('args');
    const argOptions = this.literals.properties(argsNode);
    if (argsNode && (!argOptions || (this.t.isObjectLiteralExpression(argsNode) && argsNode.properties.some((entry) => this.t.isSpreadAssignment(entry))))) {
      incomplete(`the args of step '${name}'`, argsNode, name);
    }
    for (const [argument, node] of argOptions ?? []) {
      const source = this.readSource(node, name, incomplete);
      if (!source) continue;
      args.push({ name: argument, source: source.source });
      argNodes.set(argument, source);
    }

    const flag = (key: string): boolean => {
      const node = options.get(key);
      const value = node && this.literals.json(node);
      if (node && typeof value !== 'boolean') incomplete(`option '${key}' of step '${name}' (write true or false)`, node, name);
      return value === true;
    };
    const forEachNode = options.get('forEach');
    const forEach = forEachNode ? this.readSource(forEachNode, name, incomplete) : undefined;
    const whenNode = options.get('when');
    const conditionSources: SourceNodes[] = [];
    const when = whenNode ? this.readCondition(whenNode, name, conditionSources, incomplete) : undefined;

    const bindings: string[] = [];
    const bindingNodes = new Map<string, ts.Expression>();
    const templates: TemplateBindingModel[] = [];
    const templateNodes = new Map<string, { variable: ts.Expression; source: SourceNodes }>();
    for (const decorator of decorators) {
      const [first, second] = decorator.call.arguments;
      if (decorator.name === 'Bind') {
        const binding = this.literals.string(first);
        if (binding === undefined) incomplete(`the @Bind name of step '${name}'`, first ?? decorator.call, name);
        else {
          bindings.push(binding);
          bindingNodes.set(binding, first);
        }
      } else if (decorator.name === 'TemplateBinding') {
        const variable = this.literals.string(first);
        const source = second ? this.readSource(second, name, incomplete) : undefined;
        if (variable === undefined) incomplete(`the @TemplateBinding variable of step '${name}'`, first ?? decorator.call, name);
        else if (source) {
          templates.push({ variable, source: source.source });
          templateNodes.set(variable, { variable: first, source });
        }
      }
    }
    return {
      model: {
        name,
        property,
        tool,
        resource,
        args,
        resources,
        guidance,
        binding: bindings[0],
        extraBindings: bindings.slice(1),
        templateBindings: templates,
        timeoutMs: this.number(options.get('timeoutMs')),
        retry: this.retry(options.get('retry')),
        sensitiveArgs: [],
        parallel: flag('parallel'),
        when,
        forEach: forEach?.source,
        concurrency: this.number(options.get('concurrency')),
        maxItems: this.number(options.get('maxItems')),
        optional: flag('optional'),
      },
      nodes: {
        property: member,
        decorator: stepCall.call.expression,
        options,
        embedded,
        args: argNodes,
        bindings: bindingNodes,
        templates: templateNodes,
        conditionSources,
        forEach,
        transform: options.get('transform'),
      },
    };
  }

  private readSource(node: ts.Expression, step: string, incomplete: (what: string, at: ts.Node, step?: string) => void): SourceNodes | undefined {
    const call = this.t.isCallExpression(node) ? node : undefined;
    const kind = call ? this.source.resolve(call.expression) : undefined;
    if (!call || !kind || !DATA_SOURCES.includes(kind)) {
      incomplete(`a data source of step '${step}' (use promptArg, fromStep, field, constant or item directly)`, node, step);
      return undefined;
    }
    const [first, second] = call.arguments;
    if (kind === 'constant') {
      return { call, first, source: { kind: 'constant', value: (first && this.literals.json(first)) ?? null } };
    }
    if (kind === 'item') {
      if (!first) return { call, source: { kind: 'item' } };
      const itemPath = this.literals.string(first);
      if (itemPath === undefined) {
        incomplete(`the path given to item() in step '${step}'`, first, step);
        return undefined;
      }
      // item()'s only argument is a path: it sits where field()'s path does, so diagnostics find it there.
      return { call, second: first, source: { kind: 'item', path: itemPath } };
    }
    const name = this.literals.string(first);
    if (name === undefined) {
      incomplete(`the name given to ${kind}() in step '${step}'`, first ?? call, step);
      return undefined;
    }
    let source: DataSource;
    if (kind === 'promptArg') source = { kind, name };
    else if (kind === 'fromStep') source = { kind, binding: name };
    else {
      const path = this.literals.string(second);
      if (path === undefined) {
        incomplete(`the field path given to field() in step '${step}'`, second ?? call, step);
        return undefined;
      }
      source = { kind: 'field', binding: name, path };
    }
    return { call, first, second, source };
  }

  /** A `when` condition built from equals/oneOf/present/not, collecting its data sources depth first. */
  private readCondition(
    node: ts.Expression,
    step: string,
    sources: SourceNodes[],
    incomplete: (what: string, at: ts.Node, step?: string) => void,
  ): Condition | undefined {
    const call = this.t.isCallExpression(node) ? node : undefined;
    const kind = call ? this.source.resolve(call.expression) : undefined;
    if (!call || !kind || !CONDITIONS.includes(kind)) {
      incomplete(`the when condition of step '${step}' (use equals, oneOf, present or not directly)`, node, step);
      return undefined;
    }
    const [first, second] = call.arguments;
    if (kind === 'not') {
      const inner = first ? this.readCondition(first, step, sources, incomplete) : undefined;
      return inner && { kind: 'not', condition: inner };
    }
    const source = first ? this.readSource(first, step, incomplete) : undefined;
    if (!source) return undefined;
    sources.push(source);
    if (kind === 'present') return { kind: 'present', source: source.source };
    const value = second && this.literals.json(second);
    if (value === undefined) {
      incomplete(`the value compared in the when condition of step '${step}' (write a JSON literal)`, second ?? call, step);
      return undefined;
    }
    if (kind === 'equals') return { kind: 'equals', source: source.source, value };
    if (Array.isArray(value)) return { kind: 'oneOf', source: source.source, values: value };
    incomplete(`the values of oneOf() in step '${step}' (write an array literal)`, second, step);
    return undefined;
  }

  /** A numeric literal option; anything else is left to the run-time check. */
  private number(node: ts.Expression | undefined): number | undefined {
    const value = node && this.literals.json(node);
    return typeof value === 'number' ? value : undefined;
  }

  private retry(node: ts.Expression | undefined): StepModel['retry'] {
    const options = this.literals.properties(node);
    const attempts = this.number(options?.get('attempts'));
    return attempts === undefined ? undefined : { attempts, backoffMs: this.number(options?.get('backoffMs')) };
  }

  private argumentNames(node: ts.Expression | undefined, incomplete: () => void): string[] {
    if (!node) return [];
    const properties = this.literals.properties(node);
    const spread = this.t.isObjectLiteralExpression(node) && node.properties.some((property) => this.t.isSpreadAssignment(property));
    if (!properties || spread) {
      incomplete();
      return [];
    }
    return [...properties.keys()];
  }

  private decorators(node: ts.HasDecorators): DecoratorCall[] {
    const found: DecoratorCall[] = [];
    for (const decorator of this.t.getDecorators(node) ?? []) {
      if (!this.t.isCallExpression(decorator.expression)) continue;
      const name = this.source.resolve(decorator.expression.expression);
      if (name) found.push({ name, call: decorator.expression });
    }
    return found;
  }
}
