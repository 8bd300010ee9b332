/**
 * `@vitrine/sdk/identity`. Not built yet: authentication, verification, recovery (auth engineer).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export {};
