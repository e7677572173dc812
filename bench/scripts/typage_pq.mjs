// Peer numbers for docs/BENCHMARKS.md: typage (npm age-encryption) hybrid post-quantum recipients and its ML-KEM
// (@noble/post-quantum), per operation, median of 7 runs. Usage: copy this file into a folder where `npm install
// age-encryption` was run and run it there (node resolves an ES module's imports from the script's own folder,
// not from the working directory): cp bench/scripts/typage_pq.mjs DIR/ && cd DIR && node typage_pq.mjs
import { generateHybridIdentity, identityToRecipient, Encrypter, Decrypter } from 'age-encryption';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';

async function median(n, f) {
  const runs = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await f();
    runs.push(((performance.now() - t0) * 1000) / n);
  }
  runs.sort((a, b) => a - b);
  return runs[3];
}
const report = (what, us) => console.log(`${what.padEnd(34)} ${us.toFixed(1).padStart(9)} us  ${(1e6 / us).toFixed(0).padStart(9)} /s`);

const { publicKey, secretKey } = ml_kem768.keygen();
const { cipherText } = ml_kem768.encapsulate(publicKey);
report('noble ML-KEM-768 keygen', await median(50, () => ml_kem768.keygen()));
report('noble ML-KEM-768 encaps', await median(50, () => ml_kem768.encapsulate(publicKey)));
report('noble ML-KEM-768 decaps', await median(50, () => ml_kem768.decapsulate(cipherText, secretKey)));

const id = await generateHybridIdentity();
const rcpt = await identityToRecipient(id);
const encrypt = async () => { const e = new Encrypter(); e.addRecipient(rcpt); return e.encrypt(new Uint8Array(16)); };
const file = await encrypt();
report('typage hybrid encrypt (1 recipient)', await median(20, encrypt));
report('typage hybrid decrypt (1 recipient)', await median(20, async () => { const d = new Decrypter(); d.addIdentity(id); return d.decrypt(file); }));
const others = await Promise.all(Array.from({ length: 19 }, async () => identityToRecipient(await generateHybridIdentity())));
const e20 = new Encrypter();
for (const r of others) e20.addRecipient(r);
e20.addRecipient(rcpt);
const file20 = await e20.encrypt(new Uint8Array(16));
report('typage 20 PQ stanzas, match last', await median(5, async () => { const d = new Decrypter(); d.addIdentity(id); return d.decrypt(file20); }));
