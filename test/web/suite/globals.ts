// Imported first by index.ts: the test files that follow call describe() and it() as they are evaluated.
import { installGlobals } from './bdd';

installGlobals();
