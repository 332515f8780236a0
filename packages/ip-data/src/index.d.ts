/** The folder holding `netdiag-ip-data.bin`: what @netdiag/core's `ipDataDir` option takes. */
export declare const dataDir: string;
