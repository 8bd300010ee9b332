/**
 * `@vitrine/sdk/members`. Not built yet: members (members engineer).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export {};
