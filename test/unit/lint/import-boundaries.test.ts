// The import table of eslint/import-boundaries.js as lint sees it: for every room of src/, one
// import it may make and one it may not, linted through the project's own ESLint config.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { importBoundaries } from '../../../eslint/import-boundaries.js';

const RULE_ID = 'cachegate/import-boundaries';
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot, ruleFilter: ({ ruleId }) => ruleId === RULE_ID });

/** A case lints `code` as if it were the file `file` of room `room`. */
interface BoundaryCase {
  readonly room: string;
  readonly file: string;
  readonly code: string;
  /** refused names the messageId and the import the error is about; absent: the import passes. */
  readonly refused?: { readonly messageId: string; readonly about: string };
}

const allowed = (room: string, file: string, code: string): BoundaryCase => ({ room, file, code });
const refused = (room: string, file: string, code: string, messageId: string, about: string): BoundaryCase => ({
  room,
  file,
  code,
  refused: { messageId, about },
});

const cases: readonly BoundaryCase[] = [
  allowed('main', 'src/main.ts', "import { buildApp } from './app.js';"),
  refused('main', 'src/main.ts', "import { Store } from './store/store.js';", 'forbiddenRoom', 'src/store'),
  allowed('app', 'src/app/cache-store.ts', "import { Store } from '../store/store.js';"),
  refused('app', 'src/app.ts', "import { KubeConfig } from '@kubernetes/client-node';", 'reservedPackage', '@kubernetes/client-node'),
  allowed('http', 'src/http/x.ts', "import { ReadModel } from '../read/read-model.js';"),
  refused('http', 'src/http/x.ts', "import { Store } from '../store/store.js';", 'forbiddenRoom', 'src/store'),
  allowed('graphql', 'src/graphql/x.ts', "import { wrap } from '../cachedobjects/wrap-cached-object.js';"),
  refused('graphql', 'src/graphql/x.ts', "import { Store } from '../store/store.js';", 'forbiddenRoom', 'src/store'),
  allowed('auth', 'src/auth/x.ts', "import type { Store } from '../store/store.js';"),
  refused('auth', 'src/auth/x.ts', "import { Store } from '../store/store.js';", 'typesOnly', 'src/store'),
  allowed('read', 'src/read/x.ts', "import { Overlay } from '../overlay/overlay.js';"),
  refused('read', 'src/read/x.ts', "import { Controller } from '../controllers/runtime/controller.js';", 'forbiddenRoom', 'src/controllers/runtime'),
  allowed('write', 'src/write/x.ts', "import { Overlay } from '../overlay/overlay.js';"),
  refused('write', 'src/write/x.ts', "import { ReadModel } from '../read/read-model.js';", 'forbiddenRoom', 'src/read'),
  allowed('controllers/runtime', 'src/controllers/runtime/x.ts', "import { counter } from '../../metrics/counter.js';"),
  refused('controllers/runtime', 'src/controllers/runtime/x.ts', "import { Reflector } from '../../kube/reflector.js';", 'forbiddenRoom', 'src/kube'),
  allowed('controllers/clustercachedresources', 'src/controllers/clustercachedresources/x.ts', "import type { ReplicationSpec } from '../replication/replication-spec.js';"),
  refused('controllers/clustercachedresources', 'src/controllers/clustercachedresources/x.ts', "import { ReplicationController } from '../replication/replication-controller.js';", 'typesOnly', 'src/controllers/replication'),
  allowed('controllers/replication', 'src/controllers/replication/x.ts', "import { Controller } from '../runtime/controller.js';"),
  refused('controllers/replication', 'src/controllers/replication/x.ts', "import { ChildRegistry } from '../clustercachedresources/child-registry.js';", 'forbiddenRoom', 'src/controllers/clustercachedresources'),
  allowed('apiserver', 'src/apiserver/embedded/x.ts', "import { Store } from '../../store/store.js';"),
  refused('apiserver', 'src/apiserver/x.ts', "import { ReadModel } from '../read/read-model.js';", 'forbiddenRoom', 'src/read'),
  allowed('kube', 'src/kube/x.ts', "import { KubeConfig } from '@kubernetes/client-node';"),
  refused('kube', 'src/kube/x.ts', "import { loadConfig } from '../config/load-config.js';", 'typesOnly', 'src/config'),
  allowed('ha', 'src/ha/x.ts', "import { Backend } from '../storage/backend.js';"),
  refused('ha', 'src/ha/x.ts', "import { Store } from '../store/store.js';", 'forbiddenRoom', 'src/store'),
  allowed('store', 'src/store/x.ts', "import { Backend } from '../storage/backend.js';"),
  refused('store', 'src/store/x.ts', "import { Overlay } from '../overlay/overlay.js';", 'forbiddenRoom', 'src/overlay'),
  allowed('storage', 'src/storage/x.ts', "import { compareResourceVersions } from '../apimachinery/resource-version.js';"),
  refused('storage', 'src/storage/x.ts', "import { Store } from '../store/store.js';", 'forbiddenRoom', 'src/store'),
  allowed('overlay', 'src/overlay/x.ts', "import { objectKey } from '../apimachinery/object-meta.js';"),
  refused('overlay', 'src/overlay/x.ts', "import { ReadModel } from '../read/read-model.js';", 'forbiddenRoom', 'src/read'),
  allowed('config', 'src/config/x.ts', "import { AppError } from '../errors.js';"),
  refused('config', 'src/config/x.ts', "import { createMetrics } from '../metrics/metrics.js';", 'forbiddenRoom', 'src/metrics'),
  allowed('cachedobjects', 'src/cachedobjects/x.ts', "import type { Index } from '../store/index.js';"),
  refused('cachedobjects', 'src/cachedobjects/x.ts', "import { Overlay } from '../overlay/overlay.js';", 'forbiddenRoom', 'src/overlay'),
  allowed('metrics', 'src/metrics/x.ts', "import { Registry } from 'prom-client';"),
  refused('metrics', 'src/metrics/x.ts', "import { AppError } from '../errors.js';", 'forbiddenRoom', 'src/errors.ts'),
  allowed('apimachinery', 'src/apimachinery/protobuf/x.ts', "import { AppError } from '../../errors.js';"),
  refused('apimachinery', 'src/apimachinery/x.ts', "import { Principal } from '../auth/principal.js';", 'forbiddenRoom', 'src/auth'),
  allowed('errors', 'src/errors.ts', "import { inspect } from 'node:util';"),
  refused('errors', 'src/errors.ts', "import { statusOf } from './apimachinery/status.js';", 'forbiddenRoom', 'src/apimachinery'),
  allowed('ui', 'src/ui/x.ts', "import { createClient } from 'graphql-ws';"),
  refused('ui', 'src/ui/x.ts', "import { ReadModel } from '../read/read-model.js';", 'forbiddenRoom', 'src/read'),
];

/** Every way a module can name another, and the edges of the table. */
const forms: readonly BoundaryCase[] = [
  refused('graphql', 'src/graphql/x.ts', "import { KubeConfig } from '@kubernetes/client-node';", 'reservedPackage', '@kubernetes/client-node'),
  refused('graphql', 'src/graphql/x.ts', "import type { V1Pod } from '@kubernetes/client-node/dist/gen/models/V1Pod.js';", 'reservedPackage', '@kubernetes/client-node'),
  refused('graphql', 'src/graphql/x.ts', "export const load = () => import('../store/store.js');", 'forbiddenRoom', 'src/store'),
  refused('http', 'src/http/x.ts', "export { Store } from '../store/store.js';", 'forbiddenRoom', 'src/store'),
  refused('http', 'src/http/x.ts', "export * from '../store/store.js';", 'forbiddenRoom', 'src/store'),
  refused('http', 'src/http/x.ts', "export type S = typeof import('../store/store.js');", 'forbiddenRoom', 'src/store'),
  refused('http', 'src/http/x.ts', "import type { Store } from '../store';", 'forbiddenRoom', 'src/store'),
  allowed('auth', 'src/auth/x.ts', "export type S = typeof import('../store/store.js');"),
  allowed('auth', 'src/auth/x.ts', "export type { Store } from '../store/store.js';"),
  // `import { type X }` still loads the module at run time under verbatimModuleSyntax.
  refused('auth', 'src/auth/x.ts', "import { type Store } from '../store/store.js';", 'typesOnly', 'src/store'),
  allowed('apiserver', 'src/apiserver/embedded/x.ts', "import { cacheApi } from '../cache-api/cache-api.js';"),
  refused('read', 'src/read/x.ts', "import { startTestApp } from '../../test/helpers/test-app.js';", 'outsideSrc', '../../test/helpers/test-app.js'),
  refused('read', 'src/read/x.ts', "import { thing } from '../somewhere-new/thing.js';", 'forbiddenRoom', 'src/somewhere-new'),
  refused('unlisted', 'src/somewhere-new/x.ts', 'export const x = 1;', 'unlistedFile', 'src/somewhere-new/x.ts'),
];

async function lintAs(file: string, code: string): Promise<readonly { messageId?: string; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  if (!result) throw new Error(`no lint result for ${file}`);
  return result.messages;
}

function title(n: number, c: BoundaryCase): string {
  const verb = c.refused ? 'may not' : 'may';
  return `case ${n}: ${c.file} ${verb} run \`${c.code}\``;
}

async function expectVerdict(c: BoundaryCase): Promise<void> {
  const messages = await lintAs(c.file, c.code);
  if (!c.refused) {
    expect(messages).toEqual([]);
    return;
  }
  expect(messages.map((m) => m.messageId)).toEqual([c.refused.messageId]);
  expect(messages[0]?.message).toContain(c.refused.about);
}

describe('import boundaries: one allowed and one refused import per room', () => {
  it.each(cases.map((c, i) => [title(i + 1, c), c] as const))('%s', async (_title, c) => {
    await expectVerdict(c);
  });

  it('covers every room of the table both ways', () => {
    const names = importBoundaries.rooms.map((room) => room.name).sort();
    expect([...new Set(cases.filter((c) => !c.refused).map((c) => c.room))].sort()).toEqual(names);
    expect([...new Set(cases.filter((c) => c.refused).map((c) => c.room))].sort()).toEqual(names);
  });
});

describe('import boundaries: every form of import', () => {
  it.each(forms.map((c, i) => [title(cases.length + i + 1, c), c] as const))('%s', async (_title, c) => {
    await expectVerdict(c);
  });
});

describe('import boundaries: the real tree', () => {
  it('lints src/ clean', async () => {
    const results = await eslint.lintFiles(['src']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(repoRoot, r.filePath)}: ${m.message}`));
    expect(problems).toEqual([]);
    expect(results.length).toBeGreaterThan(100);
  });
});
