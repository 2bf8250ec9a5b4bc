import { isPromiseLike } from '../src/util/is-promise-like';

describe('isPromiseLike', () => {
  test.each([
    ['a native promise', Promise.resolve(1), true],
    ["another library's thenable", { then: (resolve: (value: number) => void) => resolve(1) }, true],
    ['a tool result', { content: [] }, false],
    ['an object whose then is not a function', { then: 'later' }, false],
    ['null', null, false],
    ['undefined', undefined, false],
    ['a string', 'then', false],
  ])('%s', (_name, value: unknown, expected) => {
    expect(isPromiseLike(value)).toBe(expected);
  });
});
