import type * as ts from 'typescript';
import { parseFieldPath, stepTool, workflowFaces, type DataSource, type StepModel } from '@mcpflow/core/model';
import {
  ArgumentTypeError,
  AskAnswerTypeError,
  ForEachOverNonArrayError,
  PromptArgumentTypeError,
  UriValueTypeError,
  type IssueTarget,
  type SourceIssueTarget,
} from '@mcpflow/core/rules';
import { BindingTypeError } from '../errors/binding-type-error';
import { FieldNotInTypeError } from '../errors/field-not-in-type-error';
import { ItemPathNotInTypeError } from '../errors/item-path-not-in-type-error';
import { TransformTypeMismatchError } from '../errors/transform-type-mismatch-error';
import { TypeMismatchError } from '../errors/type-mismatch-error';
import type { AnalyzedWorkflow, SourceNodes, StepNodes } from './analyzed-workflow';
import type { NodeError } from './analyzer-context';
import { arrayElementType, isUnchecked, walkPath } from './type-paths';

/**
 * The checks that need types: a `field()` path must exist in the binding's declared type (the
 * `@Bind` property's type) and an `item()` path in the `forEach` element's type; `forEach` reads an
 * array; a value that fills a URI variable is a string, number or boolean; a `transform` returns
 * what the `@Bind` property declares; for a tool definition, a `fromStep`/`field`/`item` value fits
 * the input it is mapped to and the tool's output fits the `@Bind` property. `any` and `unknown`
 * are not checked. (`promptArg`/`constant` into a definition are checked by TypeScript itself.)
 */
export function checkTypes(t: typeof ts, checker: ts.TypeChecker, workflow: AnalyzedWorkflow): NodeError[] {
  const errors: NodeError[] = [];
  const bindingTypes = new Map<string, ts.Type>();
  const argumentsType = workflowArgumentsType(t, checker, workflow);
  for (const step of workflow.model.steps) {
    const nodes = workflow.steps.get(step.name);
    if (!nodes) continue;
    new StepTypeChecks(t, checker, workflow.model.name, step, nodes, bindingTypes, errors, argumentsType).run();
    if (step.binding !== undefined && !bindingTypes.has(step.binding))
      bindingTypes.set(step.binding, checker.getTypeAtLocation(nodes.property));
  }
  return errors;
}

class StepTypeChecks {
  /** The type of the current `forEach` element, when it is known. */
  private element: ts.Type | undefined;

  constructor(
    private readonly t: typeof ts,
    private readonly checker: ts.TypeChecker,
    private readonly workflow: string,
    private readonly step: StepModel,
    private readonly nodes: StepNodes,
    private readonly bindingTypes: ReadonlyMap<string, ts.Type>,
    private readonly errors: NodeError[],
    /** The type of `@Workflow({ arguments })`, when it is written. */
    private readonly argumentsType: ts.Type | undefined,
  ) {}

  run(): void {
    const { step, nodes } = this;
    if (nodes.forEach) this.checkForEach(nodes.forEach);
    for (const [arg, source] of nodes.args) {
      this.checkArgument(arg, source, this.valueType(source, { kind: 'argSource', step: step.name, arg, part: 'path' }));
      this.checkAskInputs(source, { kind: 'argSource', step: step.name, arg, part: 'path' });
      this.checkAskAnswer(arg, source);
      this.checkPromptArgType(arg, source);
    }
    for (const [variable, { source }] of nodes.templates) {
      this.checkAskInputs(source, { kind: 'templateSource', step: step.name, variable, part: 'path' });
      this.checkTemplateValue(variable, source);
    }
    nodes.conditionSources.forEach((source, index) =>
      this.valueType(source, { kind: 'conditionSource', step: step.name, index, part: 'path' }),
    );
    this.checkBindingShape();
    if (nodes.transform) this.checkTransform(nodes.transform);
    else this.checkToolOutput();
  }

  /** A `fromStep`/`field`/`item` value mapped to a tool definition's input must fit that input's type. */
  private checkArgument(arg: string, source: SourceNodes, type: ts.Type | undefined): void {
    const { checker, nodes } = this;
    const tool = nodes.tool;
    const property = tool && checker.getPropertyOfType(tool.input, arg);
    if (!tool || !property || !type || isUnchecked(this.t, type)) return;
    const input = checker.getTypeOfSymbol(property);
    // A missing value hands off at run time; only a present value of the wrong type is an error.
    if (checker.isTypeAssignableTo(checker.getNonNullableType(type), input)) return;
    const inputText = checker.typeToString(input);
    this.errors.push({
      error: new ArgumentTypeError(
        this.workflow,
        this.step.name,
        tool.name,
        arg,
        `takes ${inputText}, but the value mapped to it is of type ${checker.typeToString(type)}.`,
        `map '${arg}' from a value of type ${inputText} (a deeper field() path, say), or change the tool's input schema.`,
        { kind: 'argSource', step: this.step.name, arg, part: 'value' },
      ),
      node: source.call,
    });
  }

  /**
   * An ask mapped to a tool definition's input must give an answer that fits it: a string without
   * a schema (an `askUser` form field, an `askModel` text), else its schema's output type. An
   * `askUser` with `choices` gives the chosen value, whose type its source checks.
   */
  private checkAskAnswer(arg: string, source: SourceNodes): void {
    const { checker, nodes } = this;
    const { source: data } = source;
    if ((data.kind !== 'askUser' && data.kind !== 'askModel') || source.options?.has('choices')) return;
    const tool = nodes.tool;
    const property = tool && checker.getPropertyOfType(tool.input, arg);
    if (!tool || !property) return;
    const schema = source.options?.get('schema');
    let answer: ts.Type | undefined = checker.getStringType();
    if (schema) {
      const output = checker.getPropertyOfType(checker.getTypeAtLocation(schema), '_output');
      answer = output && checker.getTypeOfSymbol(output);
    }
    if (!answer || isUnchecked(this.t, answer)) return;
    if (checker.isTypeAssignableTo(answer, checker.getNonNullableType(checker.getTypeOfSymbol(property)))) return;
    this.errors.push({
      error: new AskAnswerTypeError(
        this.workflow,
        this.step.name,
        data.kind,
        tool.name,
        arg,
        checker.typeToString(checker.getTypeOfSymbol(property)),
        `of type ${checker.typeToString(answer)} (${schema ? "its schema's output" : 'it has no schema'})`,
        {
          kind: 'argSource',
          step: this.step.name,
          arg,
          part: 'value',
        },
      ),
      node: source.call,
    });
  }

  /**
   * A `promptArg<T>()` (T is `string` when not written) must be declared as what its workflow
   * argument's schema gives: TypeScript checks T against the tool's input, this checks T itself.
   */
  private checkPromptArgType(arg: string, source: SourceNodes): void {
    const { t, checker, argumentsType } = this;
    const { source: data, call } = source;
    if (data.kind !== 'promptArg' || !argumentsType || !t.isCallExpression(call)) return;
    const schema = checker.getPropertyOfType(argumentsType, data.name);
    const output = schema && checker.getPropertyOfType(checker.getTypeOfSymbol(schema), '_output');
    const written = output && checker.getTypeOfSymbol(output);
    const typeArgument = call.typeArguments?.[0];
    const declared = typeArgument ? checker.getTypeFromTypeNode(typeArgument) : checker.getStringType();
    if (!written || isUnchecked(t, written) || isUnchecked(t, declared)) return;
    // An optional argument left out hands off at run time; only a present value of another type is an error.
    const gives = checker.getNonNullableType(written);
    if (checker.isTypeAssignableTo(gives, declared)) return;
    const givesText = checker.typeToString(gives);
    this.errors.push({
      error: new ArgumentTypeError(
        this.workflow,
        this.step.name,
        this.nodes.tool?.name ?? stepTool(this.step) ?? '',
        arg,
        `is filled by promptArg('${data.name}') as ${checker.typeToString(declared)}, but the workflow argument '${data.name}' gives ${givesText} (its schema's output).`,
        `write promptArg<${givesText}>('${data.name}') (a workflow served only as a tool may take typed arguments), or declare '${data.name}' with a schema that gives ${checker.typeToString(declared)}.`,
        { kind: 'argSource', step: this.step.name, arg, part: 'value' },
      ),
      node: call,
    });
  }

  /** A tool definition's output (each element's, with `forEach`) must fit the `@Bind` property. */
  private checkToolOutput(): void {
    const { checker, nodes, step } = this;
    const output = nodes.tool?.output;
    if (!nodes.tool || !output || step.binding === undefined) return;
    const property = checker.getTypeAtLocation(nodes.property);
    const expected = nodes.forEach ? arrayElementType(this.t, checker, property) : property;
    if (!expected || isUnchecked(this.t, expected) || checker.isTypeAssignableTo(output, expected)) return;
    this.errors.push({
      error: new BindingTypeError(
        this.workflow,
        step.name,
        nodes.tool.name,
        step.binding,
        checker.typeToString(expected),
        checker.typeToString(output),
        nodes.forEach !== undefined,
        { kind: 'binding', step: step.name, binding: step.binding },
      ),
      node: nodes.bindings.get(step.binding) ?? nodes.property.name,
    });
  }

  /** The type a data source yields, reporting a path that is not in its type. */
  private valueType(source: SourceNodes, target: IssueTarget): ts.Type | undefined {
    const { source: data } = source;
    const root = this.rootType(data);
    if (!root || data.kind === 'fromStep' || (data.kind === 'item' && data.path === undefined)) return root;
    const path = data.kind === 'field' || data.kind === 'item' ? data.path : undefined;
    const segments = path === undefined ? undefined : parseFieldPath(path);
    if (!segments || path === undefined) return undefined;
    const result = walkPath(this.t, this.checker, root, segments);
    if (result.kind === 'missing') {
      const at = segments.slice(0, result.index).join('.');
      const typeText = this.checker.typeToString(result.type);
      const error =
        data.kind === 'item'
          ? new ItemPathNotInTypeError(this.workflow, this.step.name, path, at, segments[result.index], typeText, result.candidates, target)
          : new FieldNotInTypeError(
              this.workflow,
              this.step.name,
              data.kind === 'field' ? data.binding : '',
              path,
              at,
              segments[result.index],
              typeText,
              result.candidates,
              target,
            );
      this.errors.push({ error, node: source.second ?? source.call });
      return undefined;
    }
    return result.kind === 'found' ? result.type : undefined;
  }

  private rootType(data: DataSource): ts.Type | undefined {
    if (data.kind === 'item') return this.element;
    return data.kind === 'field' || data.kind === 'fromStep' ? this.bindingTypes.get(data.binding) : undefined;
  }

  private checkForEach(source: SourceNodes): void {
    const type = this.valueType(source, { kind: 'forEachSource', step: this.step.name, part: 'path' });
    if (!type || isUnchecked(this.t, type)) return;
    this.element = arrayElementType(this.t, this.checker, type);
    if (!this.element) {
      const what = `a value of type ${this.checker.typeToString(type)}`;
      this.errors.push({
        error: new ForEachOverNonArrayError(this.workflow, this.step.name, what, {
          kind: 'forEachSource',
          step: this.step.name,
          part: 'value',
        }),
        node: source.call,
      });
    }
  }

  /** The sources an ask builds its question from: their paths exist, and `choices` is a list. */
  private checkAskInputs(source: SourceNodes, target: SourceIssueTarget): void {
    for (const [within, nested] of source.nested ?? []) {
      const type = this.valueType(nested, { ...target, part: 'path', within });
      const problem = within === 'choices' && type ? this.notAListProblem(type) : undefined;
      if (!problem) continue;
      this.errors.push({
        error: new TypeMismatchError(
          this.workflow,
          this.step.name,
          `${source.source.kind}() takes its choices from ${problem}, but choices must be a list.`,
          `read an array, such as field('<binding>', '<path to the list>').`,
          { ...target, part: 'value', within },
        ),
        node: nested.call,
      });
    }
  }

  /** Why a type cannot be a list of choices, unless some form of it is an array (or it is unchecked). */
  private notAListProblem(type: ts.Type): string | undefined {
    if (isUnchecked(this.t, type)) return undefined;
    const defined = this.checker.getNonNullableType(type);
    const members = defined.isUnion() ? defined.types : [defined];
    if (
      members.some(
        (member) =>
          isUnchecked(this.t, member) || member.flags & this.t.TypeFlags.TypeParameter || arrayElementType(this.t, this.checker, member),
      )
    )
      return undefined;
    return `a value of type ${this.checker.typeToString(defined)}`;
  }

  private checkTemplateValue(variable: string, source: SourceNodes): void {
    // A constant that cannot fill a URI is the shared rule's (it needs no types).
    const type = this.valueType(source, { kind: 'templateSource', step: this.step.name, variable, part: 'path' });
    const problem = type && this.structuredTypeProblem(type);
    if (!problem) return;
    const target: IssueTarget = { kind: 'templateSource', step: this.step.name, variable, part: 'value' };
    this.errors.push({ error: new UriValueTypeError(this.workflow, this.step.name, variable, problem, target), node: source.call });
  }

  /** A `forEach` step binds the array of its results, so its `@Bind` property must be an array. */
  private checkBindingShape(): void {
    const { step, nodes } = this;
    if (!nodes.forEach || step.binding === undefined) return;
    const type = this.checker.getTypeAtLocation(nodes.property);
    if (isUnchecked(this.t, type) || arrayElementType(this.t, this.checker, type)) return;
    const typeText = this.checker.typeToString(type);
    this.errors.push({
      error: new TypeMismatchError(
        this.workflow,
        step.name,
        `binds '${step.binding}' as ${typeText}, but a forEach step binds the array of its results.`,
        `declare the property as an array, such as ${typeText}[].`,
        { kind: 'binding', step: step.name, binding: step.binding },
      ),
      node: nodes.bindings.get(step.binding) ?? nodes.property.name,
    });
  }

  /** `transform`'s result (awaited) must fit the `@Bind` property (its element, for a `forEach` step). */
  private checkTransform(transform: ts.Expression): void {
    const { step, nodes, checker } = this;
    const signature = checker.getTypeAtLocation(transform).getCallSignatures()[0];
    if (!signature) return;
    this.checkTransformParameter(transform, signature);
    if (step.binding === undefined) return;
    const property = checker.getTypeAtLocation(nodes.property);
    const expected = nodes.forEach ? arrayElementType(this.t, checker, property) : property;
    const returned = checker.getAwaitedType(checker.getReturnTypeOfSignature(signature));
    if (
      !expected ||
      !returned ||
      isUnchecked(this.t, expected) ||
      isUnchecked(this.t, returned) ||
      checker.isTypeAssignableTo(returned, expected)
    )
      return;
    const where = nodes.forEach ? `an element of the @Bind('${step.binding}') array` : `the @Bind('${step.binding}') property`;
    this.errors.push({
      error: new TransformTypeMismatchError(
        this.workflow,
        step.name,
        `transform returns ${checker.typeToString(returned)}, which does not fit ${where} (${checker.typeToString(expected)}).`,
        `return a ${checker.typeToString(expected)} from transform, or change the property's type to what transform returns.`,
      ),
      node: transform,
    });
  }

  /** A tool definition's output (each iteration's, with `forEach`) must fit `transform`'s parameter. */
  private checkTransformParameter(transform: ts.Expression, signature: ts.Signature): void {
    const { checker, nodes, step } = this;
    const output = nodes.tool?.output;
    const parameter = signature.getParameters()[0];
    if (!nodes.tool || !output || !parameter) return;
    const accepts = checker.getTypeOfSymbolAtLocation(parameter, transform);
    if (isUnchecked(this.t, accepts) || checker.isTypeAssignableTo(output, accepts)) return;
    const outputText = checker.typeToString(output);
    this.errors.push({
      error: new TransformTypeMismatchError(
        this.workflow,
        step.name,
        `transform takes ${checker.typeToString(accepts)}, but tool ${nodes.tool.name} returns ${outputText}.`,
        `declare transform's parameter as ${outputText} (or a type it fits), or call a tool whose output transform takes.`,
      ),
      node: transform,
    });
  }

  /** Why a type cannot fill a URI variable, if every form it can take is an object or an array. */
  private structuredTypeProblem(type: ts.Type): string | undefined {
    const { t, checker } = this;
    if (isUnchecked(t, type)) return undefined;
    const defined = checker.getNonNullableType(type);
    const members = defined.isUnion() ? defined.types : [defined];
    const primitive =
      t.TypeFlags.StringLike |
      t.TypeFlags.NumberLike |
      t.TypeFlags.BooleanLike |
      t.TypeFlags.Any |
      t.TypeFlags.Unknown |
      t.TypeFlags.TypeParameter;
    if (members.some((member) => member.flags & primitive)) return undefined;
    return members.length ? `a value of type ${checker.typeToString(defined)}` : undefined;
  }
}

/** The type of the `@Workflow({ arguments })` expression (a literal or a name), when it is written. */
function workflowArgumentsType(t: typeof ts, checker: ts.TypeChecker, workflow: AnalyzedWorkflow): ts.Type | undefined {
  const declared = argumentsProperty(t, workflow);
  return declared && checker.getTypeAtLocation(declared.initializer);
}

/** The `arguments` property of the `@Workflow({ … })` options literal. */
function argumentsProperty(t: typeof ts, workflow: AnalyzedWorkflow): ts.PropertyAssignment | undefined {
  // The decorator node is the call's callee (`Workflow` in `@Workflow({ … })`).
  const call = workflow.decorator.parent;
  const options = t.isCallExpression(call) ? call.arguments[0] : undefined;
  if (!options || !t.isObjectLiteralExpression(options)) return undefined;
  return options.properties.find(
    (property): property is ts.PropertyAssignment =>
      t.isPropertyAssignment(property) && t.isIdentifier(property.name) && property.name.text === 'arguments',
  );
}

/**
 * A workflow served as a prompt takes its arguments as strings: each `@Workflow({ arguments })`
 * schema's input type must admit one (a string, a string literal, `unknown` for `z.coerce.*`). A
 * workflow served only as a tool may declare any schemas.
 */
export function checkPromptArgumentTypes(t: typeof ts, checker: ts.TypeChecker, workflow: AnalyzedWorkflow): NodeError[] {
  if (!workflowFaces(workflow.model).prompt) return [];
  const declared = argumentsProperty(t, workflow);
  if (!declared || !t.isObjectLiteralExpression(declared.initializer)) return [];
  const errors: NodeError[] = [];
  for (const property of declared.initializer.properties) {
    if (!t.isPropertyAssignment(property) || !(t.isIdentifier(property.name) || t.isStringLiteral(property.name))) continue;
    const input = checker.getPropertyOfType(checker.getTypeAtLocation(property.initializer), '_input');
    // Not made non-nullable: that turns `unknown` (a `z.coerce.*` input) into `{}`.
    if (!input || admitsString(t, checker.getTypeOfSymbol(input))) continue;
    errors.push({ error: new PromptArgumentTypeError(workflow.model.name, property.name.text), node: property.initializer });
  }
  return errors;
}

/** Whether a type admits some string: `any`/`unknown`, a string (literal), or a union with one. */
function admitsString(t: typeof ts, type: ts.Type): boolean {
  if (type.flags & (t.TypeFlags.Any | t.TypeFlags.Unknown | t.TypeFlags.StringLike)) return true;
  if (type.isUnion()) return type.types.some((member) => admitsString(t, member));
  if (type.isIntersection()) return type.types.every((member) => admitsString(t, member));
  return false;
}
