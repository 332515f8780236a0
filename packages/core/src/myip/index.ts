/** This machine's public address from DNS alone (`netdiag ip` without an argument). */
export { type DiscoverPublicIpOptions, discoverPublicIp } from './discover.js';
export { MYIP_METHODS, type MyIpMethod, parseMyIpServers } from './methods.js';
