/** One `{expression}` of an RFC 6570 URI template and the variables it names. */
export interface UriTemplateExpression {
  /** Offset of the `{` in the template. */
  readonly start: number;
  /** Offset just past the `}`. */
  readonly end: number;
  readonly variables: readonly { readonly name: string; readonly start: number; readonly end: number }[];
}

/** A template that cannot be read (an unclosed or empty `{`), or an expression no step could fill and read back. */
export interface UriTemplateSyntaxError {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  /** How to fix it, when it is not the usual "close every '{'". */
  readonly fix?: string;
}

export interface ParsedUriTemplate {
  readonly expressions: readonly UriTemplateExpression[];
  readonly errors: readonly UriTemplateSyntaxError[];
}

const OPERATORS = '+#./;?&';
const VARIABLE_NAME = /^[A-Za-z0-9_.%]+$/;

/**
 * Finds the variables of an RFC 6570 URI template (`{id}`, `{+path}`, `{?q,page}`, `{/segs*}`),
 * with their offsets so a compiler diagnostic can point at the name inside the literal.
 */
export function parseUriTemplate(template: string): ParsedUriTemplate {
  const expressions: UriTemplateExpression[] = [];
  const errors: UriTemplateSyntaxError[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{', index);
    if (open < 0) break;
    const close = template.indexOf('}', open + 1);
    const nextOpen = template.indexOf('{', open + 1);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      errors.push({ start: open, end: open + 1, message: `'{' at offset ${open} is never closed` });
      index = open + 1;
      continue;
    }
    let bodyStart = open + 1;
    if (OPERATORS.includes(template[bodyStart] ?? '')) bodyStart += 1;
    const unsupported = unsupportedExpression(template.slice(open, close + 1));
    if (unsupported) errors.push({ start: open, end: close + 1, ...unsupported });
    const variables: { name: string; start: number; end: number }[] = [];
    let cursor = bodyStart;
    for (const spec of template.slice(bodyStart, close).split(',')) {
      const name = spec.replace(/\*$/, '').replace(/:\d+$/, '');
      if (!VARIABLE_NAME.test(name)) {
        errors.push({ start: open, end: close + 1, message: `'${template.slice(open, close + 1)}' is not a valid template expression` });
      } else {
        variables.push({ name, start: cursor, end: cursor + name.length });
      }
      cursor += spec.length + 1;
    }
    expressions.push({ start: open, end: close + 1, variables });
    index = close + 1;
  }
  return { expressions, errors };
}

/**
 * Why an expression parses but cannot work: the server fills URIs and matches `resources/read`
 * through the SDK's `UriTemplate`, which cannot match these back to the value a step put in (so
 * every run would hand off). Refused at `use()` and at compile time instead.
 */
function unsupportedExpression(expression: string): { message: string; fix: string } | undefined {
  const operator = expression[1];
  const body = expression.slice(OPERATORS.includes(operator) ? 2 : 1, -1);
  if (operator === '#') {
    return {
      message: `'${expression}' uses the '#' operator (a fragment), which the SDK cannot match back to its value`,
      fix: `use '{${body}}' or '{+${body}}' in the path, or '{?${body}}' in the query.`,
    };
  }
  if (operator === ';') {
    return {
      message: `'${expression}' uses the ';' operator, which the SDK does not support`,
      fix: `use '{?${body}}' for a parameter, or '{/${body}}' for a segment.`,
    };
  }
  if (/:\d+/.test(body)) {
    return {
      message: `'${expression}' uses a prefix modifier (':n'), which the SDK does not support`,
      fix: `remove the ':n' and fill the whole value.`,
    };
  }
  if (body.includes(',') && operator !== '?' && operator !== '&') {
    return {
      message: `'${expression}' holds several variables, which the SDK neither encodes nor matches back`,
      fix: `give each variable its own expression, such as '{a}/{b}', or use '{?a,b}' in the query.`,
    };
  }
  if (body.split(',').some((name) => name.replace(/\*$/, '') === '__proto__')) {
    return { message: `'${expression}' names a variable '__proto__', which no matched URI can hold`, fix: `rename the variable.` };
  }
  return undefined;
}

/** The distinct variable names of a URI template, in order of first use. */
export function uriTemplateVariableNames(template: string): string[] {
  const names = new Set<string>();
  for (const expression of parseUriTemplate(template).expressions) {
    for (const variable of expression.variables) names.add(variable.name);
  }
  return [...names];
}
