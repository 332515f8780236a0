/** `checkSite` (SPEC 2.12, `/api/down`): is a web site up? @module */
export {
  type CheckSiteOptions,
  checkSite,
  type SiteCheckResult,
  type SiteTls,
} from './check-site.js';
