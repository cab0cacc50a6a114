/**
 * Entry of the CLI bundle. oclif finds the commands through COMMANDS (the "explicit" strategy),
 * so that one bundled file holds them all instead of a folder of modules.
 */
import OrgCreate from '../commands/org/create.js';
import OrgDelete from '../commands/org/delete.js';
import OrgList from '../commands/org/list.js';
import OrgShow from '../commands/org/show.js';
import OrgUpdate from '../commands/org/update.js';
import Serve from '../commands/serve.js';
import TokenCreate from '../commands/token/create.js';
import UserCreate from '../commands/user/create.js';
import UserDelete from '../commands/user/delete.js';
import UserList from '../commands/user/list.js';

export const COMMANDS = {
  'org:create': OrgCreate,
  'org:delete': OrgDelete,
  'org:list': OrgList,
  'org:show': OrgShow,
  'org:update': OrgUpdate,
  serve: Serve,
  'token:create': TokenCreate,
  'user:create': UserCreate,
  'user:delete': UserDelete,
  'user:list': UserList,
};

export { execute, flush, handle } from '@oclif/core';
