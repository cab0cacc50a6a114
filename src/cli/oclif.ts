/**
 * The one door to @oclif/core for berth's own code. @oclif/core is CommonJS: the bundler gives
 * every ES module that imports it a copy of its whole export object, which cost milliseconds of
 * start-up for 76 importing files. Importing it here once and re-exporting makes that one copy.
 */
export { Args, Command, CommandHelp, execute, Flags, flush, handle, Help } from '@oclif/core';
export type { Interfaces } from '@oclif/core';
