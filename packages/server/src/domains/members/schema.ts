import { z } from 'zod';
import type { CreateReportInput, ListReportsInput } from '@vitrine/types/members';
import type { CreateMemberInput as WireCreateMemberInput, UpdateMemberInput as WireUpdateMemberInput } from '@vitrine/types/members';
import { conforms } from '../../http/conforms.js';
import { emailAddress, identifier } from '../../http/wire-schemas.js';
import {
  BULK_IDS_MAX, FIELDSETS_MAX, MEMBER_LIMITS as L, MEMBER_PAGE_MAX, REPORT_DETAILS_MAX, REPORT_NOTE_MAX, REPORT_PAGE_MAX,
  SEARCH_EXPRESSION_MAX, SEARCH_FIELDS_MAX, SORT_FIELDS_MAX,
} from './limits.js';
import { CUSTOM_FIELD_TYPES, FIELDSETS, REPORT_REASONS, SOCIAL_NETWORKS } from './model.js';


/** Wire schemas of the members routes. Inputs are strict: an unknown or read-only field is FIELD_NOT_ALLOWED. */

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const guid = z.string().regex(GUID, 'must be a GUID');
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

const text = (max: number) => z.string().max(max);
const email = emailAddress(L.email);


const imageInput = z.strictObject({
  id: text(L.addressField).optional(),
  url: z.string().max(L.url).regex(HTTP_URL, 'must be an http(s) URL').optional(),
  height: z.number().int().min(0).max(L.imageDimension).optional(),
  width: z.number().int().min(0).max(L.imageDimension).optional(),
  offsetX: z.number().int().min(-L.imageDimension).max(L.imageDimension).nullish(),
  offsetY: z.number().int().min(-L.imageDimension).max(L.imageDimension).nullish(),
});

const addressInput = z.strictObject({
  id: guid.optional(),
  streetAddress: z.strictObject({ number: text(L.addressField).optional(), name: text(L.addressLine).optional() }).optional(),
  addressLine: text(L.addressLine).nullish(),
  addressLine2: text(L.addressLine).nullish(),
  city: text(L.addressField).nullish(),
  subdivision: text(L.addressField).nullish(),
  country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO-3166 alpha-2 code').nullish(),
  postalCode: text(L.addressField).nullish(),
}).refine((a) => !(a.streetAddress && a.addressLine), { message: 'takes streetAddress or addressLine, not both', params: { rule: 'ONE_OF_ALIGNMENT' } });

const customFieldInput = z.strictObject({
  name: text(L.customFieldKey).nullish(),
  value: z.union([z.string().max(L.customFieldText), z.number()]).nullish(),
  type: z.enum(CUSTOM_FIELD_TYPES).optional(),
  socialNetwork: z.enum(SOCIAL_NETWORKS).optional(),
}).superRefine((f, ctx) => {
  const type = f.type ?? (typeof f.value === 'number' ? 'NUMBER' : 'TEXT');
  const issue = (message: string, path: string[] = ['value'], rule = 'FORMAT') => ctx.addIssue({ code: 'custom', message, path, params: { rule } });
  if (f.value === undefined || f.value === null) return;
  switch (type) {
    case 'TEXT': if (typeof f.value !== 'string') issue('must be text for a TEXT field'); break;
    case 'NUMBER': if (typeof f.value !== 'number' || !Number.isFinite(f.value)) issue('must be a finite number for a NUMBER field'); break;
    case 'DATE': if (typeof f.value !== 'string' || !DATE_ONLY.test(f.value) || Number.isNaN(Date.parse(f.value))) issue('must be a YYYY-MM-DD date for a DATE field'); break;
    case 'URL': case 'SOCIAL':
      if (typeof f.value !== 'string' || !HTTP_URL.test(f.value)) issue(`must be an http(s) URL for a ${type} field`);
      break;
  }
  if (type === 'SOCIAL' && !f.socialNetwork) issue('is required for a SOCIAL field', ['socialNetwork'], 'REQUIRED_FIELD');
  if (type !== 'SOCIAL' && f.socialNetwork) issue('is only allowed on a SOCIAL field', ['socialNetwork'], 'FIELD_NOT_ALLOWED');
});

const CUSTOM_FIELD_KEY = /^[A-Za-z0-9_.-]{1,100}$/;

export const contactInput = z.strictObject({
  firstName: text(L.name).nullish(),
  lastName: text(L.name).nullish(),
  phones: z.array(z.string().min(1).max(L.phone).regex(/^[+0-9()\-. ]+$/, 'must be a phone number')).max(L.phones).nullish(),
  emails: z.array(email).max(L.emails).nullish(),
  addresses: z.array(addressInput).max(L.addresses).nullish(),
  birthdate: z.string().regex(DATE_ONLY, 'must be a YYYY-MM-DD date').refine((d) => !Number.isNaN(Date.parse(d)), 'must be a real date').nullish(),
  company: text(L.company).nullish(),
  jobTitle: text(L.jobTitle).nullish(),
  customFields: z.record(z.string().regex(CUSTOM_FIELD_KEY, 'must be a key of letters, digits, _ . -'), customFieldInput)
    .refine((r) => Object.keys(r).length <= L.customFields, { message: `takes at most ${L.customFields} fields`, params: { rule: 'MAX_SIZE' } })
    .nullish(),
});

export const profileInput = z.strictObject({
  nickname: text(L.nickname).nullish(),
  slug: identifier(L.slugInput, 1).optional(),
  photo: imageInput.nullish(),
  cover: imageInput.nullish(),
  title: text(L.title).nullish(),
});

export type ContactInput = z.infer<typeof contactInput>;
export type ProfileInput = z.infer<typeof profileInput>;

export const createMemberInput = conforms<WireCreateMemberInput>()(z.strictObject({
  loginEmail: email,
  /** Our extension: owners may create a member waiting for approval. */
  status: z.enum(['PENDING', 'APPROVED']).optional(),
  contact: contactInput.optional(),
  profile: profileInput.optional(),
  privacyStatus: z.enum(['PRIVATE', 'PUBLIC']).optional(),
}));
export type CreateMemberInput = z.infer<typeof createMemberInput>;

/** Update: `id` may repeat the path id; `loginEmail` is immutable and only accepted unchanged. */
export const updateMemberInput = conforms<WireUpdateMemberInput>()(z.strictObject({
  id: guid.optional(),
  loginEmail: email.optional(),
  contact: contactInput.optional(),
  profile: profileInput.optional(),
  privacyStatus: z.enum(['PRIVATE', 'PUBLIC']).optional(),
}));
export type UpdateMemberInput = z.infer<typeof updateMemberInput>;

export const fieldsetsInput = z.array(z.enum(FIELDSETS)).max(FIELDSETS_MAX).optional();

const sortingItem = z.strictObject({ fieldName: z.string().min(1).max(512), order: z.enum(['ASC', 'DESC']).optional() });
/** A GET sends one sort as dotted query fields (an object); a POST sends an array. */
const sortingInput = z.union([z.array(sortingItem).max(SORT_FIELDS_MAX), sortingItem.transform((s) => [s])]).optional();
export const pagingInput = z.strictObject({
  limit: z.number().int().min(1).max(MEMBER_PAGE_MAX).nullish(),
  offset: z.number().int().min(0).max(L.maxOffset).nullish(),
}).optional();

export const SEARCH_FIELDS = ['loginEmail', 'contact.firstName', 'contact.lastName', 'profile.title', 'profile.nickname', 'profile.slug'] as const;
export const searchInput = z.strictObject({
  expression: z.string().min(1).max(SEARCH_EXPRESSION_MAX).nullish(),
  fields: z.array(z.enum(SEARCH_FIELDS)).max(SEARCH_FIELDS_MAX).optional(),
}).optional();
export type SearchInput = z.infer<typeof searchInput>;

const filterInput = z.record(z.string(), z.unknown());

export const idRequest = z.object({ id: guid });
export const getMemberRequest = z.object({ id: guid, fieldsets: fieldsetsInput });
export const getMyMemberRequest = z.object({ fieldsets: fieldsetsInput });
export const listMembersRequest = z.object({ paging: pagingInput, fieldsets: fieldsetsInput, sorting: sortingInput });
export const queryMembersRequest = z.object({
  // `sort` is accepted as another name of `sorting` (the generic query builders send `sort`).
  query: z.strictObject({ filter: filterInput.nullish(), paging: pagingInput, sorting: sortingInput, sort: sortingInput }).optional(),
  fieldsets: fieldsetsInput,
  search: searchInput,
});
export const createMemberRequest = z.object({ member: createMemberInput });
export const updateMemberRequest = z.object({ memberId: guid, member: updateMemberInput });
export const slugRequest = z.object({ slug: identifier(L.slugInput, 1) });
export const memberSlugRequest = z.object({ id: guid, slug: identifier(L.slugInput, 1) });
export const deleteMyMemberRequest = z.object({ contentAssigneeId: guid.optional() });
export const deleteMemberRequest = z.object({ id: guid, contentAssigneeId: guid.optional() });
export const bulkDeleteRequest = z.object({ memberIds: z.array(guid).min(1).max(BULK_IDS_MAX) });
export const byFilterRequest = z.object({ filter: filterInput });
export const deleteByFilterRequest = z.object({ filter: filterInput, contentAssigneeId: guid.nullish(), search: searchInput });
export const jobRequest = z.object({ jobId: guid });

export const createReportRequest = conforms<CreateReportInput>()(z.object({
  memberId: guid,
  reason: z.enum(REPORT_REASONS),
  details: z.string().max(REPORT_DETAILS_MAX).optional(),
}));
export const listReportsRequest = conforms<ListReportsInput>()(z.object({
  status: z.enum(['OPEN', 'RESOLVED']).optional(),
  memberId: guid.optional(),
  paging: z.strictObject({ limit: z.number().int().min(1).max(REPORT_PAGE_MAX).nullish(), offset: z.number().int().min(0).max(L.maxOffset).nullish() }).optional(),
}));
export const resolveReportRequest = z.object({ id: guid, mute: z.boolean().optional(), note: z.string().max(REPORT_NOTE_MAX).optional() });

const anyRecord = z.record(z.string(), z.unknown());
export const memberResponse = z.object({ member: anyRecord });
export const membersPageResponse = z.object({
  members: z.array(anyRecord),
  metadata: z.object({ count: z.number(), offset: z.number(), total: z.number(), tooManyToCount: z.boolean() }),
});
export const jobIdResponse = z.object({ jobId: z.string() });
