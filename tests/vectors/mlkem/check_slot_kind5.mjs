// Independent check of slot_kind5.txt's HPKE half with Node's own HMAC-SHA256 and ChaCha20-Poly1305 (RFC 9180
// key schedule, mode_base): expect_shared_secret -> expect_hpke_key / expect_hpke_base_nonce -> the sealed file
// key at the end of expect_slot. Run: node check_slot_kind5.mjs slot_kind5.txt
import { readFileSync } from 'node:fs';
import { createHmac, createCipheriv } from 'node:crypto';

const kv = Object.fromEntries(readFileSync(process.argv[2], 'latin1').split('\n')
  .filter((l) => l && !l.startsWith('#')).map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
// Exactly the fields test_pq_slot writes, each once: a stray or repeated line is an error in the vector.
const fields = ['identity_seed', 'identity', 'recipient', 'encaps_randomness', 'file_key', 'expect_shared_secret',
  'expect_hpke_key', 'expect_hpke_base_nonce', 'expect_slot'];
const lines = readFileSync(process.argv[2], 'latin1').split('\n').filter((l) => l && !l.startsWith('#'));
if (lines.length !== fields.length || fields.some((f) => !(f in kv))) {
  console.log(`${process.argv[2]}: expected exactly the fields ${fields.join(', ')}`);
  process.exit(1);
}
const hex = (h) => Buffer.from(h, 'hex');
const suite = Buffer.concat([Buffer.from('HPKE'), hex('647a00010003')]);
const hmac = (key, ...parts) => { const h = createHmac('sha256', key); parts.forEach((p) => h.update(p)); return h.digest(); };
const extract = (salt, label, ikm) => hmac(salt, Buffer.from('HPKE-v1'), suite, Buffer.from(label), ikm);
const expand = (prk, label, info, n) =>
  hmac(prk, Buffer.from([0, n]), Buffer.from('HPKE-v1'), suite, Buffer.from(label), info, Buffer.from([1])).subarray(0, n);
const info = Buffer.from('pcrypt-mlkem768x25519-wrap');
const ctx = Buffer.concat([Buffer.from([0]), extract(Buffer.alloc(0), 'psk_id_hash', Buffer.alloc(0)),
  extract(Buffer.alloc(0), 'info_hash', info)]);
const secret = extract(hex(kv.expect_shared_secret), 'secret', Buffer.alloc(0));
const key = expand(secret, 'key', ctx, 32), nonce = expand(secret, 'base_nonce', ctx, 12);
const c = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
c.setAAD(Buffer.alloc(0));
const sealed = Buffer.concat([c.update(hex(kv.file_key)), c.final(), c.getAuthTag()]);
const ok = key.toString('hex') === kv.expect_hpke_key && nonce.toString('hex') === kv.expect_hpke_base_nonce &&
  sealed.toString('hex') === kv.expect_slot.slice(-96) && kv.expect_slot.length === 2 * 1169;
console.log(ok ? 'slot_kind5.txt: HPKE key schedule and sealed file key confirmed' : 'MISMATCH');
process.exit(ok ? 0 : 1);
