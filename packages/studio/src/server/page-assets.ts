import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { ApiError } from './api-types';

/** Where `npm run build` writes the page: `dist/page` of the package (this file is in `src/server` or `dist/server`). */
export const DEFAULT_PAGE_DIR = path.join(__dirname, '..', '..', 'dist', 'page');

const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** Whether a path names one of the page's assets. */
export function isPageAsset(pathname: string): boolean {
  return Object.hasOwn(ASSETS, pathname);
}

/**
 * One asset of the built page, its token placeholder (`__MCPFLOW_TOKEN__`) replaced by the token.
 * A page that was not built is a 500 that says how to build it.
 */
export async function pageAsset(dir: string, pathname: string, token: string): Promise<{ body: string; type: string }> {
  const asset = ASSETS[pathname];
  let text: string;
  try {
    text = await readFile(path.join(dir, asset.file), 'utf8');
  } catch {
    throw new ApiError(
      500,
      `The studio page is not built (${path.join(dir, asset.file)} is missing): run npm run build in the mcpflow repository, or reinstall @mcpflow/studio.`,
    );
  }
  return { body: text.replaceAll('__MCPFLOW_TOKEN__', token), type: asset.type };
}
