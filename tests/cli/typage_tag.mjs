// The peer for age tag recipients (p256tag, mlkem768p256tag) in tests/cli/test_age_tag.sh. typage (npm
// age-encryption) encrypts to age1tag1.../age1tagpq1... recipients but has no identity for them: theirs live
// in hardware tokens and plugins. So the identity here is a software one built for the test from typage's
// own dependencies (@noble/curves P-256, @noble/post-quantum MLKEM768-P256, @noble/hashes HKDF, @noble/ciphers
// ChaCha20-Poly1305), written from the age specification (c2sp.org/age) and RFC 9180, and handed to typage's
// Decrypter through its public Identity interface: typage parses the header, checks its MAC and decrypts the
// payload; this file only opens the stanza. `encrypt` uses typage's own tag recipients, so the identity is
// first shown to open what typage writes.
// TYPAGE_DIR names a folder where `npm install age-encryption` was run.
//   node typage_tag.mjs keygen p256|mlkem768p256 SECRET_FILE   -> prints the recipient, writes the secret (hex)
//   node typage_tag.mjs encrypt RECIPIENT IN OUT               -> typage encrypts to the tag recipient
//   node typage_tag.mjs decrypt p256|mlkem768p256 SECRET_FILE IN OUT
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const mod = (p) => import(pathToFileURL(join(process.env.TYPAGE_DIR, "node_modules", p)).href);
const age = await mod("age-encryption/dist/index.js");
const { p256 } = await mod("@noble/curves/nist.js");
const { MLKEM768P256 } = await mod("@noble/post-quantum/hybrid.js");
const { extract, expand } = await mod("@noble/hashes/hkdf.js");
const { sha256 } = await mod("@noble/hashes/sha2.js");
const { chacha20poly1305 } = await mod("@noble/ciphers/chacha.js");
const { bech32, base64nopad, hex } = await mod("@scure/base/index.js");

const text = (s) => new TextEncoder().encode(s);
const cat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};
const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// RFC 9180 §4: LabeledExtract / LabeledExpand with HKDF-SHA256.
const labeledExtract = (suite, salt, label, ikm) => extract(sha256, cat(text("HPKE-v1"), suite, text(label), ikm), salt);
const labeledExpand = (suite, prk, label, info, L) =>
  expand(sha256, prk, cat(Uint8Array.of(L >> 8, L & 0xff), text("HPKE-v1"), suite, text(label), info), L);
// §5.1 KeySchedule(mode_base) and §5.2 Open with sequence number 0, KDF HKDF-SHA256, AEAD ChaCha20Poly1305.
function open(kemId, sharedSecret, info, ct) {
  const suite = cat(text("HPKE"), Uint8Array.of(kemId >> 8, kemId & 0xff, 0, 1, 0, 3));
  const context = cat(
    Uint8Array.of(0),
    labeledExtract(suite, undefined, "psk_id_hash", new Uint8Array(0)),
    labeledExtract(suite, undefined, "info_hash", info),
  );
  const secret = labeledExtract(suite, sharedSecret, "secret", new Uint8Array(0));
  const key = labeledExpand(suite, secret, "key", context, 32);
  const nonce = labeledExpand(suite, secret, "base_nonce", context, 12);
  return chacha20poly1305(key, nonce).decrypt(ct);
}
// The stanza tag: HKDF-Extract-SHA-256(ikm = enc || SHA-256(keyBytes)[:4], salt = label)[:4].
const tagOf = (enc, keyBytes, label) => extract(sha256, cat(enc, sha256(keyBytes).subarray(0, 4)), text(label)).subarray(0, 4);

const kinds = {
  p256: {
    type: "p256tag",
    label: "age-encryption.org/p256tag",
    encSize: 65,
    keygen() {
      const sk = p256.utils.randomSecretKey();
      return { secret: sk, recipient: bech32.encode("age1tag", bech32.toWords(p256.getPublicKey(sk, true)), false) };
    },
    tagKey: (sk) => p256.getPublicKey(sk, true), // the compressed encoding
    decap(enc, sk) {
      // DHKEM(P-256, HKDF-SHA256).Decap: dh = x(skR * pkE), ExtractAndExpand(dh, enc || pkRm).
      const dh = p256.getSharedSecret(sk, enc, true).subarray(1);
      const suite = cat(text("KEM"), Uint8Array.of(0x00, 0x10));
      const prk = labeledExtract(suite, undefined, "eae_prk", dh);
      return { kemId: 0x0010, ss: labeledExpand(suite, prk, "shared_secret", cat(enc, p256.getPublicKey(sk, false)), 32) };
    },
  },
  mlkem768p256: {
    type: "mlkem768p256tag",
    label: "age-encryption.org/mlkem768p256tag",
    encSize: 1153,
    keygen() {
      const seed = crypto.getRandomValues(new Uint8Array(32));
      const { publicKey } = MLKEM768P256.keygen(seed);
      return { secret: seed, recipient: bech32.encode("age1tagpq", bech32.toWords(publicKey), false) };
    },
    tagKey: (seed) => MLKEM768P256.keygen(seed).publicKey.subarray(1184), // the uncompressed P-256 half
    decap: (enc, seed) => ({ kemId: 0x0050, ss: MLKEM768P256.decapsulate(enc, seed) }),
  },
};

// A typage Identity for one kind of tag stanza, as a plugin would implement it (c2sp.org/age rules).
function identity(kind, secret) {
  const k = kinds[kind];
  return {
    unwrapFileKey(stanzas) {
      for (const s of stanzas) {
        if (s.args[0] !== k.type) continue;
        if (s.args.length !== 3) throw Error(`invalid ${k.type} stanza`);
        const tag = base64nopad.decode(s.args[1]);
        const enc = base64nopad.decode(s.args[2]);
        if (tag.length !== 4 || enc.length !== k.encSize || s.body.length !== 32) throw Error(`invalid ${k.type} stanza`);
        if (!equal(tag, tagOf(enc, k.tagKey(secret), k.label))) continue; // another token's stanza
        const { kemId, ss } = k.decap(enc, secret);
        try {
          return open(kemId, ss, text(k.label), s.body);
        } catch {
          continue;
        }
      }
      return null;
    },
  };
}

// batch: each line of standard input "encrypt R IN OUT" or "decrypt KIND SECRET IN OUT", in one process (a
// node start loading typage is a good part of a second); stops at the first that fails, naming it, exit 1.
async function run(cmd, args) {
  if (cmd === "keygen") {
    const { secret, recipient } = kinds[args[0]].keygen();
    writeFileSync(args[1], hex.encode(secret) + "\n");
    console.log(recipient);
  } else if (cmd === "encrypt") {
    const e = new age.Encrypter();
    e.addRecipient(args[0]);
    writeFileSync(args[2], await e.encrypt(readFileSync(args[1])));
  } else if (cmd === "decrypt") {
    const d = new age.Decrypter();
    d.addIdentity(identity(args[0], hex.decode(readFileSync(args[1], "utf8").trim())));
    const file = readFileSync(args[2]);
    const armored = file.subarray(0, 10).toString() === "-----BEGIN";
    writeFileSync(args[3], await d.decrypt(armored ? age.armor.decode(file.toString()) : file));
  } else {
    console.error("usage: typage_tag.mjs keygen KIND SECRET | encrypt R IN OUT | decrypt KIND SECRET IN OUT | batch");
    process.exit(2);
  }
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === "batch") {
  for (const line of readFileSync(0, "utf8").split("\n")) {
    const [each, ...its] = line.trim().split(/\s+/);
    if (each !== "encrypt" && each !== "decrypt") continue;
    try {
      await run(each, its);
    } catch (e) {
      console.error(`typage_tag.mjs batch: '${line.trim()}' failed: ${e}`);
      process.exit(1);
    }
  }
} else {
  await run(cmd, args);
}
