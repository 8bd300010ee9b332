// What other domains may use of members: identity creates a member on registration and records logins.
export { createMemberFromIdentity, recordMemberLogin } from './service.js';
