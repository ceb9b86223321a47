// Claude Code 2.1.328, for real (suite.ts).
import { describeRealClaudeCode } from './suite.js';

describeRealClaudeCode('2.1.328');
