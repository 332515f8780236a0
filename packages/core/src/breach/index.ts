/** Breach check (SPEC 2.6): `checkBreach` over the XposedOrNot breach-analytics API. */
export { type BreachResult, type CheckBreachOptions, checkBreach } from './check-breach.js';
