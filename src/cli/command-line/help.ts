import { CommandHelp, Help, type Command, type Interfaces } from '../oclif.js';

/**
 * oclif marks every argument of a command that takes a variable number of them (`strict = false`)
 * as repeatable: `remote-state add WORKSPACE... [CONSUMERS...]`. In berth only the last argument
 * repeats, so the usage line and the ARGUMENTS section say `WORKSPACE [CONSUMERS...]`.
 */
export function variadicLast(command: Command.Loadable): Command.Loadable {
  if (command.strict !== false) return command;
  const entries = Object.entries(command.args ?? {});
  const visible = entries.filter(([, a]) => !a.hidden);
  if (visible.length === 0) return command;
  const [lastKey, last] = visible[visible.length - 1];
  return {
    ...command,
    strict: true,
    args: Object.fromEntries(entries.map(([k, a]) => [k, k === lastKey ? { ...last, name: `${last.name}...` } : a])),
  };
}

class BerthCommandHelp extends CommandHelp {
  constructor(command: Command.Loadable, config: Interfaces.Config, opts: Interfaces.HelpOptions) {
    super(variadicLast(command), config, opts);
  }
}

/** berth's help: oclif's, with the usage of variadic arguments as above (package.json's oclif.helpClass). */
export class BerthHelp extends Help {
  protected override getCommandHelpClass(command: Command.Loadable): CommandHelp {
    return new BerthCommandHelp(command, this.config, this.opts);
  }
}
