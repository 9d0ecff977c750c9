// Loaded before every test file (bunfig.toml `preload`): the suite spawns real servers, runtimes and
// browsers, so a test gets 60 s by default instead of bun's 5 s. (bunfig's `[test] timeout` key is
// not read by bun test: a test running past 5 s was cut off and its child processes killed.)
import { setDefaultTimeout } from 'bun:test';

setDefaultTimeout(60_000);
