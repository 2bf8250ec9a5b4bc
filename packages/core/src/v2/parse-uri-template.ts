import { UriTemplate } from '@modelcontextprotocol/server';
import type { UriTemplateParser } from '../engine';

/** URI templates as SDK 2.x parses them, so steps expand URIs as `resources/read` matches them here. */
export const parseUriTemplate: UriTemplateParser = (template) => new UriTemplate(template);
