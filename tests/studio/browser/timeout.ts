// jest.config.js loads this before every test file: the studio's browser tests start chromium,
// `mcpflow dev` and a server, and walk the page, so they get a longer timeout than jest's default.
if (/[\\/]tests[\\/]studio[\\/]browser[\\/]/.test(expect.getState().testPath ?? '')) jest.setTimeout(120_000);
