// Build 1 of the release workflows of the rolling-deploy test (rolling-deploy.test.ts): four
// workflows of the same steps — build, sign, then ask where to ship — one per change the next build
// makes to it (release-v2.js). Plain JavaScript on the built packages, as a deployed build is.
require('reflect-metadata');
const { z } = require('zod');
const { Bind, Step, Workflow, askUser, field, promptArg } = require('@mcpflow/decorators');

/** The cases of the test, each a workflow of its own: `release_<case>`. */
const CASES = ['appended', 'reworded', 'inserted', 'kept'];

/** A step calling `tool` with the release, bound under the step's name. */
function step(target, name, tool, options = {}) {
  Step({ tool, args: { release: promptArg('release') }, ...options })(target.prototype, name);
  Bind(name)(target.prototype, name);
}

/** Where to ship: the question the runs wait at. */
function shipped(target, options = {}) {
  Step({
    tool: 'ship',
    args: { release: promptArg('release'), target: askUser('Ship {release} where?', { choices: field('built', 'targets') }) },
    ...options,
  })(target.prototype, 'shipped');
}

/** `@Workflow` of a release workflow; the prompt face and a task tool. */
function workflow(target, name, options) {
  Workflow({
    name,
    description: 'Build, sign and ship a release',
    arguments: { release: z.string() },
    expose: { tool: { task: 'required' } },
    ...options,
  })(target);
  return target;
}

/** Version 1 of `release_<kase>`. */
function releaseV1(kase) {
  class ReleaseV1 {}
  step(ReleaseV1, 'built', 'build');
  step(ReleaseV1, 'signed', 'sign');
  shipped(ReleaseV1);
  return workflow(ReleaseV1, `release_${kase}`, { version: '1' });
}

const workflows = CASES.map(releaseV1);

module.exports = { CASES, releaseV1, shipped, step, workflow, workflows };
