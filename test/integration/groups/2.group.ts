import { runGroup } from './run-group';

await runGroup(2);
