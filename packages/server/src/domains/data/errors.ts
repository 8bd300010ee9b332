import { ApplicationError } from '../../http/errors.js';

/**
 * The data domain's application errors, with the WDE codes the public client interprets (spec section 8)
 * and descriptions in the client's own words where it has them.
 */
const wde = (status: 400 | 403 | 404 | 409 | 413, code: string, description: string, data: Record<string, unknown> = {}) => new ApplicationError(status, code, description, data);

export const collectionIdNotString = () => wde(400, 'WDE0001', 'Collection name must be a string.');
export const itemIdNotString = () => wde(400, 'WDE0002', 'ItemId must be a string.');
export const fieldNameNotString = () => wde(400, 'WDE0003', 'FieldName must be a string.');
export const itemNotObject = (collectionId: string) => wde(400, 'WDE0004', `Failed to save item into [${collectionId}]. Items must be JavaScript objects.`);
export const bulkItemsInvalid = (collectionId: string) => wde(400, 'WDE0005', `Failed to bulk save items into [${collectionId}]. Items must be an array of JavaScript objects and itemIds must be strings if present.`);
export const tooManyItems = (collectionId: string, max: number) => wde(400, 'WDE0006', `Failed to bulk save items into [${collectionId}]. Cannot insert more than ${max} items in one request`, { max });
export const updateWithoutId = () => wde(400, 'WDE0007', 'Invalid update. Updated object must have a string _id property.');
export const optionsInvalid = (option: string) => wde(400, 'WDE0018', `Options must be an object with boolean properties; "${option}" is not valid.`, { option });
export const notMultiReference = (field: string) => wde(400, 'WDE0020', `Provided property [${field}] is not a multi-reference field.`, { field });
export const collectionNotFound = (collectionId: string) => wde(404, 'WDE0025', `The ${collectionId} collection does not exist. You cannot work with a collection that does not exist in the Data Manager.`, { collectionId });
export const permissionDenied = (action: string, collectionId: string) => wde(403, 'WDE0027', `The current user does not have permissions to ${action} on the ${collectionId} collection.`, { action, collectionId });
export const itemIdsNotStrings = () => wde(400, 'WDE0068', 'Item ids must be an array of strings');
export const tooManyIdsToRemove = (collectionId: string, max: number) => wde(400, 'WDE0069', `Failed to remove items from [${collectionId}]. Cannot remove more than ${max} items in one request`, { max });
export const regexNotAllowed = () => wde(400, 'WDE0070', '$regex keyword is not allowed.');
export const itemNotFound = (id: string, collectionId: string) => wde(404, 'WDE0073', `Item [${id}] does not exist in collection [${collectionId}].`, { itemId: id, collectionId });
export const itemExists = (id: string, collectionId: string) => wde(409, 'WDE0074', `Item [${id}] already exists in collection [${collectionId}].`, { itemId: id, collectionId });
export const itemNotDraft = (id: string, collectionId: string) => wde(409, 'ITEM_NOT_DRAFT', `Item [${id}] of collection [${collectionId}] is not a draft.`, { itemId: id, collectionId });
export const itemAlreadyDraft = (id: string, collectionId: string) => wde(409, 'ITEM_ALREADY_DRAFT', `Item [${id}] of collection [${collectionId}] is already a draft.`, { itemId: id, collectionId });
export const skipWithCursor = () => wde(400, 'WDE0080', 'Skip is not supported in cursor paging.');
export const payloadTooLarge = (limit: number) => wde(413, 'WDE0109', `Payload is too large: an item may hold at most ${limit} bytes.`, { limit });
export const uniqueViolation = (collectionId: string) => wde(409, 'UNIQUE_INDEX_VIOLATION', `The item conflicts with a unique index of collection [${collectionId}].`, { collectionId });
export const collectionExists = (collectionId: string) => wde(409, 'COLLECTION_ALREADY_EXISTS', `Collection ${collectionId} already exists.`, { collectionId });
export const revisionMismatch = (collectionId: string) => wde(409, 'REVISION_MISMATCH', `Collection ${collectionId} was changed by someone else; send its latest revision.`, { collectionId });
export const notSupported = (what: string) => new ApplicationError(400, 'NOT_SUPPORTED', `${what} is not supported by this server.`);
export const badCursor = () => wde(400, 'INVALID_CURSOR', 'The cursor is invalid, expired or belongs to another query.');
