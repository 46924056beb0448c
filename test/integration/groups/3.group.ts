import { runGroup } from './run-group';

await runGroup(3);
