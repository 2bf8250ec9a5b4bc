import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { UriTemplateParser } from '../engine';

/** URI templates as SDK 1.x parses them, so steps expand URIs as `resources/read` matches them here. */
export const parseUriTemplate: UriTemplateParser = (template) => new UriTemplate(template);
