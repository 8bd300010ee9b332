import { ValidationError, type FieldViolation } from '../../http/errors.js';
import type { RichContent } from '@vitrine/types/members';
import { RICH_TEXT_LIMITS } from './limits.js';

/**
 * Member-about content is a rich-text node tree `{nodes: [{type, id?, nodes?, <type>Data?, style?}], metadata?,
 * documentStyle?}`. We store and return it as given, after checking its node types against the list of the
 * public rich-content format and its size against RICH_TEXT_LIMITS.
 */
export const RICH_NODE_TYPES = [
  'PARAGRAPH', 'TEXT', 'HEADING', 'BULLETED_LIST', 'ORDERED_LIST', 'LIST_ITEM', 'BLOCKQUOTE', 'CODE_BLOCK', 'VIDEO',
  'DIVIDER', 'FILE', 'GALLERY', 'GIF', 'HTML', 'IMAGE', 'LINK_PREVIEW', 'MAP', 'POLL', 'APP_EMBED', 'BUTTON',
  'COLLAPSIBLE_LIST', 'TABLE', 'EMBED', 'COLLAPSIBLE_ITEM', 'COLLAPSIBLE_ITEM_TITLE', 'COLLAPSIBLE_ITEM_BODY',
  'TABLE_CELL', 'TABLE_ROW', 'EXTERNAL', 'AUDIO', 'CAPTION', 'LAYOUT', 'LAYOUT_CELL', 'SHAPE', 'CARD', 'TOC',
  'SMART_BLOCK', 'SMART_BLOCK_CELL', 'CHECKBOX_LIST',
] as const;
const NODE_TYPES = new Set<string>(RICH_NODE_TYPES);
const TOP_KEYS = new Set(['nodes', 'metadata', 'documentStyle']);

/** The wire shape; validateRichContent below is what makes a stored document one. */
export type { RichContent } from '@vitrine/types/members';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks a rich-content document; `field` names it in violations (e.g. `memberAbout.content`). */
export function validateRichContent(content: unknown, field: string): RichContent {
  const problems: FieldViolation[] = [];
  const fail = (f: string, description: string, violatedRule: FieldViolation['violatedRule'], data: Record<string, unknown> = {}) => {
    if (problems.length < RICH_TEXT_LIMITS.maxViolations) problems.push({ field: f, description, violatedRule, data });
  };
  if (!isObject(content)) throw new ValidationError([{ field, description: 'must be a rich-content object', violatedRule: 'FORMAT', data: {} }]);
  for (const key of Object.keys(content)) if (!TOP_KEYS.has(key)) fail(`${field}.${key}`, 'is not allowed', 'FIELD_NOT_ALLOWED');
  if (Buffer.byteLength(JSON.stringify(content)) > RICH_TEXT_LIMITS.maxBytes) {
    throw new ValidationError([{ field, description: `must be at most ${RICH_TEXT_LIMITS.maxBytes} bytes`, violatedRule: 'MAX', data: { max: RICH_TEXT_LIMITS.maxBytes } }]);
  }
  let count = 0;
  const walk = (nodes: unknown, path: string, depth: number) => {
    if (nodes === undefined) return;
    if (!Array.isArray(nodes)) return fail(path, 'must be an array of nodes', 'FORMAT');
    if (depth > RICH_TEXT_LIMITS.maxDepth) return fail(path, `must be nested at most ${RICH_TEXT_LIMITS.maxDepth} levels`, 'MAX', { max: RICH_TEXT_LIMITS.maxDepth });
    nodes.forEach((node, i) => {
      const at = `${path}[${i}]`;
      count += 1;
      if (count === RICH_TEXT_LIMITS.maxNodes + 1) fail(field, `must have at most ${RICH_TEXT_LIMITS.maxNodes} nodes`, 'MAX_SIZE', { max: RICH_TEXT_LIMITS.maxNodes });
      if (!isObject(node)) return fail(at, 'must be a node object', 'FORMAT');
      if (typeof node.type !== 'string') return fail(`${at}.type`, 'is required', 'REQUIRED_FIELD');
      if (!NODE_TYPES.has(node.type)) return fail(`${at}.type`, `must be a rich-content node type`, 'INVALID_ENUM_VALUE', { value: node.type });
      if (node.id !== undefined && (typeof node.id !== 'string' || node.id.length > RICH_TEXT_LIMITS.maxNodeId)) fail(`${at}.id`, `must be text of at most ${RICH_TEXT_LIMITS.maxNodeId} characters`, 'FORMAT');
      if (node.type === 'TEXT') {
        const data = node.textData;
        if (!isObject(data) || typeof data.text !== 'string') fail(`${at}.textData.text`, 'is required', 'REQUIRED_FIELD');
        else if (data.text.length > RICH_TEXT_LIMITS.maxTextLength) fail(`${at}.textData.text`, `must be at most ${RICH_TEXT_LIMITS.maxTextLength} characters`, 'MAX_LENGTH', { max: RICH_TEXT_LIMITS.maxTextLength });
      }
      walk(node.nodes, `${at}.nodes`, depth + 1);
    });
  };
  if (!Array.isArray(content.nodes)) fail(`${field}.nodes`, 'is required', 'REQUIRED_FIELD');
  else walk(content.nodes, `${field}.nodes`, 1);
  if (problems.length > 0) throw new ValidationError(problems);
  return content as unknown as RichContent;
}
