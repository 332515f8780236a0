/**
 * `netdiag completion bash|zsh|fish`: a completion script generated from the program itself, so
 * every command, alias and option stays in it without a hand-kept list. Load it with
 * `source <(netdiag completion bash)` (bash, zsh) or `netdiag completion fish | source`.
 * @module
 */

import { InvalidInputError } from '@netdiag/core/capabilities';
import type { Command, Option } from 'commander';
import type { RegisterCommand } from './types.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

interface CommandInfo {
  names: string[];
  description: string;
  options: { flags: string[]; description: string; choices: readonly string[] | undefined }[];
}

function describe(program: Command): CommandInfo[] {
  return program.commands
    .filter((c) => c.name() !== 'help')
    .map((c) => ({
      names: [c.name(), ...c.aliases()],
      description: c.description(),
      options: (c.options as readonly Option[]).map((o) => ({
        flags: [o.short, o.long].filter((f): f is string => typeof f === 'string'),
        description: o.description,
        choices: o.argChoices,
      })),
    }));
}

/** Words safe inside single quotes in every shell. */
function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

export function bashScript(program: Command): string {
  const commands = describe(program);
  const cases = commands
    .map((c) => {
      const flags = c.options.flatMap((o) => o.flags).join(' ');
      return `    ${c.names.join('|')}) opts=${quote(`${flags} --help`)} ;;`;
    })
    .join('\n');
  const formats = commands.flatMap((c) => c.options).find((o) => o.choices)?.choices ?? [];
  return `# netdiag completion for bash: source <(netdiag completion bash)
_netdiag() {
  local cur prev cmd opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  if [[ \${COMP_CWORD} -eq 1 ]]; then
    COMPREPLY=( $(compgen -W ${quote(`${commands.flatMap((c) => c.names).join(' ')} help --help --version`)} -- "\${cur}") )
    return 0
  fi
  case "\${prev}" in
    --format) COMPREPLY=( $(compgen -W ${quote(formats.join(' '))} -- "\${cur}") ); return 0 ;;
    -f|--file) COMPREPLY=( $(compgen -f -- "\${cur}") ); return 0 ;;
  esac
  case "\${cmd}" in
${cases}
    *) opts='--help' ;;
  esac
  if [[ "\${cur}" == -* ]]; then
    COMPREPLY=( $(compgen -W "\${opts}" -- "\${cur}") )
  fi
  return 0
}
complete -o default -F _netdiag netdiag
`;
}

export function zshScript(program: Command): string {
  // zsh runs the bash function through bashcompinit: one definition for both shells.
  return `#compdef netdiag
# netdiag completion for zsh: source <(netdiag completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(program).replace(/^# netdiag completion for bash.*\n/, '')}`;
}

export function fishScript(program: Command): string {
  const commands = describe(program);
  const all = commands.flatMap((c) => c.names).join(' ');
  const lines = [
    '# netdiag completion for fish: netdiag completion fish | source',
    'complete -c netdiag -f',
  ];
  for (const c of commands) {
    for (const name of c.names) {
      lines.push(
        `complete -c netdiag -n ${quote(`not __fish_seen_subcommand_from ${all}`)} -a ${name} -d ${quote(c.description.slice(0, 80))}`,
      );
    }
    for (const o of c.options) {
      const parts = o.flags.map((f) =>
        f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`,
      );
      const choices = o.choices ? ` -x -a ${quote(o.choices.join(' '))}` : '';
      lines.push(
        `complete -c netdiag -n ${quote(`__fish_seen_subcommand_from ${c.names.join(' ')}`)} ${parts.join(' ')}${choices} -d ${quote(o.description.slice(0, 80))}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export const registerCompletion: RegisterCommand = (program, { io }) => {
  program
    .command('completion')
    .description('print a shell completion script: bash, zsh or fish')
    .argument('<shell>', SHELLS.join(', '))
    .addHelpText(
      'after',
      '\nLoad it now: source <(netdiag completion bash)   (zsh: the same with zsh)\n' +
        '             netdiag completion fish | source\n' +
        'Or save it where your shell reads completions, e.g.\n' +
        '  netdiag completion bash > ~/.local/share/bash-completion/completions/netdiag\n',
    )
    .action((shell: string) => {
      if (shell === 'bash') io.stdout(bashScript(program));
      else if (shell === 'zsh') io.stdout(zshScript(program));
      else if (shell === 'fish') io.stdout(fishScript(program));
      else throw new InvalidInputError(`unknown shell "${shell}": use bash, zsh or fish`);
    });
};
