import { z } from 'zod';
import type {
  BackInStockRequestIdRequest, CountBackInStockRequestsByCatalogReferencesRequest, CreateBackInStockNotificationRequestRequest,
  QueryBackInStockNotificationRequestsRequest, ReportItemsBackInStockRequest,
} from '@vitrine/types/ecom-aftercare';
import { conforms } from '../../../http/conforms.js';
import { emailAddress, identifier } from '../../../http/wire-schemas.js';
import { aftercareQueryInput } from '../abandoned/paging.js';

export const BACK_IN_STOCK_LIMITS = {
  /** Longest e-mail address (RFC 5321 path limit). */
  emailMax: 254,
  /** Characters of the JSON of a catalog reference's options. */
  optionsJsonMax: 2_000,
  itemNameMax: 200,
  itemPriceMax: 50,
  itemUrlMax: 2_000,
  /** Catalog references in one count call, request ids in one report. */
  referencesMax: 100,
  requestIdsMax: 100,
  /** Extra template parameters of a report (accepted, not used by our template). */
  templateParametersMax: 20,
  templateParameterMax: 500,
  /** Requests one client address may create per hour on a site (owners are not bounded). */
  createdPerRequesterPerHour: 20,
} as const;
const L = BACK_IN_STOCK_LIMITS;

const id = identifier(100, 1);

/** One plain address (no separators a mailer would read as a second recipient), kept lower-case. */
const email = z.string().trim().pipe(emailAddress(L.emailMax)).transform((s) => s.toLowerCase());

const options = z.record(z.string(), z.unknown())
  .refine((o) => JSON.stringify(o).length <= L.optionsJsonMax, { message: `must be at most ${L.optionsJsonMax} characters as JSON`, params: { rule: 'MAX_LENGTH' } })
  .refine((o) => o.variantId === undefined || (typeof o.variantId === 'string' && o.variantId.length > 0 && o.variantId.length <= 100), { message: 'variantId must be an id', params: { rule: 'FORMAT' } });

export const catalogReference = z.object({ catalogItemId: id, appId: id, options: options.nullish() });

const itemDetails = z.object({
  name: z.string().max(L.itemNameMax).optional(),
  price: z.string().max(L.itemPriceMax).optional(),
  image: z.object({
    id: z.string().max(L.itemUrlMax), url: z.string().max(L.itemUrlMax).optional(),
    height: z.number().int().min(0).max(100_000).optional(), width: z.number().int().min(0).max(100_000).optional(),
    altText: z.string().max(L.itemNameMax).nullish(),
  }).optional(),
});

export const createRequest = conforms<CreateBackInStockNotificationRequestRequest>()(z.object({
  request: z.object({ catalogReference, email, itemUrl: z.string().max(L.itemUrlMax).nullish() }),
  itemDetails,
}));

export const requestIdRequest = conforms<BackInStockRequestIdRequest>()(z.object({ id }));

export const countRequest = conforms<CountBackInStockRequestsByCatalogReferencesRequest>()(z.object({
  catalogReferences: z.array(catalogReference).min(1).max(L.referencesMax),
}));

export const queryRequest = conforms<QueryBackInStockNotificationRequestsRequest>()(z.object({ query: aftercareQueryInput.optional() }));

export const reportRequest = conforms<ReportItemsBackInStockRequest>()(z.object({
  catalogReference: catalogReference.optional(),
  requestIds: z.array(id).min(1).max(L.requestIdsMax).optional(),
  itemDetails,
  extraAutomationTemplateParameters: z.record(z.string().max(100), z.string().max(L.templateParameterMax))
    .refine((o) => Object.keys(o).length <= L.templateParametersMax, { message: `must have at most ${L.templateParametersMax} entries`, params: { rule: 'MAX_SIZE' } })
    .optional(),
}));
