// `node bench/profile-summary.mjs <file.cpuprofile> [top]`: where a process spent its CPU,
// by function (self time) and by package — what `npm run bench -- --profile DIR` recorded.
import { readFile } from 'node:fs/promises';

const [file, top = '25'] = process.argv.slice(2);
const profile = JSON.parse(await readFile(file, 'utf8'));
const self = new Map(profile.nodes.map((node) => [node.id, 0]));
const deltas = profile.timeDeltas;
profile.samples.forEach((id, index) => self.set(id, self.get(id) + (deltas[index] ?? 0)));
const total = [...self.values()].reduce((sum, value) => sum + value, 0);
const byFunction = new Map();
const byPackage = new Map();
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const time = self.get(node.id);
  const where = url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  const pkg = url.includes('node_modules/')
    ? url
        .split('node_modules/')
        .pop()
        .split('/')
        .slice(0, url.includes('node_modules/@') ? 2 : 1)
        .join('/')
    : url.startsWith('node:') || !url
      ? functionName.startsWith('(')
        ? functionName
        : 'node internals'
      : 'lockdrop';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time);
}
const show = (map) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top))
    .map(([key, time]) => `${((time / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n');
console.log(
  `total ${(total / 1e6).toFixed(1)} s sampled\n\nby package:\n${show(byPackage)}\n\nby function (self):\n${show(byFunction)}`,
);
