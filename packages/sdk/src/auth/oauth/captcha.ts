import type { OAuthCore } from './visitor.js';

/**
 * The server's self-hosted proof-of-work captcha (ALTCHA format, docs/identity.md): fetch a challenge,
 * find the number, hand the token to register/login as `captchaTokens.noCaptchaToken`.
 */
export const CAPTCHA_CHALLENGE_PATH = '/_api/iam/captcha/v1/challenge';

export type CaptchaMode = 'invisible' | 'visible';

interface Challenge { algorithm: string; challenge: string; salt: string; signature: string; maxnumber: number }

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

export interface CaptchaFlows {
  /** Solves a fresh challenge (about maxnumber/2 hashes: well under a second for `invisible`). */
  getCaptchaToken(mode?: CaptchaMode): Promise<string>;
}

export function captchaFlows(core: OAuthCore): CaptchaFlows {
  return {
    async getCaptchaToken(mode = 'invisible') {
      const env = core.env();
      const res = await env.fetch(`${env.host.replace(/\/+$/, '')}${CAPTCHA_CHALLENGE_PATH}?mode=${mode}`);
      if (res.status !== 200) throw new Error(`Captcha challenge failed with status ${res.status}`);
      const c = (await res.json()) as Challenge;
      for (let n = 0; n <= c.maxnumber; n++) {
        if ((await sha256Hex(c.salt + n)) === c.challenge) {
          return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: n, salt: c.salt, signature: c.signature }));
        }
      }
      throw new Error('Captcha challenge could not be solved');
    },
  };
}
