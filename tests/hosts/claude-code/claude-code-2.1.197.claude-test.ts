// Claude Code 2.1.197, for real (suite.ts).
import { describeRealClaudeCode } from './suite.js';

describeRealClaudeCode('2.1.197');
