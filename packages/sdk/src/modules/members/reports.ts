/**
 * Member reports (`@vitrine/sdk/members` -> `reports`): our extension, the platform has no such API.
 * A member reports another member; owners list the reports and resolve them (optionally muting).
 */
import type * as wire from '@vitrine/types/members';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';
import type { PagingMetadata } from './members.js';

export type ReportReason = wire.ReportReason;
export type ReportStatus = wire.ReportStatus;
/** Dates: the `DATES` paths below. */
export type Report = FromWire<wire.MemberReport, 'createdDate' | 'resolvedDate'>;
export type ListReportsOptions = wire.ListReportsInput;

const DATES = ['createdDate', 'resolvedDate'];

/** A member reports another member -> `{ report }`. */
export const reportMember = defineMethod((client, report: wire.CreateReportInput) =>
  client.request<{ report: Report }>({ method: 'POST', path: '/members/v1/reports', payload: { ...report }, decode: { dates: DATES.map((d) => `report.${d}`) } }));

/** Elevated: newest first, offset paging -> `{ reports, metadata }`. */
export const listReports = defineMethod((client, options: ListReportsOptions = {}) =>
  client.request<{ reports: Report[]; metadata: PagingMetadata }>({ method: 'GET', path: '/members/v1/reports', payload: { ...options }, decode: { dates: DATES.map((d) => `reports.${d}`) } }));

/** Elevated: closes an open report; `mute` also mutes the reported member -> the report. */
export const resolveReport = defineMethod(async (client, _id: string, options: { mute?: boolean; note?: string } = {}) =>
  (await client.request<{ report: Report }>({
    method: 'POST', path: `/members/v1/reports/${encodeURIComponent(_id)}/resolve`, payload: { _id, ...options }, decode: { dates: DATES.map((d) => `report.${d}`) }, argumentFields: { id: '_id' },
  })).report);
