import { providerResultJob } from './result-job.js';
import { scheduledActionJob } from './scheduled-job.js';

export { providerResultJob, scheduledActionJob };
/** The payments domain's job kinds, for allJobKinds() in src/server.ts. */
export const paymentsJobKinds = [providerResultJob, scheduledActionJob];
