/**
 * The whole CSP check (`checkCsp`: the parse, the findings, the reported policy in code-unit
 * order) on each CSP worst case of bench/parsers, given as the `<meta http-equiv>` policy of an
 * https page, beside the parse alone: issue 20 item 1 asks for no synchronous step over 50 ms per
 * MiB, and the check runs straight after the parse in one step. Median of 9 runs, each also as a
 * multiple of the yardstick (`JSON.parse` of 1 MiB) run beside it, as in worst-case.bench.ts.
 * Run: npx tsx bench/parsers/csp-check.bench.ts
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { bundled } from '../bundle.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const { modules, dispose } = await bundled({
  check: 'packages/core/src/headers/checks/csp.ts',
  parser: 'packages/core/src/headers/checks/csp-parser.ts',
  inputs: 'packages/core/test/adversarial/inputs.ts',
  scan: 'packages/core/test/fixtures/scan-input.ts',
});
const { pageScanInput } = modules.scan as {
  pageScanInput(page: { httpEquiv: Record<string, string[]> }): unknown;
};
const { checkCsp } = modules.check as { checkCsp(input: unknown): { result: string } };
const { parseCsp } = modules.parser as { parseCsp(policies: string[]): unknown };
const { WORST_CASES } = modules.inputs as {
  WORST_CASES: { parser: string; shape: string; limit: number; make(bytes: number): unknown }[];
};

const MIB = 1024 * 1024;
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const yardstickText = JSON.stringify(
  Array.from({ length: 9000 }, (_, i) => ({ handle: `H${i}`, roles: ['registrar'], n: i })),
);
const yardstick = () => {
  const t0 = performance.now();
  JSON.parse(yardstickText);
  return ((performance.now() - t0) * MIB) / yardstickText.length;
};
const timed = (run: () => unknown) => {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
};

console.log(
  '| CSP worst case, as a `<meta>` policy | parse, ms per MiB | whole check, ms per MiB | whole check × JSON.parse beside it | finding |',
);
console.log('|---|---:|---:|---:|---|');
for (const c of WORST_CASES.filter((c) => c.parser.startsWith('CSP'))) {
  const policies = c.make(c.limit) as string[];
  const mib = Buffer.byteLength(policies.join('')) / MIB;
  const input = pageScanInput({ httpEquiv: { 'content-security-policy': policies } });
  const parse = () => {
    try {
      parseCsp(policies);
    } catch {
      // An invalid policy is a finding of the check, not a failure.
    }
  };
  collectGarbage();
  parse();
  const result = checkCsp(input).result;
  const parses: number[] = [];
  const checks: number[] = [];
  const multiples: number[] = [];
  for (let run = 0; run < 9; run++) {
    parses.push(timed(parse) / mib);
    const before = yardstick();
    const check = timed(() => checkCsp(input)) / mib;
    checks.push(check);
    multiples.push(check / ((before + yardstick()) / 2));
  }
  console.log(
    `| ${c.shape} | ${median(parses).toFixed(1)} | ${median(checks).toFixed(1)} | ${median(multiples).toFixed(2)} | ${result} |`,
  );
}
dispose();
