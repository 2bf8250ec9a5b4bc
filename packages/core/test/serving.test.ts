import * as net from 'node:net';
import {
  InvalidServingOptionError,
  MissingServingPackageError,
  SessionPool,
  UnguardedBindingError,
  checkHostHeader,
  checkOriginHeader,
  isLoopbackHost,
  loadServingPackage,
  resolveHttpServingOptions,
} from '../src/adapter-kit/serving';
import { describeServingFailure } from '../src/adapter-kit/serving/failure-report';
import { InvalidServerOptionError } from '../src/engine';
import { UnknownBindingError, UnregisteredToolError, WorkflowValidationError } from '../src/rules';
import { WorkflowServer as WorkflowServerV2, serveHttp as serveHttpV2 } from '../src/v2';

function closable() {
  return {
    closed: 0,
    async close() {
      this.closed++;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SessionPool', () => {
  const limits = {
    maxSessions: 2,
    idleTimeoutMs: 40,
    onerror: (error: Error) => {
      throw error;
    },
  };

  test('counts sessions being created against the cap, and gives back a released reservation', () => {
    const pool = new SessionPool(limits);
    expect(pool.reserve()).toBe(true);
    expect(pool.reserve()).toBe(true);
    expect(pool.reserve()).toBe(false);
    pool.release();
    expect(pool.size).toBe(1);
    expect(pool.reserve()).toBe(true);
  });

  test('closes and forgets a session idle for idleTimeoutMs', async () => {
    const pool = new SessionPool(limits);
    const session = closable();
    pool.reserve();
    pool.admit('a', session);
    expect(pool.get('a')).toBe(session);
    await sleep(120);
    expect(session.closed).toBe(1);
    expect(pool.get('a')).toBeUndefined();
    expect(pool.size).toBe(0);
  });

  test('never closes a session while one of its requests is in progress; idles from its end', async () => {
    const pool = new SessionPool(limits);
    const session = closable();
    pool.reserve();
    pool.admit('a', session);
    const end = pool.track('a');
    await sleep(120);
    expect(session.closed).toBe(0);
    end();
    end(); // ending twice counts once
    await sleep(120);
    expect(session.closed).toBe(1);
  });

  test('a forgotten session is not closed by the pool again', async () => {
    const pool = new SessionPool(limits);
    const session = closable();
    pool.reserve();
    pool.admit('a', session);
    pool.forget('a');
    await sleep(120);
    expect(session.closed).toBe(0);
    expect(pool.size).toBe(0);
  });

  test('closeAll closes every session and reports a failing close without stopping', async () => {
    const reported: Error[] = [];
    const pool = new SessionPool({ ...limits, idleTimeoutMs: 60_000, onerror: (error) => reported.push(error) });
    const good = closable();
    pool.reserve();
    pool.admit('good', good);
    pool.reserve();
    pool.admit('bad', { close: () => Promise.reject(new Error('stuck')) });
    await pool.closeAll();
    expect(good.closed).toBe(1);
    expect(reported.map((error) => error.message)).toEqual(['stuck']);
    expect(pool.size).toBe(0);
  });
});

describe('Host and Origin checks', () => {
  const local = ['localhost', '127.0.0.1', '[::1]'];
  test.each([
    ['127.0.0.1:3000', true],
    ['localhost', true],
    ['[::1]:8080', true],
    ['attacker.example:3000', false],
    ['127.0.0.1.nip.io', false],
    ['localhost.attacker.example', false],
    [undefined, false],
    ['', false],
    ['bad host', false],
  ])('Host %p → %p', (host, ok) => {
    expect(checkHostHeader(host, local).ok).toBe(ok);
  });

  test.each([
    ['evil.example@localhost', 400, 'Invalid Host header: evil.example@localhost is not a host name and port'],
    ['user:pass@127.0.0.1:3000', 400, 'Invalid Host header: user:pass@127.0.0.1:3000 is not a host name and port'],
    ['localhost/admin', 400, 'Invalid Host header: localhost/admin is not a host name and port'],
    ['localhost:3000#x', 400, 'Invalid Host header: localhost:3000#x is not a host name and port'],
    ['localhost:99999', 400, 'Invalid Host header: localhost:99999 is not a host name and port'],
    ['attacker.example', 403, 'Invalid Host: attacker.example is not served here'],
  ])('Host %p is refused with %p: malformed (400) or foreign (403)', (host, status, message) => {
    expect(checkHostHeader(host, local)).toEqual({ ok: false, status, message });
  });

  test.each([
    [undefined, true],
    ['http://localhost:5173', true],
    ['http://127.0.0.1', true],
    ['https://attacker.example', false],
    ['null', false],
    ['http://localhost.attacker.example', false],
    ['http://evil.example@localhost', false],
  ])('Origin %p → %p', (origin, ok) => {
    expect(checkOriginHeader(origin, local).ok).toBe(ok);
  });

  test.each([
    [undefined, true],
    ['http://localhost:5173', true],
    ['http://localhost', true],
    ['http://127.0.0.1:8080', true],
    ['http://[::1]:3000', true],
    ['https://localhost:5173', false],
    ['https://[::1]', false],
    ['ws://127.0.0.1:5173', false],
    ['http://evil.localhost.example', false],
    ['http://127.0.0.2:5173', false],
    ['null', false],
    ['https://attacker.example', false],
  ])('by default (a loopback binding), Origin %p → %p: http on any port, scheme and host exact', (origin, ok) => {
    expect(checkOriginHeader(origin, resolveHttpServingOptions().allowedOrigins).ok).toBe(ok);
  });
});

describe('serving options', () => {
  test('default to a local, bounded endpoint', () => {
    expect(resolveHttpServingOptions()).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      path: '/mcp',
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      allowedOrigins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'],
      maxSessions: 100,
      sessionIdleTimeoutMs: 600_000,
      maxRequestBodySize: 4 * 1024 * 1024,
      requestTimeoutMs: 30_000,
    });
  });

  test('a binding beyond loopback needs allowedHosts, and its origins default to them', () => {
    expect(() => resolveHttpServingOptions({ host: '0.0.0.0' })).toThrow(UnguardedBindingError);
    expect(resolveHttpServingOptions({ host: '0.0.0.0', allowedHosts: ['mcp.example.com'] }).allowedOrigins).toEqual(['mcp.example.com']);
  });

  test.each([
    [{ maxSessions: 0 }, /maxSessions: 0.*positive integer/],
    [{ sessionIdleTimeoutMs: -1 }, /sessionIdleTimeoutMs/],
    [{ maxRequestBodySize: 1.5 }, /maxRequestBodySize/],
    [{ port: 70000 }, /port: 70000/],
    [{ path: 'mcp' }, /path: "mcp".*starting with '\/'/],
    [{ allowedHosts: [] }, /allowedHosts/],
  ])('refuses %p', (options, message) => {
    expect(() => resolveHttpServingOptions(options)).toThrow(InvalidServingOptionError);
    expect(() => resolveHttpServingOptions(options)).toThrow(message);
  });

  test.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['0.0.0.0', false],
    ['192.168.1.10', false],
    ['::', false],
  ])('isLoopbackHost(%p) → %p', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('loadServingPackage', () => {
  test('names the missing optional package and how to install it', async () => {
    const missing = Object.assign(new Error("Cannot find module '@modelcontextprotocol/node'"), { code: 'MODULE_NOT_FOUND' });
    const loading = loadServingPackage('serveHttp on SDK 2.x', () => Promise.reject(missing), '@modelcontextprotocol/node');
    await expect(loading).rejects.toThrow(MissingServingPackageError);
    await expect(loading).rejects.toThrow(
      'serveHttp on SDK 2.x needs @modelcontextprotocol/node, which is not installed. Fix: npm install @modelcontextprotocol/node',
    );
  });

  test('an ES-module project: the package missing (ERR_MODULE_NOT_FOUND) is the same error', async () => {
    const missing = Object.assign(
      new Error("Cannot find package '@modelcontextprotocol/node' imported from /app/node_modules/@mcpflow/core/dist/esm/v2/serve.js"),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    );
    const loading = loadServingPackage('serveHttp on SDK 2.x', () => Promise.reject(missing), '@modelcontextprotocol/node');
    await expect(loading).rejects.toThrow(MissingServingPackageError);
    await expect(loading).rejects.toMatchObject({ packageName: '@modelcontextprotocol/node', cause: missing });
  });

  test('a file missing inside the installed package is not taken for the package missing', async () => {
    const inside = Object.assign(new Error("Cannot find module '/app/node_modules/@modelcontextprotocol/node/dist/index.mjs'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadServingPackage('serveHttp', () => Promise.reject(inside), '@modelcontextprotocol/node')).rejects.toBe(inside);
  });

  test('passes any other failure through unchanged', async () => {
    const broken = new TypeError('boom');
    await expect(loadServingPackage('serveHttp', () => Promise.reject(broken), '@modelcontextprotocol/node')).rejects.toBe(broken);
  });
});

describe('describeServingFailure', () => {
  const unregistered = new UnregisteredToolError('report', 'fetch', 'get_sales', ['get_costs']);

  test('a broken workflow: its class and code, then its message (workflow, step, fix); no stack', () => {
    expect(describeServingFailure(unregistered)).toBe(
      "UnregisteredToolError 91016: Workflow 'report', step 'fetch': calls tool 'get_sales', which this server has not registered. " +
        "Registered tools: 'get_costs'. Fix: register it with server.registerTool('get_sales', …) before connecting, or call a registered tool.",
    );
  });

  test('several broken workflows: each on its own line, with its code', () => {
    const unknown = new UnknownBindingError('summary', 'total', 'sales', [], { kind: 'binding', step: 'total', binding: 'sales' });
    const described = describeServingFailure(new WorkflowValidationError([unregistered, unknown]));
    expect(described.split('\n')).toEqual([
      '2 workflow definition errors:',
      `  - ${describeServingFailure(unregistered)}`,
      expect.stringMatching(/^ {2}- UnknownBindingError 91001: Workflow 'summary', step 'total': reads binding 'sales'.* Fix: /),
    ]);
  });

  test("an option out of range: mcpflow's own message, which says what to pass; no stack", () => {
    expect(describeServingFailure(new InvalidServerOptionError('maxTraceBytes', 'must be at least 4096 (got 10).'))).toBe(
      'InvalidServerOptionError: WorkflowServer option maxTraceBytes must be at least 4096 (got 10).',
    );
  });

  test('anything else, maybe a bug in the factory: its stack; a thrown non-error as text', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'use')");
    expect(describeServingFailure(bug)).toBe(bug.stack);
    expect(describeServingFailure('no database')).toBe('no database');
  });
});

describe('serveHttp: whatever stops the start is reported once through onerror, then rejects', () => {
  const factory = () => new WorkflowServerV2({ name: 'start', version: '1.0.0' });

  test('an option out of range', async () => {
    const reported: Error[] = [];
    const started = serveHttpV2(factory, { port: 70000, onerror: (error) => reported.push(error) });
    await expect(started).rejects.toThrow(InvalidServingOptionError);
    expect(reported).toEqual([expect.any(InvalidServingOptionError)]);
    expect(reported[0].message).toMatch(/port: 70000/);
  });

  test('a port another server holds', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const reported: Error[] = [];
    try {
      const port = (holder.address() as net.AddressInfo).port;
      await expect(serveHttpV2(factory, { port, onerror: (error) => reported.push(error) })).rejects.toThrow(/EADDRINUSE/);
      expect(reported).toHaveLength(1);
      expect(reported[0].message).toMatch(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
