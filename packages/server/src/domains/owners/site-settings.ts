/**
 * The store's details and member sign-up rules, as Settings edits them: the site's name, the
 * `ownerEmail` notices go to, e-mail verification, owner approval and captcha. They live on the
 * site row (its `settings` JSON); this is the one place an owner changes them over HTTP.
 */
import type { SiteDetails, SiteDetailsPatch } from '@vitrine/types';
import type { RequestContext } from '../../http/context.js';
import { inTransaction } from '../../storage/transaction.js';
import { getSite, getSiteForUpdate, updateSite, type Site } from '../sites/index.js';
import { notFound } from '../../http/errors.js';

export function presentSiteDetails(site: Site): SiteDetails {
  const s = site.settings;
  return {
    id: site.id,
    slug: site.slug,
    name: site.name,
    currency: site.currency,
    ownerEmail: typeof s.ownerEmail === 'string' ? s.ownerEmail : '',
    requireEmailVerification: s.requireEmailVerification === true,
    requireOwnerApproval: s.requireOwnerApproval === true,
    captcha: s.captcha === 'invisible' || s.captcha === 'visible' ? s.captcha : 'off',
  };
}

export async function getSiteDetails(ctx: RequestContext): Promise<SiteDetails> {
  // Fresh from the database, not the request's cached site: Settings shows what is stored now.
  const site = await getSite(ctx.db, ctx.site.id);
  if (!site) throw notFound('SITE_NOT_FOUND', 'The site no longer exists');
  return presentSiteDetails(site);
}

/** Merges the given fields into the stored ones (others keep their value) and answers the result. */
export async function updateSiteDetails(ctx: RequestContext, patch: SiteDetailsPatch): Promise<SiteDetails> {
  return inTransaction(ctx.db, async (trx) => {
    // Locked: two owners saving different fields at once must both keep their change.
    const site = await getSiteForUpdate(trx, ctx.dialect, ctx.site.id);
    if (!site) throw notFound('SITE_NOT_FOUND', 'The site no longer exists');
    const { name, ownerEmail, ...rules } = patch;
    const settings = { ...site.settings, ...rules, ...(ownerEmail !== undefined ? { ownerEmail: ownerEmail || undefined } : {}) };
    await updateSite(trx, site.id, { settings, ...(name !== undefined ? { name } : {}) });
    return presentSiteDetails({ ...site, settings, name: name ?? site.name });
  });
}
