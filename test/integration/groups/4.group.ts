import { runGroup } from './run-group';

await runGroup(4);
