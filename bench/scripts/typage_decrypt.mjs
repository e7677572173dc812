// One typage decryption as a whole process, the peer of `pcrypt decrypt -i KEY FILE -o -` for
// docs/BENCHMARKS.md. Usage: copy this file beside node_modules of an `npm install age-encryption` and run
// node typage_decrypt.mjs IDENTITY_FILE AGE_FILE (the identity file's AGE-SECRET-KEY-PQ-1… line is used;
// the plaintext is discarded).
import { Decrypter } from 'age-encryption';
import { readFileSync } from 'node:fs';

const id = readFileSync(process.argv[2], 'utf8').split('\n').find((l) => l.startsWith('AGE-SECRET-KEY-PQ-1'));
const d = new Decrypter();
d.addIdentity(id);
await d.decrypt(readFileSync(process.argv[3]));
