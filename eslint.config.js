// Lint: typescript-eslint's recommended rules plus the import boundaries of docs/server.md.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const SERVER = 'packages/server/src';
const DOMAINS = `${SERVER}/domains`;
const domains = readdirSync(DOMAINS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

/** A domain reaches another domain only through that domain's index.ts. */
const domainZones = domains.map((name) => ({
  target: `${DOMAINS}/${name}`,
  from: DOMAINS,
  except: [`./${name}`, ...domains.filter((other) => other !== name).map((other) => `./${other}/index.ts`)],
  message: 'import another domain through its index.ts only',
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/build/**', '**/coverage/**'] },
  {
    files: ['packages/*/src/**/*.{ts,tsx}', 'packages/*/test/**/*.{ts,tsx}', 'apps/*/src/**/*.{ts,tsx}', 'e2e/**/*.ts', 'bench/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      // TypeScript checks these itself (tsc --noEmit runs in npm test).
      'no-undef': 'off',
      'no-redeclare': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', {
        zones: [
          ...domainZones,
          { target: `${SERVER}/storage`, from: [`${SERVER}/http`, DOMAINS], message: 'storage knows no HTTP and no business' },
          { target: `${SERVER}/http`, from: `${DOMAINS}/**/store*.ts`, message: 'http/ goes through services, never a store' },
        ],
      }],
    },
  },
  {
    // The SDK ships to browsers: type-only imports of the server are fine, runtime ones are not.
    files: ['packages/sdk/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/server/**', '@vitrine/server', '@vitrine/server/**'], allowTypeImports: true, message: 'the SDK imports the server for types only' }],
      }],
    },
  },
  {
    // The storefront routes with src/router (React Router's data router was a quarter of its first load).
    files: ['apps/storefront/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'react-router', message: 'the storefront uses its own router: import from src/router' }] }],
    },
  },
  {
    // Only storage/ may look at the database dialect; domains call its helpers.
    files: [`${DOMAINS}/**/*.ts`],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(postgres|sqlite)$/]",
        message: 'dialect differences belong in packages/server/src/storage helpers',
      }],
    },
  },
);
