import type { AppDeps, RequestContext } from '../../http/context.js';
import { getSite } from '../sites/index.js';

/** The request context a payments job works in: the site's, acting as the platform (an app caller). */
export async function jobRequestContext(deps: AppDeps, siteId: string, jobId: string): Promise<RequestContext | undefined> {
  const site = await getSite(deps.storage.db, siteId);
  if (!site) return undefined;
  return {
    requestId: jobId, deps, db: deps.storage.db, dialect: deps.storage.dialect, caller: { kind: 'app', appId: 'payments' },
    origin: deps.config.publicUrl ?? '', ip: '127.0.0.1', log: deps.log, site,
  };
}
