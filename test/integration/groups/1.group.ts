import { runGroup } from './run-group';

await runGroup(1);
