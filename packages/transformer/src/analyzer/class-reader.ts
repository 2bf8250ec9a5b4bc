import type * as ts from 'typescript';
import {
  STEP_ACTIONS,
  workflowFaces,
  type ArgumentModel,
  type ExposeOptions,
  type ArgumentMapping,
  type Condition,
  type DataSource,
  type StepAction,
  type StepModel,
  type StrayDecorator,
  type UriVariableFill,
  type PreviousVersion,
} from '@mcpflow/core/model';
import { StepOutsideWorkflowError } from '@mcpflow/core/rules';
import { NotALiteralError } from '../errors/not-a-literal-error';
import type { AnalyzerContext, NodeError } from './analyzer-context';
import type { AnalyzedWorkflow, SourceNodes, StepNodes } from './analyzed-workflow';
import { baseClassOf, classDeclarationOf } from './extended-classes';
import { CONDITIONS, DATA_SOURCES, DecoratorSource } from './decorator-source';
import { readAsk } from './read-ask';
import { DefinitionTypes, type ToolDefinitionType } from './definition-types';
import { LiteralReader } from './literal-reader';

interface DecoratorCall {
  readonly name: string;
  readonly call: ts.CallExpression;
}

/**
 * Says that something could not be read as a literal, so the rules are not run on the workflow.
 * `quiet` when the compiler already reports why (a name it cannot resolve); `plain`, the source text
 * of a plain literal written where a data source belongs.
 */
type Incomplete = (what: string, at: ts.Node, step?: string, quiet?: boolean, plain?: string) => void;

/** The fields of a step's model that the whole class chain decides (a subclass may bind a base class's step). */
type ChainFields = 'binding' | 'extraBindings' | 'fills';

/**
 * A step's model as read from its `@Step`, the chain's fields filled in afterwards: in place, since
 * copying an object of twenty fields per step was a measurable part of the transformer's time.
 */
type StepModelDraft = Omit<StepModel, ChainFields> & { -readonly [K in ChainFields]: StepModel[K] };

/** A `@Step` property as read, before its bindings (which subclasses may add to) are joined. */
interface ReadStep {
  readonly member: ts.PropertyDeclaration;
  readonly property: string;
  readonly decorator: ts.Node;
  readonly model: StepModelDraft;
  readonly options: ReadonlyMap<string, ts.Expression>;
  /** The option naming the step's action. */
  readonly action?: ts.Expression;
  readonly embedded: readonly ts.Expression[];
  readonly args: ReadonlyMap<string, SourceNodes>;
  readonly tool?: ToolDefinitionType;
  /** The class a `workflowTool(Class)` action calls. */
  readonly calledWorkflow?: ts.ClassLikeDeclaration;
  readonly conditionSources: readonly SourceNodes[];
  readonly forEach?: SourceNodes;
  readonly transform?: ts.Expression;
}

interface ReadBinding {
  readonly name: string;
  readonly node: ts.Expression;
  readonly decorator: ts.Node;
}

interface ReadTemplate {
  readonly variable: string;
  readonly node: ts.Expression;
  readonly source: SourceNodes;
  readonly decorator: ts.Node;
}

/**
 * Reads a class into the workflow model the way the runtime reads its metadata: `@Workflow`
 * options from the class itself; steps from its base classes first, then its own, in declaration
 * order; a property's `@Bind`s and `@TemplateBinding`s from the subclass before the base class.
 * Where a value cannot be known at compile time, the model leaves it out rather than guess.
 */
export class ClassReader {
  private readonly t: typeof ts;
  private readonly source: DecoratorSource;
  private readonly literals: LiteralReader;
  private readonly definitions: DefinitionTypes;

  constructor(
    private readonly context: AnalyzerContext,
    private readonly errors: NodeError[],
  ) {
    this.t = context.t;
    this.source = new DecoratorSource(context.t, context.checker);
    this.literals = new LiteralReader(context.t, context.checker);
    this.definitions = new DefinitionTypes(context.t, context.checker);
  }

  /**
   * Reads a class as a workflow; `asPrevious` when it is read as a class of another's
   * `@Workflow({ previous })`: its own `previous` then only counted, not read (a previous class keeps
   * none: the rules say so, and a ring of classes naming each other is never followed).
   */
  read(node: ts.ClassLikeDeclaration, asPrevious = false): AnalyzedWorkflow | undefined {
    const workflowCall = this.decorators(node).find((decorator) => decorator.name === 'Workflow');
    const className = node.name?.text ?? '(anonymous class)';
    if (!workflowCall) {
      if (!this.context.isExtended(node)) {
        for (const member of this.properties(node)) {
          const step = this.decorators(member).find((decorator) => decorator.name === 'Step');
          if (step) this.errors.push({ error: new StepOutsideWorkflowError(className, member.name.getText()), node: step.call.expression });
        }
      }
      return undefined;
    }
    const options = this.literals.properties(workflowCall.call.arguments[0]);
    const nameNode = options?.get('name') ?? workflowCall.call;
    const name = this.literals.string(options?.get('name'));
    let complete = true;
    const incomplete: Incomplete = (what, at, step, quiet, plain) => {
      complete = false;
      if (quiet) return;
      // What a base class in another file cannot show is reported on this workflow.
      const here = at.getSourceFile() === node.getSourceFile() ? at : nameNode;
      this.errors.push({ error: new NotALiteralError(name ?? className, step, what, { kind: 'workflowName' }, plain), node: here });
    };
    if (name === undefined) incomplete(`the workflow name of class ${className}`, nameNode);
    const sensitive = new Set(this.strings(options?.get('sensitiveArguments')) ?? []);
    const argumentsNode = options?.get('arguments');
    const argumentList = this.readArguments(argumentsNode, sensitive, () =>
      incomplete(`the arguments of workflow class ${className}`, argumentsNode ?? nameNode),
    );
    const exposeNode = options?.get('expose');
    const exposed = exposeNode ? this.readExpose(exposeNode, className, incomplete) : undefined;
    const versionNode = options?.get('version');
    const version = versionNode ? this.literals.string(versionNode) : undefined;
    if (versionNode && version === undefined) incomplete(`the version of workflow class ${className}`, versionNode);
    const previousNode = options?.get('previous');
    const previous = previousNode ? this.readPrevious(previousNode, className, asPrevious, incomplete) : undefined;
    const resourcesNode = options?.get('resources');
    const resourceNodes = resourcesNode && this.t.isArrayLiteralExpression(resourcesNode) ? [...resourcesNode.elements] : [];
    if (resourcesNode && !this.t.isArrayLiteralExpression(resourcesNode))
      incomplete(`the resources of workflow class ${className}`, resourcesNode);
    const resources = resourceNodes.map(
      (node) =>
        this.literals.string(node) ??
        this.definitions.resourceUri(node) ??
        (incomplete(`an instruction resource URI of workflow class ${className}`, node), ''),
    );

    const steps: ReadStep[] = [];
    const bindings = new Map<string, ReadBinding[]>();
    const templates = new Map<string, ReadTemplate[]>();
    for (const declaration of this.chain(node, className, incomplete)) {
      const ownBindings = new Map<string, ReadBinding[]>();
      const ownTemplates = new Map<string, ReadTemplate[]>();
      for (const member of this.properties(declaration)) {
        const property = this.literals.propertyName(member.name) ?? member.name.getText();
        for (const decorator of this.decorators(member)) {
          if (decorator.name === 'Step') steps.push(this.readStep(member, property, decorator, incomplete));
          else if (decorator.name === 'Bind') this.readBind(decorator, property, incomplete, ownBindings);
          else if (decorator.name === 'TemplateBinding') this.readTemplate(decorator, property, incomplete, ownTemplates);
        }
      }
      // A subclass's decorators on a property come before those it inherits for that property.
      for (const [property, list] of ownBindings) bindings.set(property, [...list, ...(bindings.get(property) ?? [])]);
      for (const [property, list] of ownTemplates) templates.set(property, [...list, ...(templates.get(property) ?? [])]);
    }

    const stepModels: StepModel[] = [];
    const stepNodes = new Map<string, StepNodes>();
    for (const step of steps) {
      const bound = bindings.get(step.property) ?? [];
      const filled = templates.get(step.property) ?? [];
      const model: StepModelDraft = step.model;
      model.binding = bound[0]?.name;
      model.extraBindings = bound.slice(1).map((binding) => binding.name);
      model.fills = filled.map(({ variable, source }): UriVariableFill => ({ variable, source: source.source }));
      stepModels.push(model);
      if (stepNodes.has(model.name)) continue;
      stepNodes.set(model.name, {
        property: step.member,
        decorator: step.decorator,
        options: step.options,
        action: step.action,
        embedded: step.embedded,
        args: step.args,
        bindings: new Map(bound.map((binding) => [binding.name, binding.node])),
        templates: new Map(filled.map((template) => [template.variable, { variable: template.node, source: template.source }])),
        tool: step.tool,
        calledWorkflow: step.calledWorkflow,
        conditionSources: step.conditionSources,
        forEach: step.forEach,
        transform: step.transform,
      });
    }

    const stepProperties = new Set(steps.map((step) => step.property));
    const strays: StrayDecorator[] = [];
    const strayNodes = new Map<string, ts.Node>();
    const stray = (property: string, decorator: 'Bind' | 'TemplateBinding', node: ts.Node) => {
      strays.push({ property, decorator });
      strayNodes.set(`${property}:${decorator}`, node);
    };
    for (const [property, list] of bindings) if (!stepProperties.has(property)) stray(property, 'Bind', list[0].decorator);
    for (const [property, list] of templates) if (!stepProperties.has(property)) stray(property, 'TemplateBinding', list[0].decorator);

    return {
      model: {
        name: name ?? className,
        className,
        title: this.literals.string(options?.get('title')),
        description: this.literals.string(options?.get('description')),
        arguments: argumentList,
        instructions: options?.get('instructions') ? this.strings(options.get('instructions')) : [],
        resources,
        steps: stepModels,
        strayDecorators: strays,
        ...(exposed?.expose === undefined ? {} : { expose: exposed.expose }),
        ...(version === undefined ? {} : { version }),
        ...(previous === undefined ? {} : { previous: previous.versions }),
      },
      declaration: node,
      previousClasses: previous?.classes ?? [],
      nameNode,
      exposeNodes: exposed?.nodes ?? new Map(),
      decorator: workflowCall.call.expression,
      steps: stepNodes,
      strays: strayNodes,
      resources: resourceNodes,
      complete,
    };
  }

  /** The class and the classes it extends, base first. A base without source cannot be read. */
  private chain(node: ts.ClassLikeDeclaration, className: string, incomplete: Incomplete): ts.ClassLikeDeclaration[] {
    const chain = [node];
    for (let current = node; current.heritageClauses;) {
      const base = baseClassOf(this.t, this.context.checker, current);
      const heritage = current.heritageClauses.find((clause) => clause.token === this.t.SyntaxKind.ExtendsKeyword);
      if (!heritage) break;
      if (!base || base.getSourceFile().isDeclarationFile) {
        incomplete(`the steps class ${className} inherits (its base class has no source the compiler can read)`, heritage);
        break;
      }
      if (chain.includes(base)) break;
      chain.unshift(base);
      current = base;
    }
    return chain;
  }

  /** True for a name the compiler cannot resolve (a stale import, say): it reports that itself. */
  private unresolved(node: ts.Expression): boolean {
    if (!this.t.isIdentifier(node)) return false;
    let symbol = this.context.checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & this.t.SymbolFlags.Alias) symbol = this.context.checker.getAliasedSymbol(symbol);
    return !symbol?.declarations?.length;
  }

  private properties(node: ts.ClassLikeDeclaration): ts.PropertyDeclaration[] {
    return node.members.filter((member): member is ts.PropertyDeclaration => this.t.isPropertyDeclaration(member));
  }

  private readStep(member: ts.PropertyDeclaration, property: string, stepCall: DecoratorCall, incomplete: Incomplete): ReadStep {
    const optionsNode = stepCall.call.arguments[0];
    const options = this.literals.properties(optionsNode) ?? new Map<string, ts.Expression>();
    if (!optionsNode || !this.t.isObjectLiteralExpression(this.literals.unwrap(optionsNode)))
      incomplete(`the options of @Step on '${property}'`, stepCall.call);
    const nameNode = options.get('name');
    const stepName = nameNode ? this.literals.string(nameNode) : property;
    if (stepName === undefined && nameNode) incomplete(`the step name of '${property}'`, nameNode);
    const name = stepName ?? property;
    const text = (key: string): string | undefined => {
      const node = options.get(key);
      if (!node) return undefined;
      const value = this.literals.string(node);
      if (value === undefined) incomplete(`option '${key}' of step '${name}'`, node, name, this.unresolved(node));
      return value;
    };
    const toolNode = options.get('tool');
    // A name written as a literal is not a definition: asking the checker would only cost time.
    const tool = toolNode && !this.t.isStringLiteralLike(toolNode) ? this.definitions.tool(toolNode) : undefined;
    const calledWorkflow = toolNode && this.calledWorkflow(toolNode);
    const actions = this.readActions(options, name, incomplete);
    const guidance = text('guidance');

    const embeddedNode = options.get('resources');
    const embedded = embeddedNode && this.t.isArrayLiteralExpression(embeddedNode) ? [...embeddedNode.elements] : [];
    if (embeddedNode && !this.t.isArrayLiteralExpression(embeddedNode)) incomplete(`the resources of step '${name}'`, embeddedNode, name);
    const resources = embedded.map(
      (node) => this.literals.string(node) ?? (incomplete(`a resource URI of step '${name}'`, node, name), ''),
    );

    const args: ArgumentMapping[] = [];
    const argNodes = new Map<string, SourceNodes>();
    const argsNode = options.get('args');
    const argOptions = this.literals.properties(argsNode);
    if (
      argsNode &&
      (!argOptions || (this.t.isObjectLiteralExpression(argsNode) && argsNode.properties.some((entry) => this.t.isSpreadAssignment(entry))))
    ) {
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
    return {
      member,
      property,
      decorator: stepCall.call.expression,
      options,
      action: actions.node,
      embedded,
      args: argNodes,
      tool,
      ...(calledWorkflow ? { calledWorkflow } : {}),
      conditionSources,
      forEach,
      transform: options.get('transform'),
      model: {
        name,
        property,
        action: actions.read[0],
        extraActions: actions.read.slice(1),
        args,
        resources,
        guidance,
        timeoutMs: this.number(options.get('timeoutMs')),
        retry: this.retry(options.get('retry')),
        sensitiveArgs: this.strings(options.get('sensitiveArgs')) ?? [],
        parallel: flag('parallel'),
        when,
        forEach: forEach?.source,
        concurrency: this.number(options.get('concurrency')),
        maxItems: this.number(options.get('maxItems')),
        optional: flag('optional'),
        binding: undefined,
        extraBindings: [],
        fills: [],
      },
    };
  }

  /**
   * The actions the options name, in `STEP_ACTIONS` order, read as the runtime reads them: the
   * option's literal, or the field of the definition it holds. `node` is the first one's option.
   */
  private readActions(
    options: ReadonlyMap<string, ts.Expression>,
    step: string,
    incomplete: Incomplete,
  ): { read: StepAction[]; node?: ts.Expression } {
    const read: StepAction[] = [];
    let node: ts.Expression | undefined;
    for (const kind of STEP_ACTIONS) {
      const option = options.get(kind.option);
      if (!option) continue;
      const value =
        (kind.literal === 'string' ? this.literals.string(option) : this.number(option)) ??
        (kind.definition?.kind === 'tool' ? this.workflowToolName(option) : undefined) ??
        (kind.definition && this.definitions.field(option, kind.definition.kind, kind.definition.field));
      if (value === undefined) {
        incomplete(`option '${kind.option}' of step '${step}'`, option, step, this.unresolved(option));
        continue;
      }
      read.push(kind.read(value) as StepAction);
      node ??= option;
    }
    return { read, node };
  }

  /**
   * `@Workflow({ previous: [OldClass, …] })` as the runtime reads it: each class read as a workflow
   * (no model for one without `@Workflow`). A list that is not an array literal of classes with
   * source cannot be read, so the rules are not run on the workflow.
   */
  private readPrevious(
    node: ts.Expression,
    className: string,
    shallow: boolean,
    incomplete: Incomplete,
  ): { versions: PreviousVersion[]; classes: ts.ClassLikeDeclaration[] } | undefined {
    const list = this.literals.unwrap(node);
    if (!this.t.isArrayLiteralExpression(list)) {
      incomplete(`the previous classes of workflow class ${className} (write an array of classes)`, node);
      return undefined;
    }
    const versions: PreviousVersion[] = [];
    const classes: ts.ClassLikeDeclaration[] = [];
    for (const element of list.elements) {
      const declaration = this.t.isSpreadElement(element) ? undefined : classDeclarationOf(this.t, this.context.checker, element);
      if (!declaration || declaration.getSourceFile().isDeclarationFile) {
        incomplete(
          `the previous class ${element.getText()} of workflow class ${className} (a class whose source the compiler can read)`,
          element,
          undefined,
          this.unresolved(element as ts.Expression),
        );
        continue;
      }
      const previousName = declaration.name?.text ?? '(anonymous class)';
      classes.push(declaration);
      if (shallow) versions.push({ className: previousName });
      else {
        const read = new ClassReader(this.context, []).read(declaration, true);
        versions.push(read === undefined ? { className: previousName } : { className: previousName, model: read.model });
      }
    }
    return { versions, classes };
  }

  /** The class `node` names when it is a `workflowTool(Class)` call whose class has source. */
  private calledWorkflow(node: ts.Expression): ts.ClassLikeDeclaration | undefined {
    const call = this.literals.unwrap(node);
    if (!this.t.isCallExpression(call) || this.source.resolve(call.expression) !== 'workflowTool' || !call.arguments[0]) return undefined;
    const declaration = classDeclarationOf(this.t, this.context.checker, call.arguments[0]);
    return declaration && !declaration.getSourceFile().isDeclarationFile ? declaration : undefined;
  }

  /**
   * The tool name of the workflow a `workflowTool(Class)` call names, as the runtime reads it: its
   * `expose.tool.name`, else its name.
   */
  private workflowToolName(node: ts.Expression): string | undefined {
    const declaration = this.calledWorkflow(node);
    const workflowCall = declaration && this.decorators(declaration).find((decorator) => decorator.name === 'Workflow');
    const options = workflowCall && this.literals.properties(workflowCall.call.arguments[0]);
    const name = this.literals.string(options?.get('name'));
    if (name === undefined) return undefined;
    const exposeNode = options?.get('expose');
    const expose = exposeNode ? this.readExpose(exposeNode, declaration!.name?.text ?? name, () => undefined).expose : undefined;
    return workflowFaces({ name, expose }).tool?.name ?? name;
  }

  /**
   * `@Workflow({ expose })` as the runtime reads it, with the node of each option by its path
   * (`''` for `expose` itself, `tool`, `tool.name`, …) for the diagnostics. An option that is not
   * a literal makes the workflow incomplete.
   */
  private readExpose(
    node: ts.Expression,
    className: string,
    incomplete: Incomplete,
  ): { expose?: ExposeOptions; nodes: Map<string, ts.Node> } {
    const nodes = new Map<string, ts.Node>([['', node]]);
    const literal = this.literals.unwrap(node);
    const options = this.literals.properties(node);
    if (
      !options ||
      (this.t.isObjectLiteralExpression(literal) && literal.properties.some((entry) => !this.t.isPropertyAssignment(entry)))
    ) {
      incomplete(`the expose option of workflow class ${className}`, node);
      return { nodes };
    }
    const expose: Record<string, unknown> = {};
    const read = (path: string, value: ts.Expression): unknown => {
      nodes.set(path, value);
      const text = this.literals.string(value);
      const json = text ?? this.literals.json(value);
      if (json === undefined) incomplete(`option 'expose.${path}' of workflow class ${className}`, value);
      return json;
    };
    for (const [key, value] of options) {
      const nested = this.t.isObjectLiteralExpression(this.literals.unwrap(value)) ? this.literals.properties(value) : undefined;
      if (!nested) {
        expose[key] = read(key, value);
        continue;
      }
      nodes.set(key, value);
      const object: Record<string, unknown> = {};
      for (const [inner, innerValue] of nested) object[inner] = read(`${key}.${inner}`, innerValue);
      expose[key] = object;
    }
    return { expose: expose as ExposeOptions, nodes };
  }

  private readBind(decorator: DecoratorCall, property: string, incomplete: Incomplete, into: Map<string, ReadBinding[]>): void {
    const first = decorator.call.arguments[0];
    const name = this.literals.string(first);
    if (name === undefined) incomplete(`the @Bind name on '${property}'`, first ?? decorator.call, property);
    else into.set(property, [...(into.get(property) ?? []), { name, node: first, decorator: decorator.call.expression }]);
  }

  private readTemplate(decorator: DecoratorCall, property: string, incomplete: Incomplete, into: Map<string, ReadTemplate[]>): void {
    const [first, second] = decorator.call.arguments;
    const variable = this.literals.string(first);
    const source = second ? this.readSource(second, property, incomplete) : undefined;
    if (variable === undefined) incomplete(`the @TemplateBinding variable on '${property}'`, first ?? decorator.call, property);
    else if (source)
      into.set(property, [...(into.get(property) ?? []), { variable, node: first, source, decorator: decorator.call.expression }]);
  }

  private readSource(node: ts.Expression, step: string, incomplete: Incomplete): SourceNodes | undefined {
    const call = this.t.isCallExpression(node) ? node : undefined;
    const kind = call ? this.source.resolve(call.expression) : undefined;
    if (!call || !kind || !DATA_SOURCES.includes(kind)) {
      if (!call && this.literals.json(node) !== undefined) incomplete(`a data source of step '${step}'`, node, step, false, node.getText());
      else
        incomplete(
          `a data source of step '${step}' (use promptArg, fromStep, field, constant, item, askUser or askModel directly)`,
          node,
          step,
        );
      return undefined;
    }
    if (kind === 'askUser' || kind === 'askModel') {
      return readAsk(kind, call, step, this.literals, (nested) => this.readSource(nested, step, incomplete), incomplete);
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
  private readCondition(node: ts.Expression, step: string, sources: SourceNodes[], incomplete: Incomplete): Condition | undefined {
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
    if (attempts === undefined) return undefined;
    const backoffMs = this.number(options?.get('backoffMs'));
    return backoffMs === undefined ? { attempts } : { attempts, backoffMs };
  }

  /** A literal array of strings; undefined when the option is absent or not such a literal. */
  private strings(node: ts.Expression | undefined): string[] | undefined {
    const value = node && this.literals.json(node);
    return Array.isArray(value) && value.every((item): item is string => typeof item === 'string') ? value : undefined;
  }

  /**
   * The declared prompt arguments. `required` comes from the schema's type (a zod schema whose
   * input type admits `undefined` is optional) and is left out when the type does not say.
   */
  private readArguments(node: ts.Expression | undefined, sensitive: ReadonlySet<string>, incomplete: () => void): ArgumentModel[] {
    if (!node) return [];
    const properties = this.literals.properties(node);
    const spread = this.t.isObjectLiteralExpression(node) && node.properties.some((property) => this.t.isSpreadAssignment(property));
    if (!properties || spread) {
      incomplete();
      return [];
    }
    return [...properties].map(([name, schema]): ArgumentModel => {
      const required = this.requiredBySchema(schema);
      return { name, ...(required === undefined ? {} : { required }), sensitive: sensitive.has(name) };
    });
  }

  private requiredBySchema(schema: ts.Expression): boolean | undefined {
    const checker = this.context.checker;
    // A schema is usually a call (`z.string()`): its signature is resolved already, where the type
    // of the call expression would be computed again, name lookups and all.
    const signature = this.t.isCallExpression(schema) ? checker.getResolvedSignature(schema) : undefined;
    const schemaType = signature ? checker.getReturnTypeOfSignature(signature) : checker.getTypeAtLocation(schema);
    const input = checker.getPropertyOfType(schemaType, '_input');
    if (!input) return undefined;
    const type = checker.getTypeOfSymbol(input);
    if (type.flags & (this.t.TypeFlags.Any | this.t.TypeFlags.Unknown)) return undefined;
    const members = type.isUnion() ? type.types : [type];
    return !members.some((member) => member.flags & (this.t.TypeFlags.Undefined | this.t.TypeFlags.Void));
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
