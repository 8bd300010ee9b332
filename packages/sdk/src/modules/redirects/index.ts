/**
 * `@vitrine/sdk/redirects`. Not built yet: redirects (auth engineer).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export {};
