import { z } from 'zod';
import type { MemberAboutInput, RichContent } from '@vitrine/types/members';
import { conforms } from '../../http/conforms.js';
import { route, type RouteDef } from '../../http/route.js';
import {
  createMemberAbout, deleteMemberAbout, getMemberAbout, getMyMemberAbout, queryMemberAbouts, updateMemberAbout, ABOUT_PAGE_MAX,
} from './abouts.js';
import { CURSOR_MAX_LENGTH } from '../../http/cursor.js';
import { getJob, startJob } from './jobs.js';
import { REVISION_MAX_DIGITS } from './limits.js';
import { listReports, reportMember, resolveReport } from './reports.js';
import {
  bulkDeleteRequest, byFilterRequest, createMemberRequest, createReportRequest, deleteByFilterRequest, deleteMemberRequest,
  deleteMyMemberRequest, getMemberRequest, getMyMemberRequest, guid, idRequest, jobIdResponse, jobRequest, listMembersRequest,
  listReportsRequest, memberResponse, memberSlugRequest, membersPageResponse, queryMembersRequest, resolveReportRequest, slugRequest,
  updateMemberRequest,
} from './schema.js';
import {
  bulkDeleteMembers, changeActivity, changeStatus, createMember, deleteContactList, deleteMember, deleteMyMember, getMember,
  getMyMember, joinCommunity, leaveCommunity, listMembers, queryMembers, updateMember, updateMemberSlug, updateMySlug,
} from './service.js';
import { aboutAnswer, aboutsPageAnswer, jobAnswer, memberAnswer, membersPageAnswer, writtenMemberAnswer } from './view.js';

const M = '/members/v1/members';
const empty = z.object({});

const statusRoute = (action: 'approve' | 'block' | 'disconnect', summary: string) => route({
  method: 'POST', path: `${M}/:id/${action}`, access: 'elevated', summary, request: idRequest, response: memberResponse,
  handler: async (ctx, input) => writtenMemberAnswer(ctx, await changeStatus(ctx, input.id, action)),
});
const activityRoute = (action: 'mute' | 'unmute', summary: string) => route({
  method: 'POST', path: `${M}/:id/${action}`, access: 'elevated', summary, request: idRequest, response: memberResponse,
  handler: async (ctx, input) => writtenMemberAnswer(ctx, await changeActivity(ctx, input.id, action)),
});
const contactListRoute = (list: 'phones' | 'emails' | 'addresses') => route({
  method: 'DELETE', path: `${M}/:id/${list}`, access: 'elevated', summary: `Remove all ${list} of a member's contact`, request: idRequest, response: memberResponse,
  handler: async (ctx, input) => writtenMemberAnswer(ctx, await deleteContactList(ctx, input.id, list)),
});

const aboutInput = conforms<MemberAboutInput>()(z.strictObject({
  id: guid.optional(),
  memberId: guid.optional(),
  revision: z.string().regex(new RegExp(`^\\d{1,${REVISION_MAX_DIGITS}}$`), 'must be an integer string').optional(),
  // Any value passes here: the service's validateRichContent checks the document and names the violations.
  content: z.custom<RichContent>().optional(),
}));

export const membersRoutes: RouteDef[] = [
  // --- the caller's own member
  route({
    method: 'GET', path: `${M}/my`, access: 'member', summary: 'The logged-in member (fieldsets: PUBLIC by default, up to FULL)',
    request: getMyMemberRequest, response: memberResponse, handler: async (ctx, input) => memberAnswer(ctx, await getMyMember(ctx), input.fieldsets),
  }),
  route({
    method: 'POST', path: `${M}/my/slug`, access: 'member', summary: 'Change the logged-in member\'s profile slug',
    request: slugRequest, response: memberResponse, handler: async (ctx, input) => writtenMemberAnswer(ctx, await updateMySlug(ctx, input.slug)),
  }),
  route({
    method: 'POST', path: `${M}/join-community`, access: 'member', summary: 'Make the logged-in member PUBLIC',
    request: empty, response: memberResponse, handler: async (ctx) => writtenMemberAnswer(ctx, await joinCommunity(ctx)),
  }),
  route({
    method: 'POST', path: `${M}/leave-community`, access: 'member', summary: 'Make the logged-in member PRIVATE',
    request: empty, response: memberResponse, handler: async (ctx) => writtenMemberAnswer(ctx, await leaveCommunity(ctx)),
  }),
  route({
    method: 'DELETE', path: `${M}/my`, access: 'member', summary: 'Delete the logged-in member (content to contentAssigneeId)',
    request: deleteMyMemberRequest, handler: (ctx, input) => deleteMyMember(ctx, input.contentAssigneeId),
  }),

  // --- reads (visitors see public members' public fields)
  route({
    method: 'GET', path: `${M}/:id`, access: 'visitor', summary: 'A member, in the fieldsets the caller may see',
    request: getMemberRequest, response: memberResponse, handler: async (ctx, input) => memberAnswer(ctx, await getMember(ctx, input.id), input.fieldsets),
  }),
  route({
    method: 'GET', path: M, access: 'visitor', summary: 'List members (offset paging, sorting)',
    request: listMembersRequest, response: membersPageResponse,
    handler: async (ctx, input) => membersPageAnswer(ctx, await listMembers(ctx, { paging: input.paging, sorting: input.sorting }), input.fieldsets),
  }),
  route({
    method: 'POST', path: `${M}/query`, access: 'visitor', summary: 'Query members: filter, sorting, search, offset paging',
    request: queryMembersRequest, response: membersPageResponse,
    handler: async (ctx, input) => membersPageAnswer(ctx, await queryMembers(ctx, {
      filter: input.query?.filter, paging: input.query?.paging, sorting: input.query?.sorting ?? input.query?.sort, search: input.search,
    }), input.fieldsets),
  }),

  // --- owner administration
  route({
    method: 'POST', path: M, access: 'elevated', summary: 'Create a member',
    request: createMemberRequest, response: memberResponse, handler: async (ctx, input) => writtenMemberAnswer(ctx, await createMember(ctx, input.member)),
  }),
  route({
    method: 'PATCH', path: `${M}/:memberId`, access: 'visitor', summary: 'Update a member (owner: anyone; a member: themselves)',
    request: updateMemberRequest, response: memberResponse, handler: async (ctx, input) => writtenMemberAnswer(ctx, await updateMember(ctx, input.memberId, input.member)),
  }),
  route({
    method: 'POST', path: `${M}/:id/slug`, access: 'elevated', summary: 'Change a member\'s profile slug',
    request: memberSlugRequest, response: memberResponse, handler: async (ctx, input) => writtenMemberAnswer(ctx, await updateMemberSlug(ctx, input.id, input.slug)),
  }),
  activityRoute('mute', 'Mute a member (ACTIVE -> MUTED)'),
  activityRoute('unmute', 'Unmute a member (MUTED -> ACTIVE)'),
  statusRoute('approve', 'Approve a member (PENDING, BLOCKED or OFFLINE -> APPROVED)'),
  statusRoute('block', 'Block a member (-> BLOCKED; revokes their tokens)'),
  statusRoute('disconnect', 'Disconnect a member (-> OFFLINE; revokes their tokens)'),
  route({
    method: 'DELETE', path: `${M}/:id`, access: 'elevated', summary: 'Delete a member (content to contentAssigneeId)',
    request: deleteMemberRequest, handler: (ctx, input) => deleteMember(ctx, input.id, input.contentAssigneeId),
  }),
  contactListRoute('phones'),
  contactListRoute('emails'),
  contactListRoute('addresses'),
  route({
    method: 'POST', path: `${M}/bulk/delete`, access: 'elevated', summary: 'Delete up to 1000 members; results per id',
    request: bulkDeleteRequest, handler: (ctx, input) => bulkDeleteMembers(ctx, input.memberIds),
  }),
  route({
    method: 'POST', path: `${M}/bulk/delete-by-filter`, access: 'elevated', summary: 'Background job: delete the members matching a filter',
    request: deleteByFilterRequest, response: jobIdResponse,
    handler: (ctx, input) => startJob(ctx, 'DELETE', { filter: input.filter, search: input.search, contentAssigneeId: input.contentAssigneeId }),
  }),
  route({
    method: 'POST', path: `${M}/bulk/approve-by-filter`, access: 'elevated', summary: 'Background job: approve the members matching a filter',
    request: byFilterRequest, response: jobIdResponse, handler: (ctx, input) => startJob(ctx, 'APPROVE', { filter: input.filter }),
  }),
  route({
    method: 'POST', path: `${M}/bulk/block-by-filter`, access: 'elevated', summary: 'Background job: block the members matching a filter',
    request: byFilterRequest, response: jobIdResponse, handler: (ctx, input) => startJob(ctx, 'BLOCK', { filter: input.filter }),
  }),
  route({
    method: 'GET', path: `${M}/bulk/jobs/:jobId`, access: 'elevated', summary: 'Progress of a by-filter bulk job',
    request: jobRequest, handler: async (ctx, input) => jobAnswer(await getJob(ctx, input.jobId)),
  }),

  // --- member reports
  route({
    method: 'POST', path: '/members/v1/reports', access: 'member', summary: 'Report another member (reason, details)',
    request: createReportRequest, handler: (ctx, input) => reportMember(ctx, input),
  }),
  route({
    method: 'GET', path: '/members/v1/reports', access: 'elevated', summary: 'List member reports (status, memberId, offset paging)',
    request: listReportsRequest, handler: (ctx, input) => listReports(ctx, input),
  }),
  route({
    method: 'POST', path: '/members/v1/reports/:id/resolve', access: 'elevated', summary: 'Resolve a report, optionally muting the member',
    request: resolveReportRequest, handler: (ctx, input) => resolveReport(ctx, input.id, input),
  }),

  // --- member-about rich text (members.membersAbout)
  route({
    method: 'POST', path: '/members/v2/abouts', access: 'visitor', summary: 'Create a member\'s about section (the member or an owner)',
    request: z.object({ memberAbout: aboutInput }), handler: async (ctx, input) => aboutAnswer(await createMemberAbout(ctx, input.memberAbout)),
  }),
  route({
    method: 'GET', path: '/members/v2/abouts/my', access: 'member', summary: 'The logged-in member\'s about section',
    request: empty, handler: async (ctx) => aboutAnswer(await getMyMemberAbout(ctx)),
  }),
  route({
    method: 'GET', path: '/members/v2/abouts/:id', access: 'visitor', summary: 'An about section of a member the caller can see',
    request: idRequest, handler: async (ctx, input) => aboutAnswer(await getMemberAbout(ctx, input.id)),
  }),
  route({
    method: 'PATCH', path: '/members/v2/abouts/:memberAboutId', access: 'visitor', summary: 'Update an about section (revision must match)',
    request: z.object({ memberAboutId: guid, memberAbout: aboutInput }),
    handler: async (ctx, input) => aboutAnswer(await updateMemberAbout(ctx, input.memberAboutId, input.memberAbout)),
  }),
  route({
    method: 'DELETE', path: '/members/v2/abouts/:id', access: 'visitor', summary: 'Delete an about section (the member or an owner)',
    request: idRequest, handler: (ctx, input) => deleteMemberAbout(ctx, input.id),
  }),
  route({
    method: 'POST', path: '/members/v2/abouts/query', access: 'visitor', summary: 'Query about sections of visible members (cursor paging)',
    request: z.object({
      query: z.strictObject({
        filter: z.record(z.string(), z.unknown()).nullish(),
        sort: z.array(z.unknown()).max(0, 'sorting is not supported; abouts come newest first').optional(),
        cursorPaging: z.strictObject({ limit: z.number().int().min(1).max(ABOUT_PAGE_MAX).nullish(), cursor: z.string().max(CURSOR_MAX_LENGTH).nullish() }).optional(),
      }).optional(),
    }),
    handler: async (ctx, input) => aboutsPageAnswer(await queryMemberAbouts(ctx, { filter: input.query?.filter, limit: input.query?.cursorPaging?.limit, cursor: input.query?.cursorPaging?.cursor })),
  }),
];
