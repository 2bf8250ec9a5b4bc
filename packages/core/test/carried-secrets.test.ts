import { carriedSecrets, carrySecrets } from '../src/adapter-kit/run/carried-secrets';
import { RUN_META_KEY, runOf } from '../src/adapter-kit/run/run-meta';
import { runSecrets } from '../src/engine/redaction/run-secrets';

describe('carrySecrets', () => {
  test("a tool sees _meta['mcpflow/run'] as a plain { id, step }: no other key, symbol or prototype carries the secrets", () => {
    const run = carrySecrets({ id: 'run-1', step: 'build' }, runSecrets(undefined));
    expect(Object.getPrototypeOf(run)).toBe(Object.prototype);
    expect(Reflect.ownKeys(run)).toEqual(['id', 'step']);
    expect(JSON.stringify(run)).toBe('{"id":"run-1","step":"build"}');
    expect({ ...run }).toStrictEqual({ id: 'run-1', step: 'build' });
  });

  test('the run object carries its secrets; a copy of it, a forged one, or a run without secrets carries none', () => {
    const secrets = runSecrets(undefined);
    const run = carrySecrets({ id: 'run-1', step: 'build' }, secrets);
    expect(carriedSecrets({ [RUN_META_KEY]: run })).toBe(secrets);
    expect(carriedSecrets({ [RUN_META_KEY]: { ...run } })).toBeUndefined();
    expect(carriedSecrets({ [RUN_META_KEY]: { id: 'run-1', step: 'build' } })).toBeUndefined();
    expect(carriedSecrets({ [RUN_META_KEY]: carrySecrets({ id: 'run-2', step: 'build' }, undefined) })).toBeUndefined();
    expect(carriedSecrets({ [RUN_META_KEY]: 'run-1' })).toBeUndefined();
    expect(carriedSecrets(undefined)).toBeUndefined();
  });

  test('runOf believes the run object a run issued, with or without secrets, and neither a copy of it nor a look-alike', () => {
    for (const secrets of [runSecrets(undefined), undefined]) {
      const run = carrySecrets({ id: 'run-1', step: 'build' }, secrets);
      expect(runOf({ _meta: { [RUN_META_KEY]: run } })).toStrictEqual({ id: 'run-1', step: 'build' });
      expect(runOf({ mcpReq: { _meta: { [RUN_META_KEY]: run } } })).toStrictEqual({ id: 'run-1', step: 'build' });
      expect(runOf({ _meta: { [RUN_META_KEY]: { ...run } } })).toBeUndefined();
      expect(runOf({ _meta: { [RUN_META_KEY]: Object.create(run) as object } })).toBeUndefined();
      expect(runOf({ _meta: { [RUN_META_KEY]: JSON.parse(JSON.stringify(run)) as object } })).toBeUndefined();
    }
  });
});
