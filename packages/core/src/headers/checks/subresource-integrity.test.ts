import { describe, expect, test } from 'vitest';
import { pageScanInput } from '../../../test/fixtures/scan-input.js';
import { checkSubresourceIntegrity, sriSteps } from './subresource-integrity.js';

/** A page of `count` scripts: external ones over http and https, with and without integrity. */
function page(count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const scheme = i % 3 === 0 ? 'http' : 'https';
    const integrity = i % 5 === 0 ? ' integrity="sha384-x"' : '';
    return `<script src="${scheme}://s${i}.example/a.js"${integrity}></script>`;
  }).join('');
}

describe('the SRI check in steps', () => {
  test('steps through thousands of scripts and ends where the check in one go ends', () => {
    for (const count of [0, 1, 5_000, 20_000]) {
      const input = {
        ...pageScanInput({
          url: 'https://site.example/',
          headers: { 'content-type': ['text/html'] },
        }),
        body: page(count),
      };
      const steps = sriSteps(input);
      let yields = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) yields++;
      expect(step.value).toEqual(checkSubresourceIntegrity(input));
      // A step per couple of thousand scripts: more steps for more scripts, none for a few.
      if (count <= 1) expect(yields).toBe(0);
      else expect(yields).toBeGreaterThanOrEqual(Math.floor(count / 4096));
    }
  });
});
