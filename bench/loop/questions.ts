// Prints a corpus's questions without their answers, for the agents:
// `bun bench/loop/questions.ts <thirdparty|private> [tune|heldout]` → one "id<TAB>question" per line.
import { corpusName } from './corpus.ts';
import { loopQuestions } from './report.ts';

const corpus = corpusName(process.argv[2] ?? process.env.LOOP_CORPUS);
const half = process.argv[3];
if (half !== undefined && half !== 'tune' && half !== 'heldout') throw new Error('half: tune or heldout');
for (const q of loopQuestions(corpus)) if (!half || q.half === half) console.log(`${q.id}\t${q.question}`);
