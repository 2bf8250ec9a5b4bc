/** One `{expression}` of an RFC 6570 URI template and the variables it names. */
export interface UriTemplateExpression {
  /** Offset of the `{` in the template. */
  readonly start: number;
  /** Offset just past the `}`. */
  readonly end: number;
  readonly variables: readonly { readonly name: string; readonly start: number; readonly end: number }[];
}

/** A template that cannot be read: an unclosed or empty `{`. */
export interface UriTemplateSyntaxError {
  readonly start: number;
  readonly end: number;
  readonly message: string;
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

/** The distinct variable names of a URI template, in order of first use. */
export function uriTemplateVariableNames(template: string): string[] {
  const names = new Set<string>();
  for (const expression of parseUriTemplate(template).expressions) {
    for (const variable of expression.variables) names.add(variable.name);
  }
  return [...names];
}
