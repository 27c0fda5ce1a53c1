// Lint rule: a file of src/ may import only what its room's entry in import-boundaries.js allows.
// It resolves each relative import to the room of src/ it lands in, so `../store` and
// `../../store/store.js` are the same import wherever they are written from.
import { builtinModules } from 'node:module';
import path from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { ANY_ROOM, importBoundaries } from './import-boundaries.js';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
const tableFile = 'eslint/import-boundaries.js';
const scriptExtension = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** roomOf finds the room of a path relative to src/ (extension optional), or undefined. */
function roomOf(relativePath) {
  const bare = relativePath.split(path.sep).join('/').replace(scriptExtension, '');
  return importBoundaries.rooms.find((room) =>
    room.paths.some((p) => (p.endsWith('/') ? `${bare}/`.startsWith(p) : bare === p.replace(scriptExtension, ''))),
  );
}

/** insideSrc turns an absolute path into one relative to src/, or undefined when it is outside. */
function insideSrc(absolutePath) {
  const relative = path.relative(srcDir, absolutePath);
  return relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative;
}

/** label names a room in messages the way a reader finds it: src/read, src/main.ts. */
function label(room) {
  return `src/${room.paths[0].replace(/\/$/, '')}`;
}

function labelOfPath(relativePath) {
  const [first, second] = relativePath.split(path.sep);
  return second === undefined || first !== 'controllers' ? `src/${first}` : `src/controllers/${second}`;
}

/** packageName is the npm package a bare specifier names, or undefined for a node builtin. */
function packageName(specifier) {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function describeAllowed(room) {
  if (room.may === ANY_ROOM) return 'anything in src/';
  const names = [...room.may.filter((name) => name !== room.name), ...room.types.map((name) => `${name} (import type)`)];
  return names.length === 0 ? 'nothing from src/' : names.join(', ');
}

/** verdictForRoom decides an import of `target` from `from`: undefined when allowed. */
function verdictForRoom(from, target, typeOnly) {
  if (target === from || from.may === ANY_ROOM || from.may.includes(target.name)) return undefined;
  if (from.types.includes(target.name)) return typeOnly ? undefined : 'typesOnly';
  return 'forbiddenRoom';
}

function checkImport(context, from, node, specifier, typeOnly) {
  const data = { from: label(from), allowed: describeAllowed(from), table: tableFile };
  const report = (messageId, extra) => context.report({ node, messageId, data: { ...data, ...extra } });
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) {
    checkRelative(report, from, path.resolve(path.dirname(context.filename), specifier), specifier, typeOnly);
  } else {
    checkPackage(report, from, packageName(specifier));
  }
}

function checkRelative(report, from, absolutePath, specifier, typeOnly) {
  const relative = insideSrc(absolutePath);
  if (relative === undefined) return report('outsideSrc', { target: specifier });
  const target = roomOf(relative);
  const messageId = target ? verdictForRoom(from, target, typeOnly) : 'forbiddenRoom';
  if (messageId) report(messageId, { target: target ? label(target) : labelOfPath(relative) });
}

function checkPackage(report, from, pkg) {
  const owners = pkg !== undefined && Object.hasOwn(importBoundaries.packages, pkg) ? importBoundaries.packages[pkg] : undefined;
  if (owners && !owners.includes(from.name)) {
    report('reservedPackage', { target: pkg, owners: owners.map((owner) => `src/${owner}`).join(', ') });
  }
}

/** stringValue reads the specifier of a module-naming node, or undefined when it is computed. */
function stringValue(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

/** importBoundariesRule enforces the import table of import-boundaries.js on src/. */
export const importBoundariesRule = {
  meta: {
    type: 'problem',
    docs: { description: `enforce the table of who may import whom in src/ (${tableFile})` },
    schema: [],
    messages: {
      forbiddenRoom: '{{from}} may not import {{target}}; it may import {{allowed}} ({{table}})',
      typesOnly: '{{from}} may import {{target}} only with `import type` / `export type` ({{table}})',
      reservedPackage: 'only {{owners}} may import {{target}} ({{table}})',
      outsideSrc: '{{from}} may not import {{target}}: it is outside src/ ({{table}})',
      unlistedFile: '{{file}} belongs to no room of the import table: add its folder to {{table}}',
    },
  },
  create(context) {
    const relative = insideSrc(context.filename);
    if (relative === undefined) return {};
    const from = roomOf(relative);
    if (!from) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unlistedFile', data: { file: `src/${relative.split(path.sep).join('/')}`, table: tableFile } });
        },
      };
    }
    const check = (node, source, typeOnly) => {
      const specifier = stringValue(source);
      if (specifier !== undefined) checkImport(context, from, node, specifier, typeOnly);
    };
    return {
      // `import { type X }` is not type-only: under verbatimModuleSyntax the module still loads.
      ImportDeclaration: (node) => check(node, node.source, node.importKind === 'type'),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
      TSImportType: (node) => check(node, node.source ?? node.argument?.literal, true),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === 'TSExternalModuleReference' &&
        check(node, node.moduleReference.expression, node.importKind === 'type'),
    };
  },
};
