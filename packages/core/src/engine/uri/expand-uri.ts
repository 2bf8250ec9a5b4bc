import { decodeVariables } from './decode-variables';
import type { ExpandableUriTemplate, UriTemplateParser, UriVariables } from './uri-template';

/** A URI ready to expand: the template parsed once, at `use()`. */
export interface PlannedUri {
  readonly template: string;
  readonly variables: readonly string[];
  /** Absent for a URI without variables. */
  readonly parsed?: ExpandableUriTemplate;
}

export function planUri(template: string, variables: readonly string[], parse: UriTemplateParser): PlannedUri {
  return variables.length ? { template, variables, parsed: parse(template) } : { template, variables };
}

/** A filled URI, and the same URI as the trace shows it (the client's values marked). */
export interface FilledUri {
  readonly uri: string;
  readonly shown: string;
}

/** A filled URI, or why the values cannot fill it. */
export type ExpandResult = ({ readonly ok: true } & FilledUri) | { readonly ok: false; readonly reason: string };

/**
 * Fills a URI template as RFC 6570 says (values are encoded), then checks that the URI, once
 * normalized as a URL, still matches the template with exactly these values. A value that would
 * still change the URI's structure (`.` or `..` as a whole segment, which URL parsing collapses) is
 * refused rather than read from the wrong place. `shown` are the same values with the client's
 * own marked (see `Redactor.client`): the URI and the reasons the trace shows are filled with them.
 */
export function expandUri(
  uri: PlannedUri,
  values: Readonly<Record<string, string>>,
  shown?: Readonly<Record<string, string>>,
): ExpandResult {
  if (!uri.parsed) return { ok: true, uri: uri.template, shown: uri.template };
  let normalized: string;
  let matched: UriVariables | null;
  try {
    // The SDK refuses values and URIs beyond its size limits by throwing; that value cannot fill the URI.
    normalized = new URL(uri.parsed.expand(values)).toString();
    matched = uri.parsed.match(normalized);
  } catch (error) {
    return {
      ok: false,
      reason: `the values for ${uri.variables.map((name) => `{${name}}`).join(', ')} cannot fill '${uri.template}': ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const decoded = matched ? decodeVariables(matched) : undefined;
  for (const name of uri.variables) {
    if (decoded?.[name] !== values[name]) {
      return {
        ok: false,
        reason: `the value ${JSON.stringify((shown ?? values)[name])} for {${name}} cannot be placed in '${uri.template}' without changing the URI's structure`,
      };
    }
  }
  return { ok: true, uri: normalized, shown: shown ? shownUri(uri.parsed, shown, uri.template) : normalized };
}

/** The URI filled with marked values, normalized as the real one is (percent-encoded marks stay marks); the template if that fails. */
function shownUri(parsed: ExpandableUriTemplate, shown: Readonly<Record<string, string>>, template: string): string {
  try {
    return new URL(parsed.expand(shown)).toString();
  } catch {
    return template;
  }
}
