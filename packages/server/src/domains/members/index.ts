// What other domains may use of members: identity creates a member on registration, records logins
// and lets the holder of an owner-created member's e-mail claim it.
export { createMemberFromIdentity, memberLoginByEmail, memberLoginById, recordMemberLogin, type MemberLogin } from './service.js';
