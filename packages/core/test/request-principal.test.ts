import type { ServerContext } from '@modelcontextprotocol/server';
import { requestPrincipal } from '../src/adapter-kit/run/request-principal';
import { v1Line } from '../src/v1/v1-line';
import type { RequestExtra } from '../src/v1/request-extra';
import { v2Line } from '../src/v2/v2-line';

/**
 * Who sent a request, from what its transport authenticated: the principal tasks are owned by, and
 * the key of per-client quotas (`clientKey`: the session, else the subject, else the client id).
 * Both SDK lines read it by one rule.
 */

const authInfo = { token: 'secret-token', clientId: 'notes-app', scopes: [], extra: { sub: 'ada' } };

describe('requestPrincipal', () => {
  test('the client id, and the subject from the claims: sub, else subject, else userId', () => {
    expect(requestPrincipal(authInfo)).toEqual({ clientId: 'notes-app', subject: 'ada' });
    expect(requestPrincipal({ clientId: 'notes-app', extra: { subject: 'grace' } })).toEqual({ clientId: 'notes-app', subject: 'grace' });
    expect(requestPrincipal({ clientId: 'notes-app', extra: { userId: 'u-7' } })).toEqual({ clientId: 'notes-app', subject: 'u-7' });
  });

  test('a claim of any JSON type is a subject (a numeric user id is a user); nothing authenticated is no principal; the token is never kept', () => {
    expect(requestPrincipal({ clientId: 'notes-app', extra: { sub: 42 } })).toEqual({ clientId: 'notes-app', subject: 42 });
    expect(requestPrincipal({ clientId: 'notes-app', extra: { userId: 7 } })).not.toEqual(
      requestPrincipal({ clientId: 'notes-app', extra: { userId: 8 } }),
    );
    expect(requestPrincipal(undefined)).toBeUndefined();
    expect(JSON.stringify(requestPrincipal(authInfo))).not.toContain('secret-token');
  });
});

// The key names the client with the subject: the same user id under two OAuth clients is two keys.
const SUBJECT_KEY = `subject:${JSON.stringify(['notes-app', 'ada'])}`;

describe('both lines key a request without a session by the subject it authenticated as', () => {
  test('SDK 1.x (its extra.authInfo)', () => {
    const extra = { sessionId: undefined, authInfo } as unknown as RequestExtra;
    expect(v1Line.request.client(extra)).toBe(SUBJECT_KEY);
  });

  test('SDK 2.x (its ctx.http.authInfo)', () => {
    const ctx = { sessionId: undefined, http: { authInfo }, mcpReq: {} } as unknown as ServerContext;
    expect(v2Line.request.client(ctx)).toBe(SUBJECT_KEY);
  });

  test('a session comes first, on both', () => {
    expect(v1Line.request.client({ sessionId: 's-1', authInfo } as unknown as RequestExtra)).toBe('session:s-1');
    expect(v2Line.request.client({ sessionId: 's-1', http: { authInfo }, mcpReq: {} } as unknown as ServerContext)).toBe('session:s-1');
  });
});
