/**
 * Member reports (`@vitrine/sdk/members` -> `reports`): our extension, the platform has no such API.
 * A member reports another member; owners list the reports and resolve them (optionally muting).
 */
import { defineMethod } from '../../define.js';
import type { PagingMetadata } from './members.js';

export type ReportReason = 'UNKNOWN' | 'SPAM' | 'IMPERSONATION' | 'HARASSMENT' | 'OTHER';
export type ReportStatus = 'OPEN' | 'RESOLVED';

export interface Report {
  _id: string;
  reporterId: string;
  memberId: string;
  reason: ReportReason;
  details?: string;
  status: ReportStatus;
  resolution?: { muted: boolean; note?: string };
  _createdDate: Date;
  resolvedDate?: Date;
}

export interface ListReportsOptions { status?: ReportStatus; memberId?: string; paging?: { limit?: number; offset?: number } }

const DATES = ['createdDate', 'resolvedDate'];

/** A member reports another member -> `{ report }`. */
export const reportMember = defineMethod((client, report: { memberId: string; reason: ReportReason; details?: string }) =>
  client.request<{ report: Report }>({ method: 'POST', path: '/members/v1/reports', payload: report, decode: { dates: DATES.map((d) => `report.${d}`) } }));

/** Elevated: newest first, offset paging -> `{ reports, metadata }`. */
export const listReports = defineMethod((client, options: ListReportsOptions = {}) =>
  client.request<{ reports: Report[]; metadata: PagingMetadata }>({ method: 'GET', path: '/members/v1/reports', payload: { ...options }, decode: { dates: DATES.map((d) => `reports.${d}`) } }));

/** Elevated: closes an open report; `mute` also mutes the reported member -> the report. */
export const resolveReport = defineMethod(async (client, _id: string, options: { mute?: boolean; note?: string } = {}) =>
  (await client.request<{ report: Report }>({
    method: 'POST', path: `/members/v1/reports/${encodeURIComponent(_id)}/resolve`, payload: { _id, ...options }, decode: { dates: DATES.map((d) => `report.${d}`) }, argumentFields: { id: '_id' },
  })).report);
