import { conflict } from '../../http/errors.js';
import type { ActivityStatus, MemberStatus } from './model.js';

/**
 * Allowed member status changes (docs/members.md has the table). Anything else is refused with
 * 409 MEMBER_STATUS_TRANSITION_NOT_ALLOWED, naming the action and the current status.
 */
export type StatusAction = 'approve' | 'block' | 'disconnect';

const STATUS_TRANSITIONS: Record<StatusAction, Partial<Record<MemberStatus, MemberStatus>>> = {
  approve: { PENDING: 'APPROVED', BLOCKED: 'APPROVED', OFFLINE: 'APPROVED' },
  block: { PENDING: 'BLOCKED', APPROVED: 'BLOCKED', OFFLINE: 'BLOCKED' },
  disconnect: { PENDING: 'OFFLINE', APPROVED: 'OFFLINE', BLOCKED: 'OFFLINE' },
};

export function nextStatus(action: StatusAction, from: MemberStatus): MemberStatus {
  const to = STATUS_TRANSITIONS[action][from];
  if (!to) {
    throw conflict('MEMBER_STATUS_TRANSITION_NOT_ALLOWED', `Cannot ${action} a member whose status is ${from}`, { action, status: from });
  }
  return to;
}

export type ActivityAction = 'mute' | 'unmute';

const ACTIVITY_TRANSITIONS: Record<ActivityAction, Partial<Record<ActivityStatus, ActivityStatus>>> = {
  mute: { ACTIVE: 'MUTED' },
  unmute: { MUTED: 'ACTIVE' },
};

export function nextActivity(action: ActivityAction, from: ActivityStatus): ActivityStatus {
  const to = ACTIVITY_TRANSITIONS[action][from];
  if (!to) {
    throw conflict('MEMBER_ACTIVITY_TRANSITION_NOT_ALLOWED', `Cannot ${action} a member whose activity status is ${from}`, { action, activityStatus: from });
  }
  return to;
}

/** The transition table as data, for docs and tests. */
export const TRANSITION_TABLE = { status: STATUS_TRANSITIONS, activity: ACTIVITY_TRANSITIONS } as const;
