/** The values of a URI template's variables; a variable that explodes has several. */
export type UriVariables = Record<string, string | string[]>;

/** An RFC 6570 URI template, parsed once. */
export interface ExpandableUriTemplate {
  /** Fills the template; values are encoded so they never change the URI's structure. */
  expand(values: Readonly<Record<string, string>>): string;
  /** The variables of a URI this template matches (left percent-encoded), or null. */
  match(uri: string): UriVariables | null;
}

/**
 * Parses URI templates. Each adapter passes its SDK's `UriTemplate`, so a step expands a URI exactly
 * as the server it runs on matches `resources/read` against its templates.
 *
 * @example
 * ```ts
 * const parseUriTemplate: UriTemplateParser = (template) => new UriTemplate(template);
 * ```
 */
export type UriTemplateParser = (template: string) => ExpandableUriTemplate;
