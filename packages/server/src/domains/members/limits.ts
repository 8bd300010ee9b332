/** Every bound the members domain enforces, in one place (docs/members.md lists them). */
export const MEMBER_LIMITS = {
  nickname: 100,
  name: 100,
  title: 100,
  company: 100,
  jobTitle: 100,
  phone: 50,
  phones: 20,
  emails: 20,
  email: 254,
  addresses: 20,
  addressLine: 200,
  addressField: 100,
  customFields: 50,
  customFieldKey: 100,
  customFieldText: 2_000,
  url: 2_000,
  imageDimension: 100_000,
  /** Offset bound for queries (deeper pages are slow on both dialects). */
  maxOffset: 1_000_000,
  /** The slug limit of updateMySlug; our slugs are further bounded by SLUG_MAX_LENGTH. */
  slugInput: 255,
} as const;

export const MEMBER_PAGE_DEFAULT = 50;
export const MEMBER_PAGE_MAX = 1_000;
/** Above this many matches a query reports `tooManyToCount` and `total` is this bound. */
export const MEMBER_COUNT_CAP = 100_000;
export const SEARCH_EXPRESSION_MAX = 100;
export const SEARCH_FIELDS_MAX = 4;
export const SORT_FIELDS_MAX = 5;
export const FIELDSETS_MAX = 3;
/** memberIds of one bulk delete. */
export const BULK_IDS_MAX = 1_000;
/** Members handled per job transaction by the background worker. */
export const JOB_BATCH_SIZE = 50;
/** Per-item errors kept on a job (the counters keep counting beyond). */
export const JOB_ERRORS_KEPT = 100;
export const REPORT_DETAILS_MAX = 1_000;
export const REPORT_NOTE_MAX = 1_000;
export const REPORT_PAGE_MAX = 100;
export const REPORT_PAGE_DEFAULT = 50;

/** Rich text of member-about: size bounds on the node tree. */
export const RICH_TEXT_LIMITS = {
  maxNodes: 2_000,
  maxDepth: 20,
  maxTextLength: 10_000,
  /** Serialized size of the whole content document. */
  maxBytes: 256 * 1024,
  /** Longest node id. */
  maxNodeId: 100,
  /** Violations reported for one document (the first ones). */
  maxViolations: 20,
} as const;

/** `revision` of member-about is int64 text; 15 digits stay exact in a double. */
export const REVISION_MAX_DIGITS = 15;
