// Build 2 of the release workflows of the rolling-deploy test: each `release_<case>` of build 1
// (release-v1.js) changed as its case says.
// - appended: a step `announced` after the question;
// - reworded: only the description, guidance and timeouts changed;
// - inserted: a step `scanned` inserted before `signed`, build 1 not kept;
// - kept: the same insertion, build 1's class kept in `previous`.
const { releaseV1, shipped, step, workflow } = require('./release-v1');

function appended() {
  class ReleaseV2 {}
  step(ReleaseV2, 'built', 'build');
  step(ReleaseV2, 'signed', 'sign');
  shipped(ReleaseV2);
  step(ReleaseV2, 'announced', 'announce');
  return workflow(ReleaseV2, 'release_appended', { version: '2' });
}

function reworded() {
  class ReleaseV2 {}
  step(ReleaseV2, 'built', 'build', { guidance: 'Building {release}.', timeoutMs: 120_000 });
  step(ReleaseV2, 'signed', 'sign', { guidance: 'Signing {release}.', timeoutMs: 90_000 });
  shipped(ReleaseV2, { guidance: 'Shipping {release}.' });
  return workflow(ReleaseV2, 'release_reworded', { version: '2', description: 'Build, sign and ship a release (reworded)' });
}

function inserted(kase, previous) {
  class ReleaseV2 {}
  step(ReleaseV2, 'built', 'build');
  step(ReleaseV2, 'scanned', 'scan');
  step(ReleaseV2, 'signed', 'sign');
  shipped(ReleaseV2);
  return workflow(ReleaseV2, `release_${kase}`, { version: '2', ...(previous && { previous: [previous] }) });
}

const workflows = [appended(), reworded(), inserted('inserted'), inserted('kept', releaseV1('kept'))];

module.exports = { workflows };
