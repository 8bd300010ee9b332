/**
 * `@vitrine/sdk/members`.
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export * as members from './members.js';
export * as membersAbout from './membersAbout.js';
export * as reports from './reports.js';
