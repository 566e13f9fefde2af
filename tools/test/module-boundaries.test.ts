import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import moduleBoundaries from '../eslint/module-boundaries.mjs';

// The two layering rules `npm run lint` enforces (issue 26), run on a small tree of real files:
// the rules read the imported files from disk to follow a cycle.
let root: string;
const file = (relative: string, text: string) => {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
};

function lint(filename: string, text: string) {
  const linter = new Linter({ configType: 'flat', cwd: root });
  return linter.verify(
    text,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { modules: moduleBoundaries },
        rules: { 'modules/no-cycle': 'error', 'modules/through-index': 'error' },
      },
    ],
    filename,
  );
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'module-boundaries-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('modules/through-index', () => {
  it('refuses an import that reaches inside another module, and allows its index', () => {
    file('svc/src/modules/ledger/journals.ts', 'export const journal = 1;\n');
    file('svc/src/modules/ledger/index.ts', "export { journal } from './journals.js';\n");
    const deep = "import { journal } from '../ledger/journals.js';\nexport const a = journal;\n";
    const viaIndex = "import { journal } from '../ledger/index.js';\nexport const a = journal;\n";
    const sales = file('svc/src/modules/sales/sale.ts', deep);

    expect(lint(sales, deep).map((message) => message.ruleId)).toEqual(['modules/through-index']);
    expect(lint(sales, viaIndex)).toEqual([]);
  });

  it('lets a module import its own files and the app import a module through its index', () => {
    const own = "import { journal } from './journals.js';\nexport const b = journal;\n";
    expect(lint(file('svc/src/modules/ledger/post.ts', own), own)).toEqual([]);
    const app = "import { journal } from './modules/ledger/index.js';\nexport const c = journal;\n";
    expect(lint(file('svc/src/app.ts', app), app)).toEqual([]);
    const appDeep =
      "import { journal } from './modules/ledger/journals.js';\nexport const c = 1;\n";
    expect(lint(file('svc/src/app.ts', appDeep), appDeep)).toHaveLength(1);
  });
});

describe('modules/no-cycle', () => {
  it('finds a circle closed by a type-only import', () => {
    file('lib/src/b.ts', "import type { A } from './a.js';\nexport type B = A[];\n");
    const a = "import type { B } from './b.js';\nexport type A = { b?: B };\n";
    const messages = lint(file('lib/src/a.ts', a), a);
    expect(messages.map((message) => message.ruleId)).toEqual(['modules/no-cycle']);
    expect(messages[0]!.message).toContain('lib/src/a.ts → ');
  });

  it('passes a chain that does not come back', () => {
    file('lib/src/d.ts', 'export const d = 1;\n');
    file('lib/src/c.ts', "import { d } from './d.js';\nexport const c = d;\n");
    const e = "import { c } from './c.js';\nexport const e = c;\n";
    expect(lint(file('lib/src/e.ts', e), e)).toEqual([]);
  });
});
