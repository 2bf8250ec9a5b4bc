/** Query parameters whose values read as secrets. */
const SECRET_PARAM = /token|key|secret|password|passwd|auth|sig|session|credential/i;

/**
 * A server URL as the studio prints and shows it: a user name and password, and the values of query
 * parameters named like secrets (`api_key`, `token`…), read `***`.
 *
 * @example
 * ```ts
 * shownUrl('http://me:pw@host:3000/mcp?token=abc&x=1'); // 'http://***:***@host:3000/mcp?token=***&x=1'
 * ```
 */
export function shownUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text.replace(/\/\/[^/@]*@/, '//***@');
  }
  if (url.username) url.username = '***';
  if (url.password) url.password = '***';
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.set(name, '***');
  return url.toString();
}

/** Text with every `http(s)://` URL in it as `shownUrl` shows it (an error message may quote the URL it was given). */
export function withUrlsShown(text: string): string {
  return text.replace(/https?:\/\/[^\s)'"<>]+/g, (url) => shownUrl(url));
}

/**
 * The URL to fetch and the headers to send: a user and password in the URL (`http://me:pw@host/mcp`,
 * which fetch refuses) become an `Authorization: Basic` header, unless the headers name one.
 */
export function withCredentialsAsHeader(
  text: string,
  given: Readonly<Record<string, string>>,
): { url: URL; headers: Record<string, string> } {
  const url = new URL(text);
  const headers = { ...given };
  if (url.username || url.password) {
    const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
    const user = `${decoded(url.username)}:${decoded(url.password)}`;
    if (!hasAuthorization) headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { url, headers };
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
