import { describe, it } from 'vitest';
import { modelCheckAgentMachine } from '../../src/testing/index.js';
import { expectReported } from './expect-reported.js';
import { VARIANT_BUGS } from './planted-bugs.js';

describe('the model checker, on machine variants with a planted bug', () => {
  for (const { bug, check, reported } of VARIANT_BUGS) {
    it(`reports: ${bug}`, () => expectReported(modelCheckAgentMachine(check), reported));
  }
});
